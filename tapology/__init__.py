"""tapology: board games on taped-together surfaces."""

__version__ = "0.1.0"
