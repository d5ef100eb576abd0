"""The census on many cores.  The hex census: its torus column counts the sublattices of the hexagonal lattice of
index n up to the hexagon's 12 symmetries (Hermite normal form bases, as tests/test_synthesis.py does for the square);
the square census's tori up to n = 16 (slow)."""

from __future__ import annotations

import pytest

from tapology.parallel import executor
from tapology.solver.synthesis import Request, enumerate_boards

Matrix = tuple[tuple[int, int], tuple[int, int]]

# the hexagonal lattice in the basis e1 = (1, 0), e2 = (1/2, √3/2): a sixth of a turn and a mirror
R60: Matrix = ((0, -1), (1, 1))
MIRROR: Matrix = ((1, 1), (0, -1))


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2)) for i in range(2))  # type: ignore[return-value]


def hex_group() -> list[Matrix]:
    """The 12 symmetries of the hexagonal lattice as integer matrices."""
    out: list[Matrix] = [((1, 0), (0, 1))]
    frontier = list(out)
    while frontier:
        m = frontier.pop()
        for g in (R60, MIRROR):
            p = _mul(g, m)
            if p not in out:
                out.append(p)
                frontier.append(p)
    return out


def hex_lattice_classes(n: int) -> int:
    """Sublattices of index n of the hexagonal lattice up to its symmetries (points modulo n; each contains nZ²)."""
    group = hex_group()

    def act(m: Matrix, v: tuple[int, int]) -> tuple[int, int]:
        return ((m[0][0] * v[0] + m[0][1] * v[1]) % n, (m[1][0] * v[0] + m[1][1] * v[1]) % n)

    lattices = set()
    for a in range(1, n + 1):
        if n % a:
            continue
        d = n // a
        for b in range(a):
            lattices.add(frozenset(((i * a + j * b) % n, (j * d) % n) for i in range(n) for j in range(n)))
    return len({min(tuple(sorted(act(m, p) for p in lat)) for m in group) for lat in lattices})


def hex_tori(n: int) -> int:
    res = enumerate_boards(Request.make(tiles=n, grid="hex", closed=True, orientable=True, manifold=True),
                           ex=executor(2))
    assert res.complete and all(f.topology.surface == "torus" for f in res.boards)
    return len(res.boards)


def test_hex_group_and_known_counts() -> None:
    assert len(hex_group()) == 12
    assert [hex_lattice_classes(n) for n in range(1, 9)] == [1, 1, 2, 3, 2, 3, 3, 5]


@pytest.mark.parametrize("n", range(1, 7))
def test_hex_torus_census_matches_lattices(n: int) -> None:
    assert hex_tori(n) == hex_lattice_classes(n)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(7, 13))
def test_hex_torus_census_matches_lattices_large(n: int) -> None:
    assert hex_tori(n) == hex_lattice_classes(n)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(13, 17))
def test_square_torus_census_to_16_matches_lattices(n: int) -> None:
    from tests.test_synthesis import lattice_classes

    res = enumerate_boards(Request.make(tiles=n, closed=True, orientable=True, manifold=True), ex=executor(2))
    assert res.complete and len(res.boards) == lattice_classes(n)
