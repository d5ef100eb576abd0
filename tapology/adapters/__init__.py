"""Bridges to other frameworks: OpenSpiel (:mod:`tapology.adapters.openspiel`, the optional extra
``tapology[openspiel]``) and the computer players and match runner built on them (:mod:`tapology.adapters.match`)."""
