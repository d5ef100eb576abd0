"""Analysing rule sets: predicates, bounded reachability, rewrites, properties, invariants, pitfalls,
repairs and metrics across surfaces."""
