"""Solving games exactly: layered and memoised search, board symmetries, the reachable state space."""
