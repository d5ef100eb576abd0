"""``tapology serve``: the browser workshop — tape boards by clicking, see the universal cover, play every game of
the registry on any board, walk a board with a field of view (the optional extra ``tapology[web]``)."""
