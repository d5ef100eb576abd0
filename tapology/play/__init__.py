"""Playing, solving and analysing games, in three packages by concept.

* :mod:`tapology.play.playing`: :mod:`~tapology.play.playing.session` (the terminal game),
  :mod:`~tapology.play.playing.ai` (computer players), :mod:`~tapology.play.playing.transcript` (JSON lines, PGN)
  and :mod:`~tapology.play.playing.referee` (is each step one legal turn?).
* :mod:`tapology.play.solving`: :mod:`~tapology.play.solving.solve` (exact values and game-tree counts),
  :mod:`~tapology.play.solving.symmetry` (board and line-hypergraph automorphisms) and
  :mod:`~tapology.play.solving.statespace` (the reachable positions as a graph).
* :mod:`tapology.play.analysis`: :mod:`~tapology.play.analysis.predicate` (the ``--reach`` language),
  :mod:`~tapology.play.analysis.reach` (bounded reachability), :mod:`~tapology.play.analysis.rewrites`,
  :mod:`~tapology.play.analysis.properties`, :mod:`~tapology.play.analysis.invariants`,
  :mod:`~tapology.play.analysis.pitfalls`, :mod:`~tapology.play.analysis.repair` and
  :mod:`~tapology.play.analysis.metrics` (one rule set across surfaces).

The static checks of rule files live beside the rule sets, in :mod:`tapology.games.verify`; the k-in-a-row games in
:mod:`tapology.games.kinrow`; GAME arguments are resolved by :mod:`tapology.games.registry`.
"""
