"""Shared pytest set-up: Hypothesis settings profiles and the ``--update-golden`` option.

Hypothesis profiles, chosen by the ``HYPOTHESIS_PROFILE`` environment variable:

* ``ci`` (the default): 50 examples per property, fast enough for every run;
* ``dev``: 10 examples, for quick runs while editing;
* ``thorough``: 1000 examples, for a long run before a release (``HYPOTHESIS_PROFILE=thorough python -m pytest``).

A test that must run more or fewer examples than the others (a cheap differential test, a slow one) says so
relative to the profile: ``@settings(max_examples=examples(10))`` (see :func:`tests.helpers.examples`).
"""

from __future__ import annotations

import gc
import os
import signal
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=50, deadline=None, print_blob=True)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A test process keeps what it has built (rule sets, compiled tables, engines) for the whole run, and CPython's cyclic
# collector scans every long-lived object again and again: at its default thresholds (700, 10, 10) a third of the
# CPU of tests/test_simulation.py went to it.  Collections are rarer here (a young collection every 10,000 net
# allocations), and what collection built is frozen out of them (pytest_collection_finish).
gc.set_threshold(10_000, 20, 20)


def pytest_collection_finish(session: pytest.Session) -> None:
    """The modules, rule sets and test items collection made live for the whole run: left out of the collector's
    scans."""
    gc.freeze()

# ``play`` saves every game after each turn; the tests' games go to a folder of their own, not the user's
os.environ["TAPOLOGY_AUTOSAVE"] = os.path.join(tempfile.mkdtemp(prefix="tapology-tests-"), "autosave.json")


def pytest_addoption(parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="Rewrite tests/golden/ from what the commands print today (then read the diff).")


_RAY: list = []  # the ray module while a cluster started by ray_cluster is up


@pytest.fixture
def ray_cluster():
    """A local Ray cluster (starting one takes seconds), up from the first test that asks for it until the run moves
    to a test in another file that does not ask for it (:func:`pytest_runtest_teardown`): the Ray tests of a file, and
    those of the ``xdist_group("ray")`` across files, share one; every other test sees no cluster.  Skips where the
    ray extra is not installed."""
    from tapology.parallel import ray_available

    if not ray_available():
        pytest.skip("the ray extra is not installed")
    import ray  # the optional extra

    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False)
        _RAY[:] = [ray]
    return ray


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    if not _RAY:
        return
    nxt = nextitem
    if nxt is None or ("ray_cluster" not in getattr(nxt, "fixturenames", ())
                       and getattr(nxt, "module", None) is not getattr(item, "module", None)):
        _RAY.pop().shutdown()


@pytest.fixture(autouse=True)
def _ctrl_c_interrupts():
    """Ctrl-C raises KeyboardInterrupt in every test, even when the run was started in the background (a shell
    without job control starts background jobs with SIGINT ignored, and the tests that press Ctrl-C would then
    see their job run to the end)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
