"""Minimal explanations of refused tapings: a smallest-by-inclusion set of tapings that cannot hold together.

Given all the facts in play (a board's tapings, a file's tapes, the new tapes), an
explanation is a subset that is inconsistent while dropping any one of its members leaves a
consistent rest.  Two ways to get one:

- **z3**: the unsat core of the SMT encoding (:class:`~tapology.solver.z3backend.Z3Checker`,
  boards up to ``SMT_TILES`` tiles, within ``SMT_TIMEOUT_MS``), then deletion with z3's
  Datalog closure deciding each subset; without a core (larger boards, or the SMT check took
  too long) divide-and-conquer (QuickXplain) over the Datalog closure.
- **propagate**: the tapings behind the propagator's conflict, then deletion with propagator
  checks on the bare tiles.

Either way the result is checked minimal by construction; the chart, cell and claims shown
with it are those the propagator finds on the minimal set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tapology.errors import Undecided
from tapology.model.atlas import Atlas, Conflict
from tapology.model.board import Board, Taping
from tapology.solver.z3backend import Z3Checker, Z3Closure, bare_board

SMT_TILES = 30
SMT_TIMEOUT_MS = 3000
Check = Callable[[list[int]], bool]  # True when the tapings with these indices hold together


def propagator_check(board: Board, tapings: Sequence[Taping]) -> Check:
    """A consistency check of subsets by the propagator on the bare tiles."""
    bare = bare_board(board)

    def check(subset: list[int]) -> bool:
        at = Atlas.of(bare)
        return at.tape([tapings[k] for k in subset], explain=False) is None

    return check


def z3_closure_check(board: Board, tapings: Sequence[Taping]) -> Check:
    """A consistency check of subsets by z3's Datalog closure."""
    bare = bare_board(board)

    def check(subset: list[int]) -> bool:
        c = Z3Closure(bare)
        c.add_facts([tapings[k].fact for k in subset])
        return c.consistent()

    return check


def deletion_minimise(check: Check, start: Sequence[int]) -> list[int]:
    """Drop members one at a time while the rest stays inconsistent.  ``start`` must be inconsistent.  O(|start|) checks."""
    cur = list(start)
    for k in list(start):
        trial = [x for x in cur if x != k]
        if not check(trial):
            cur = trial
    return cur


def quickxplain(check: Check, items: Sequence[int]) -> list[int]:
    """A minimal inconsistent subset of ``items`` (inconsistent as a whole) by divide and conquer.

    O(k·log(N/k)) checks for an answer of size k (Junker's QuickXplain).
    """

    def qx(background: list[int], delta_added: bool, cands: list[int]) -> list[int]:
        if delta_added and not check(background):
            return []
        if len(cands) == 1:
            return list(cands)
        half = len(cands) // 2
        c1, c2 = cands[:half], cands[half:]
        d2 = qx(background + c1, bool(c1), c2)
        d1 = qx(background + d2, bool(d2), c1)
        return d1 + d2

    if check(list(items)):
        raise ValueError("quickxplain: the tapings hold together")
    return sorted(qx([], False, list(items)))


@dataclass(frozen=True)
class Explanation:
    """A minimal set of tapings that cannot hold together, and the conflict they make."""

    indices: tuple[int, ...]
    labels: tuple[str, ...]
    conflict: Conflict

    def to_json(self, board: Board) -> dict[str, object]:
        """The conflict's JSON with ``because`` = the minimal set."""
        out = self.conflict.to_json(board)
        out["because"] = list(self.labels)
        return out


def explain(board: Board, tapings: Sequence[Taping], backend: str = "propagate") -> Explanation | None:
    """A minimal inconsistent subset of ``tapings`` (every fact in play), or None if they hold together.

    ``board`` gives the tiles, grid and domain (its own gluing is not used: pass its tapings).
    """
    n_tiles = len(board.tiles)
    if backend == "z3":
        check = z3_closure_check(board, tapings)
        everything = list(range(len(tapings)))
        core: list[int] | None = None
        if n_tiles <= SMT_TILES:
            try:
                core = Z3Checker(board, tapings, timeout_ms=SMT_TIMEOUT_MS).core(everything)
            except Undecided:
                core = None  # the SMT core took too long: divide and conquer below
            else:
                if core is None:
                    return None
        if core is not None and not check(core):
            minimal = deletion_minimise(check, core)
        else:
            if check(everything):
                return None
            minimal = quickxplain(check, everything)
    else:
        check = propagator_check(board, tapings)
        at = Atlas.of(bare_board(board))
        conflict = at.tape(tapings)
        if conflict is None:
            return None
        wanted = set(conflict.because)
        seed = [k for k, tp in enumerate(tapings) if tp.label in wanted]
        if check(seed):  # the trace missed something: start from everything
            seed = list(range(len(tapings)))
        minimal = deletion_minimise(check, seed)
    conflict = Atlas.of(bare_board(board)).tape([tapings[k] for k in minimal])
    if conflict is None:  # pragma: no cover - the backends disagree
        raise RuntimeError("explain: the propagator finds the minimal set consistent")
    return Explanation(tuple(minimal), tuple(tapings[k].label for k in minimal), conflict)
