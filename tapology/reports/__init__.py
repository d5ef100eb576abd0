"""The questions the command line answers, one report per command: a value with ``to_json()`` (what ``--json``
prints), ``text()`` (what people read) and ``exit_code`` (0 yes/done, 1 no, 130 stopped early)."""
