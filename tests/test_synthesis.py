"""Synthesis and census: z3 and the enumerator agree; torus boards are counted by sublattices of Z²."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapology.cli import main
from tapology.errors import SynthesisError
from tapology.model.boardfile import load_board
from tapology.model.builtins import builtin_board
from tapology.model.isomorphism import signature
from tapology.solver.synthesis import Request, synthesize

D4 = [((1, 0), (0, 1)), ((0, 1), (-1, 0)), ((-1, 0), (0, -1)), ((0, -1), (1, 0)),
      ((-1, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 0), (0, -1)), ((0, -1), (-1, 0))]


def lattice_classes(n: int) -> int:
    """Sublattices of Z² of index n up to the square's symmetries, from Hermite normal form bases.

    Every such lattice has exactly one basis (a, 0), (b, d) with a·d = n and 0 ≤ b < a; a lattice is
    compared with another by its points modulo n (it contains nZ²).
    """

    def points(v1: tuple[int, int], v2: tuple[int, int]) -> frozenset[tuple[int, int]]:
        return frozenset(((i * v1[0] + j * v2[0]) % n, (i * v1[1] + j * v2[1]) % n) for i in range(n) for j in range(n))

    def act(m: tuple[tuple[int, int], tuple[int, int]], v: tuple[int, int]) -> tuple[int, int]:
        return (m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1])

    lattices = set()
    for a in range(1, n + 1):
        if n % a:
            continue
        d = n // a
        for b in range(a):
            lattices.add(points((a, 0), (b, d)))
    assert len(lattices) == sum(k for k in range(1, n + 1) if n % k == 0)  # σ(n) sublattices of index n
    classes = set()
    for lat in lattices:
        classes.add(min(tuple(sorted(frozenset((act(m, p)[0] % n, act(m, p)[1] % n) for p in lat))) for m in D4))
    return len(classes)


def torus_count(n: int) -> int:
    req = Request.make(tiles=n, closed=True, orientable=True, manifold=True)
    res = synthesize(req)
    assert res.complete
    assert all(f.topology.surface == "torus" for f in res.boards)
    return len(res.boards)


@pytest.mark.parametrize("n", range(1, 9))
def test_torus_census_matches_lattices(n: int) -> None:
    assert torus_count(n) == lattice_classes(n)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(9, 13))
def test_torus_census_matches_lattices_large(n: int) -> None:
    assert torus_count(n) == lattice_classes(n)


def burnside_classes(n: int) -> int:
    """The same classes counted another way: Burnside's lemma, the mean over the 8 symmetries of the sublattices each
    one maps onto themselves (no canonical forms)."""
    lattices = set()
    for a in range(1, n + 1):
        if n % a == 0:
            d = n // a
            for b in range(a):
                lattices.add(frozenset(((i * a + j * b) % n, (j * d) % n) for i in range(n) for j in range(n)))
    fixed = 0
    for m in D4:
        for lat in lattices:
            if frozenset(((m[0][0] * x + m[0][1] * y) % n, (m[1][0] * x + m[1][1] * y) % n) for x, y in lat) == lat:
                fixed += 1
    assert fixed % len(D4) == 0
    return fixed // len(D4)


def test_lattice_counts_two_ways() -> None:
    # canonical forms against orbit counting by Burnside's lemma
    assert [lattice_classes(n) for n in range(1, 9)] == [burnside_classes(n) for n in range(1, 9)]


@pytest.mark.parametrize("n", [1, 2])
def test_z3_and_enumeration_agree(n: int) -> None:
    req = Request.make(tiles=n, closed=True)
    a = synthesize(req, engine="z3")
    b = synthesize(req, engine="enumerate")
    assert a.complete and b.complete
    assert sorted(f.signature for f in a.boards) == sorted(f.signature for f in b.boards)
    assert len({f.signature for f in a.boards}) == len(a.boards)  # every answer new up to isomorphism


def test_z3_and_enumeration_agree_with_boundary() -> None:
    req = Request.make(tiles=2, boundary=1, manifold=True)
    a = synthesize(req, engine="z3")
    b = synthesize(req, engine="enumerate")
    assert sorted(f.signature for f in a.boards) == sorted(f.signature for f in b.boards)
    assert {f.topology.surface for f in b.boards} >= {"disk", "mobius strip"}


def test_every_closed_answer_is_a_known_flat_surface() -> None:
    res = synthesize(Request.make(tiles=4, closed=True))
    surfaces = {f.topology.surface for f in res.boards if f.topology.manifold}
    assert surfaces == {"torus", "klein bottle"}
    assert any(not f.topology.manifold for f in res.boards)
    klein = synthesize(Request.make(tiles=4, closed=True, orientable=False, manifold=True))
    assert {f.topology.surface for f in klein.boards} == {"klein bottle"}


def test_complete_plane_into_klein_bottles() -> None:
    base = builtin_board("plane:3x3")
    res = synthesize(Request.make(base=base, closed=True, orientable=False, manifold=True))
    assert res.complete and len(res.boards) >= 1
    assert signature(builtin_board("klein:3x3")) in {f.signature for f in res.boards}
    for f in res.boards:
        assert f.topology.surface == "klein bottle"
        for t, row in enumerate(base.glue):  # the given tapings are kept
            for d, code in enumerate(row):
                if code >= 0:
                    assert f.board.glue[t][d] == code


def test_limit_and_timeout() -> None:
    res = synthesize(Request.make(tiles=6, closed=True), limit=3)
    assert len(res.boards) == 3 and not res.complete
    res = synthesize(Request.make(tiles=12, closed=True), timeout=0.2)
    assert res.timed_out and not res.complete


def test_bad_requests() -> None:
    with pytest.raises(SynthesisError):
        Request.make(tiles=3, closed=True, boundary=2)
    with pytest.raises(SynthesisError):
        Request.make()
    assert main(["synthesize", "--tiles", "0"]) == 2
    assert main(["synthesize", "--tiles", "2", "--closed", "--boundary", "1"]) == 2


def test_cli_json_and_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "boards"
    assert main(["synthesize", "--tiles", "3", "--closed", "--manifold", "--json", "-o", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == len(data["boards"]) == 6
    assert {b["surface"] for b in data["boards"]} == {"torus", "klein bottle"}
    files = sorted(out.glob("*.toml"))
    assert len(files) == 6
    sigs = {signature(load_board(str(f)).atlas().board()) for f in files}
    assert sigs == {b["signature"] for b in data["boards"]}
    assert main(["synthesize", "--tiles", "3", "--closed", "--manifold", "--count"]) == 0
    assert capsys.readouterr().out.strip() == "6"
    assert main(["synthesize", "--from", "plane:1x2", "--closed", "--count", "--engine", "z3"]) == 0
