"""Playing, solving, refereeing and verifying games (``play``, ``solve``, ``referee``, ``verify``).

Modules: :mod:`~tapology.games.kinrow` (compiled k-in-a-row claim games on any board),
:mod:`~tapology.play.symmetry` (board and line-hypergraph automorphisms),
:mod:`~tapology.play.solve` (exact values and game-tree counts), :mod:`~tapology.play.referee`
(pure ``valid_transition`` along transcripts), :mod:`~tapology.play.transcript` (JSON lines),
:mod:`~tapology.play.predicate` and :mod:`~tapology.play.reach` (bounded reachability),
:mod:`~tapology.play.verify` (static checks of rule sets), :mod:`~tapology.play.ai` (computer
players), :mod:`~tapology.play.session` (the terminal game).  GAME arguments are resolved by
:mod:`tapology.games.registry`.
"""
