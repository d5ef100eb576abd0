"""Drawing boards and views: ASCII grids, unfoldings, fields of view."""

MAX_RADIUS = 200  # the largest radius a view unfolds to (its rings grow with the radius)
