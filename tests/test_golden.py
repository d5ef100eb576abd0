"""Every command's text and JSON on a few boards and games, byte for byte (see tests/golden/__init__.py).

After a deliberate change of output, rewrite the files and read the diff before committing::

    python -m tests.golden --update
    python -m pytest tests/test_golden.py --update-golden     # the same
"""

from __future__ import annotations

import pytest

from tests.golden import CASES, CODES, expected_codes, run, update

PAIRS = [(c, m) for c in CASES for m in c.modes]


@pytest.fixture(scope="session")
def golden_updated(request) -> bool:
    if request.config.getoption("--update-golden"):
        update()
        return True
    return False


@pytest.mark.parametrize(("case", "mode"), PAIRS, ids=[c.key(m) for c, m in PAIRS])
def test_golden(case, mode, golden_updated) -> None:
    code, out = run(case, mode)
    path = case.path(mode)
    assert path.exists(), f"no golden file {path.name}: python -m tests.golden --update"
    assert out == path.read_text(), f"{' '.join(case.argv_for(mode))} prints something else than {path.name}"
    assert code == expected_codes().get(case.key(mode)), f"exit code of {' '.join(case.argv_for(mode))} (see {CODES.name})"
