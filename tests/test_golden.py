"""Every command's text and JSON on a few boards and games, byte for byte (see tests/golden/__init__.py).

After a deliberate change of output, rewrite the files (each changed file's test then fails showing its diff; the
next run without the option passes)::

    python -m tests.golden --update
    python -m pytest tests/test_golden.py --update-golden     # the same
"""

from __future__ import annotations

import pytest

from tests.golden import CASES, CODES, expected_codes, run, update

PAIRS = [(c, m) for c in CASES for m in c.modes]


@pytest.fixture(scope="session")
def golden_updated(request) -> dict[str, str]:
    """With ``--update-golden``: the files rewritten and their diffs."""
    if request.config.getoption("--update-golden"):
        return update()
    return {}


@pytest.mark.xdist_group("golden")  # one process rewrites the files with --update-golden
@pytest.mark.parametrize(("case", "mode"), PAIRS, ids=[c.key(m) for c, m in PAIRS])
def test_golden(case, mode, golden_updated) -> None:
    removed = [k for k in golden_updated if k.endswith("(removed)")]
    assert not removed or (case, mode) != PAIRS[0], "golden files removed:\n" + "\n".join(golden_updated[k] for k in removed)
    assert case.key(mode) not in golden_updated, (f"{case.path(mode).name} rewritten; review the diff, then run "
                                                  f"without --update-golden:\n{golden_updated[case.key(mode)]}")
    code, out = run(case, mode)
    path = case.path(mode)
    assert path.exists(), f"no golden file {path.name}: python -m tests.golden --update"
    assert out == path.read_text(), f"{' '.join(case.argv_for(mode))} prints something else than {path.name}"
    assert code == expected_codes().get(case.key(mode)), f"exit code of {' '.join(case.argv_for(mode))} (see {CODES.name})"
