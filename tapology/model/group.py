"""Orientation groups: finite groups of grid symmetries as small ints with precomputed tables.

An element ``g`` is an int ``0 <= g < order``; 0 is the identity.  ``mul[a][b]`` is
"do a, then b" (``a -> b`` in seed 000's notation): apply a's formula, then b's.
Elements act on cells through ``act(g, cell)``; the built-in groups are integer
matrices, a user's group may be any functions, compared on a finite set of probe cells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from tapology.errors import GroupError
from tapology.model.hashing import HashedOnce

Cell = tuple[int, ...]
Matrix = tuple[tuple[int, int], tuple[int, int]]
Action = Callable[[Cell], Cell]


def _matmul(m: Matrix, n: Matrix) -> Matrix:
    """Matrix product m·n (apply n, then m)."""
    return (
        (m[0][0] * n[0][0] + m[0][1] * n[1][0], m[0][0] * n[0][1] + m[0][1] * n[1][1]),
        (m[1][0] * n[0][0] + m[1][1] * n[1][0], m[1][0] * n[0][1] + m[1][1] * n[1][1]),
    )


def matrix_action(m: Matrix) -> Action:
    """The map ``cell -> m·cell`` on 2-d cells."""
    (a, b), (c, d) = m

    def act(cell: Cell) -> Cell:
        x, y = cell
        return (a * x + b * y, c * x + d * y)

    return act


@dataclass(frozen=True, eq=False)
class OrientationGroup(HashedOnce):
    """A finite group acting on cells, numbered, with product, inverse and sign tables.

    Built once (at import or when a grid is defined); the group laws (identity first,
    distinct elements, closure, inverses) are checked on ``probe`` cells and a failure
    raises :class:`GroupError` naming the law.  Cost O(order² · |probe|) once.
    """

    name: str
    actions: tuple[Action, ...]
    probe: tuple[Cell, ...]
    meanings: tuple[str, ...] = ()
    signs: tuple[int, ...] = ()
    mul: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    inv: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.actions:
            raise GroupError(f"group {self.name!r}: no elements")
        images = [tuple(f(c) for c in self.probe) for f in self.actions]
        index: dict[tuple[Cell, ...], int] = {}
        for i, img in enumerate(images):
            if img in index:
                raise GroupError(f"group {self.name!r}: elements {index[img]} and {i} are the same map")
            index[img] = i
        if images[0] != tuple(self.probe):
            raise GroupError(f"group {self.name!r}: identity law fails: element 0 moves a cell")
        table = []
        for a, fa in enumerate(self.actions):
            row = []
            for b, fb in enumerate(self.actions):
                img = tuple(fb(fa(c)) for c in self.probe)
                if img not in index:
                    raise GroupError(f"group {self.name!r}: closure law fails: {a} -> {b} is not an element")
                row.append(index[img])
            table.append(tuple(row))
        inv = []
        for a in range(len(self.actions)):
            if 0 not in table[a]:
                raise GroupError(f"group {self.name!r}: inverse law fails: element {a} has no inverse")
            inv.append(table[a].index(0))
        object.__setattr__(self, "mul", tuple(table))
        object.__setattr__(self, "inv", tuple(inv))
        if self.signs and len(self.signs) != len(self.actions):
            raise GroupError(f"group {self.name!r}: {len(self.signs)} signs for {len(self.actions)} elements")

    @classmethod
    def from_matrices(cls, name: str, matrices: Sequence[Matrix], meanings: Sequence[str] = ()) -> OrientationGroup:
        """A group of integer 2×2 matrices (the sign of each is its determinant)."""
        signs = tuple(m[0][0] * m[1][1] - m[0][1] * m[1][0] for m in matrices)
        for g, s in enumerate(signs):
            if s not in (1, -1):
                raise GroupError(f"group {name!r}: element {g} = {matrices[g]} is not invertible over the integers")
        return cls(name, tuple(matrix_action(m) for m in matrices), ((1, 0), (0, 1), (1, 1)),
                   tuple(meanings), signs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OrientationGroup) and (self.name, self.mul) == (other.name, other.mul)

    __hash__ = HashedOnce.__hash__  # a class defining __eq__ must name its hash (else None)

    def _hash_value(self) -> int:
        return hash((self.name, self.mul))

    @property
    def order(self) -> int:
        """Number of elements."""
        return len(self.actions)

    def act(self, g: int, cell: Cell) -> Cell:
        """Image of ``cell`` under element ``g``."""
        return self.actions[g](cell)

    def then(self, a: int, b: int) -> int:
        """``a -> b``: do a, then b."""
        return self.mul[a][b]

    def is_reflection(self, g: int) -> bool:
        """True when ``g`` reverses orientation (needs signs; False where unknown)."""
        return bool(self.signs) and self.signs[g] < 0

    @cached_property
    def reflections(self) -> frozenset[int]:
        """Elements that reverse orientation."""
        return frozenset(g for g in range(self.order) if self.is_reflection(g))

    def is_subgroup(self, elements: Sequence[int]) -> bool:
        """True when ``elements`` contain 0 and are closed under the product."""
        s = set(elements)
        return 0 in s and all(self.mul[a][b] in s for a in s for b in s)

    def subgroup(self, name: str, elements: Sequence[int]) -> OrientationGroup:
        """The subgroup on ``elements`` (renumbered in the given order; 0 must come first)."""
        if list(elements)[:1] != [0] or not self.is_subgroup(elements):
            raise GroupError(f"group {self.name!r}: {list(elements)} is not a subgroup listed identity first")
        return OrientationGroup(
            name,
            tuple(self.actions[g] for g in elements),
            self.probe,
            tuple(self.meanings[g] for g in elements) if self.meanings else (),
            tuple(self.signs[g] for g in elements) if self.signs else (),
        )

    def table_text(self) -> str:
        """The product table drawn as in seed 000 (row first, then column)."""
        n = self.order
        w = len(str(n - 1))
        head = " " + "->".rjust(w + 1) + " |" + "".join("_" + str(b).rjust(w, "_") for b in range(n))
        rows = [f" {str(a).rjust(w + 1)} | " + " ".join(str(x).rjust(w) for x in self.mul[a]) for a in range(n)]
        return "\n".join([head, *rows])


def _power_chain(r: Matrix, n: int) -> list[Matrix]:
    out: list[Matrix] = [((1, 0), (0, 1))]
    for _ in range(n - 1):
        out.append(_matmul(r, out[-1]))
    return out


# Square: g maps (x, y) as in docs/conventions.md §1 (x right, y up).
SQUARE_MATRICES: tuple[Matrix, ...] = (
    ((1, 0), (0, 1)),  # 0 (x, y)
    ((0, 1), (-1, 0)),  # 1 (y, -x)
    ((-1, 0), (0, -1)),  # 2 (-x, -y)
    ((0, -1), (1, 0)),  # 3 (-y, x)
    ((-1, 0), (0, 1)),  # 4 (-x, y)
    ((0, 1), (1, 0)),  # 5 (y, x)
    ((1, 0), (0, -1)),  # 6 (x, -y)
    ((0, -1), (-1, 0)),  # 7 (-y, -x)
)
SQUARE_D4 = OrientationGroup.from_matrices(
    "square",
    SQUARE_MATRICES,
    (
        "identity",
        "quarter turn clockwise",
        "half turn",
        "quarter turn counter-clockwise",
        "flip across the vertical axis",
        "flip across the upward diagonal",
        "flip across the horizontal axis",
        "flip across the downward diagonal",
    ),
)
SQUARE_C4 = SQUARE_D4.subgroup("square-rotations", (0, 1, 2, 3))

# Hex, axial (q, r): q points east, r north-east (y up): x = q + r/2, y = r·√3/2.
# Element k (0..5) is k sixth-turns clockwise.  Element 6+k is the flip across the
# vertical axis followed by k sixth-turns clockwise (as the square's 4+k is 4, then k).
_HEX_CW: Matrix = ((1, 1), (-1, 0))  # (q, r) -> (q + r, -q)
_HEX_FLIP: Matrix = ((-1, -1), (0, 1))  # (q, r) -> (-q - r, r)
_HEX_ROTS = _power_chain(_HEX_CW, 6)
HEX_MATRICES: tuple[Matrix, ...] = tuple(_HEX_ROTS) + tuple(_matmul(r, _HEX_FLIP) for r in _HEX_ROTS)


def _turns(k: int) -> str:
    return f"{k} sixth-turn{'s' if k > 1 else ''} clockwise"


HEX_D6 = OrientationGroup.from_matrices(
    "hex",
    HEX_MATRICES,
    ["identity"] + [_turns(k) for k in range(1, 6)]
    + ["flip across the vertical axis"] + [f"flip across the vertical axis, then {_turns(k)}" for k in range(1, 6)],
)
HEX_C6 = HEX_D6.subgroup("hex-rotations", (0, 1, 2, 3, 4, 5))
