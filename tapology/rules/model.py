"""Rule sets as frozen values (docs/conventions.md §4): states, players, moves, links, clean-ups, tape moves, end rules.

A rule set is pure data; :mod:`tapology.rules.parse` reads it from TOML and
:mod:`tapology.rules.compiled` turns it into per-board tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cached_property

from tapology.model.domain import ChartDomain
from tapology.model.grid import ReferenceGrid
from tapology.model.group import Cell
from tapology.model.lines import line_vectors

# Token kinds for a pattern cell's "before" (what it accepts).
ANY = "any"  # any state, but the cell must land on a tile
OFF = "off"  # the cell must land off the board (∅)
DONTCARE = "?"  # anything, on or off the board
# "after" specials
KEEP = None  # unchanged
COPY = "@"  # the piece from the move's origin, its frame carried across the gluings


@dataclass(frozen=True)
class StateDef:
    """A named tile state: its int value, owner (player index or None), kind, and the orientations it looks the same under.

    ``symmetry`` is the subgroup of H fixing the piece's look; the whole group (the default)
    means the piece carries no frame.  Frames are stored as the least element of their coset.
    """

    name: str
    value: int
    owner: int | None = None
    kind: str | None = None
    symmetry: tuple[int, ...] = ()
    symbol: str = ""
    look: str = ""  # the state this one looks like when positions are compared for repetition ("" = itself)

    @property
    def oriented(self) -> bool:
        """True when the piece carries a frame (its symmetry is a proper subgroup)."""
        return bool(self.symmetry)


@dataclass(frozen=True)
class Accept:
    """What a pattern cell accepts before a move: states (player-relative tokens resolved per player), ANY, OFF or '?'."""

    kind: str  # "states", "any", "off", "?"
    tokens: tuple[str, ...] = ()  # for "states": state names or relative tokens (own, foe, own:KIND, foe:KIND, empty)

    def text(self) -> str:
        """As written in a rule file."""
        return "|".join(self.tokens) if self.kind == "states" else self.kind


@dataclass(frozen=True)
class PatternCell:
    """One cell of a move: where it is (in the move's frame), what it accepts, what it becomes.

    ``after`` ending in ``^`` keeps the frame of the piece now on the tile (a clean-up resetting
    a piece).  ``region`` names a region the tile must lie in (``!name``: must not); ``{player}``
    stands for the player the move is placed for.
    """

    cell: Cell
    before: Accept
    after: str | None = KEEP  # a state name, a relative token (own:KIND), COPY, or KEEP
    region: str = ""
    source: Cell | None = None  # a block move's cell: it gets what this cell of the pattern held before the move


def compare(n: int, op: str, value: int) -> bool:
    """``n op value`` for one of the comparison operators of rule files (>=, <=, ==, !=, >, <)."""
    return {">=": n >= value, "<=": n <= value, "==": n == value, "!=": n != value, ">": n > value, "<": n < value}[op]


@dataclass(frozen=True)
class Condition:
    """A count of tiles holding some states (optionally inside a region) compared with a value.

    ``line`` = k counts only the tiles that lie on k in a row of tiles holding the states, along the grid's sides
    across the gluings (a mill); ``outside`` only those that do not; ``here`` only the tile a move starts on (a
    move's condition) or ended on (a link's condition); ``around`` only the tiles next to that tile (its neighbours
    through the grid's sides, across the gluings).  A condition with ``any`` is a disjunction: it holds when one of
    its alternatives does (its own count is not read): arimaa's "a friend next to it, or no stronger enemy".
    """

    states: tuple[str, ...]
    op: str = ">="
    value: int = 0
    region: str = ""
    line: int = 0
    outside: bool = False
    here: bool = False
    around: bool = False
    any: tuple[Condition, ...] = ()

    @property
    def parts(self) -> tuple[Condition, ...]:
        """The condition and its alternatives (for what reads every count it may take)."""
        return (self, *self.any) if self.any else (self,)

    def holds(self, n: int) -> bool:
        """The comparison for a count ``n``."""
        return compare(n, self.op, self.value)


@dataclass(frozen=True)
class Link:
    """A follow-up: moves that may continue the chain at an anchor cell, turned by orientations of the move's own frame.

    ``orientations`` empty means the follow-up's own orientation set.  An ``anywhere`` link has no anchor: the
    follow-up may be placed at every tile, in its own orientations (connect6's second stone).  ``conditions`` are
    counts read on the position the chain has reached; the link is followed only while they hold.
    """

    moves: tuple[str, ...]
    anchor: Cell | None = None
    orientations: tuple[int, ...] = ()
    forced: bool = True
    anywhere: bool = False  # the follow-up may be placed at any tile (several placements in one turn)
    conditions: tuple[Condition, ...] = ()  # followed only while these counts hold (read on the chain's position)
    until_line: int = 0  # not followed once the mover has this many of their states in a row (0: no such check)


@dataclass(frozen=True)
class LineCapture:
    """A line capture (reversi's flanking): from the move's origin, along each of ``directions`` (read in the move's
    frame and carried across gluings), a run of one or more tiles holding ``over`` closed by a tile holding
    ``until`` is captured: its tiles become ``becomes``.  Every direction reads the position after the move's own
    pattern writes, and all runs are captured at once.  The move fits only where at least ``need`` runs are
    captured.  A line that comes back to a tile it already passed ends there: that tile may close the run (the
    move's origin closes a line that wraps round the board) but is not captured twice."""

    over: tuple[str, ...]
    until: tuple[str, ...]
    becomes: str
    directions: tuple[Cell, ...]
    need: int = 1


@dataclass(frozen=True)
class GroupCapture:
    """Capture by liberties (go): after the move's pattern writes, every group of ``groups`` states (tiles joined
    side to side across the gluings) next to the origin that touches no tile holding a ``liberties`` state is
    captured (its tiles become ``becomes``).  Unless ``suicide``, the move fits only where the group of the
    mover's pieces at the origin then has a liberty, or it captures something."""

    groups: tuple[str, ...]
    liberties: tuple[str, ...]
    becomes: str
    suicide: bool = False


@dataclass(frozen=True)
class Move:
    """A local rewrite applied at a tile under each orientation in ``orientations`` (relative to the piece's frame)."""

    name: str
    cells: tuple[PatternCell, ...]
    orientations: tuple[int, ...]
    players: tuple[int, ...]
    to: Cell | None = None
    links: tuple[Link, ...] = ()
    start: bool = True
    klass: str = ""
    safe: tuple[Cell, ...] = ()
    line: int = 0
    slide: bool = False  # set by ``repeat``: a repeated move labels only where the piece ends
    final: bool = True  # False: a chain may not end with this move (a flying king's approach must end in a capture)
    lines: LineCapture | None = None  # a line capture run from the origin (reversi)
    fall: Cell | None = None  # gravity: the piece rests on the origin only where it could fall no further this way
    captures: GroupCapture | None = None  # capture by liberties (go)
    conditions: tuple[Condition, ...] = ()  # ``if``: counts that must hold before the move (``here``: its origin)
    flight_of: str = ""  # the flight of a shot: the move whose written piece this move carries on (one slide with it)
    cost: int = 1  # the steps the move spends of the turn's budget (``steps`` of the rule set)

    @cached_property
    def origin(self) -> PatternCell:
        """The pattern cell at the origin."""
        return next(c for c in self.cells if not any(c.cell))


@dataclass(frozen=True)
class Cleanup:
    """An unanchored rewrite run everywhere to a fixpoint, after each move (``when='move'``) or at the end of a turn,
    only while all its ``conditions`` hold (counts over the whole board, read for the player whose turn it is)."""

    move: Move
    when: str = "turn"
    conditions: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Counter:
    """A number kept with the position: turns since the last turn that made a move of one of ``classes`` or moved a
    piece of one of ``kinds`` (chess's fifty-move counter: classes = capture, kinds = pawn)."""

    name: str
    classes: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    after_phases: bool = False  # counts only the turns of the regular play (it stays 0 while the phases last)


@dataclass(frozen=True)
class TapeRule:
    """Tape moves: a player may spend a turn taping two open sides (with or without a flip)."""

    players: tuple[int, ...]
    flips: tuple[bool, ...] = (False, True)


@dataclass(frozen=True)
class EndRule:
    """One way the game ends.

    kinds: ``line`` (k in a row of a player's states on the board's topology: that player wins),
    ``no-turns`` (the player to move has no turn: ``result`` draw or loss), ``count`` (every one of
    ``conditions`` holds: counts of states, optionally inside a region), ``chain`` (a move chain of
    ``value`` moves fits: its player wins), ``plies`` (after ``value`` turns: ``result``),
    ``counter`` (the counter named ``counter`` compared by ``op`` with ``value``), ``repetition``
    (the position stands for the ``value``-th time with the same player to move), ``connect`` (one group of the
    player's pieces, joined side to side across the gluings, touches every one of ``regions``: that player wins).
    ``result = "score"`` ends the game with each player's ``score`` read off the board: the highest wins, equal
    highest draw.

    ``check`` (None, True or False) makes the rule apply only when the player to move is (not) in
    check: one of their royal pieces capturable.  ``optional`` rules (house rules, and the automatic
    draws chess engines do not count) apply in play and are left out by perft.  ``claim`` rules
    (chess's fifty-move rule and threefold repetition) never end the game by themselves: the player
    to move may claim them (:meth:`RuleGame.claims`); they are optional too.  ``name`` says what the
    rule is called (in claims and descriptions).
    """

    kind: str
    k: int = 0
    states: tuple[str, ...] = ()
    player: int | None = None
    result: str = "win"  # win | loss | draw
    op: str = ">="
    value: int = 0
    move: str = ""
    conditions: tuple[Condition, ...] = ()
    check: bool | None = None
    optional: bool = False
    counter: str = ""
    line: int = 0
    claim: bool = False
    name: str = ""
    score: str = ""  # with result = "score": how each player's score is read ("pieces": tiles holding their states)
    regions: tuple[str, ...] = ()  # connect: a group of the player's pieces touches every one of these regions
    exact: bool = False  # line: exactly k in a row (the tiles just beyond both ends are not the player's)
    after_phases: bool = False  # read only once the phases are over (the regular play)
    both: str = "mover"  # line: when several players have a line at once, "mover" (the player who just moved) wins, or "draw"
    mover: bool = False  # chain: read only for the player who just moved (player = "mover")


@dataclass(frozen=True)
class Initial:
    """The start position: a layout of state symbols over the tiles in board order, lists of tiles per state, frames,
    and regions filled with a state (``fill``: one rule set sets up every board size, as breakthrough's home rows)."""

    layout: tuple[str, ...] = ()
    tiles: tuple[tuple[str, tuple[str, ...]], ...] = ()
    frames: tuple[tuple[str, int], ...] = ()
    to_move: int = 0
    fill: tuple[tuple[str, str], ...] = ()  # state -> region name, applied after layout and tiles


@dataclass(frozen=True)
class Setup:
    """A start position and region definitions for the boards whose names match one of ``boards`` (fnmatch patterns)."""

    boards: tuple[str, ...]
    initial: Initial
    regions: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class Phase:
    """Turns played before the regular play (``[[phase]]``): ``plies`` turns, taken by the players of ``order`` in
    turn, each started by one of ``moves`` (moves a phase names start turns only in their phase; a phase that names
    none is played with the moves of the regular play)."""

    name: str
    plies: int
    order: tuple[int, ...]
    moves: tuple[str, ...]


@dataclass(frozen=True)
class RuleSet:
    """A whole rule set; ``domain`` is derived from the moves and end rules."""

    name: str
    grid: ReferenceGrid
    players: tuple[str, ...]
    states: tuple[StateDef, ...]
    moves: tuple[Move, ...]
    cleanups: tuple[Cleanup, ...] = ()
    tape: TapeRule | None = None
    ends: tuple[EndRule, ...] = ()
    initial: Initial = field(default_factory=Initial)
    board: str = "plane:3x3"
    boards: tuple[str, ...] = ()
    mandatory: tuple[str, ...] = ()
    royal: tuple[str, ...] = ()
    regions: tuple[tuple[str, tuple[str, ...]], ...] = ()  # name -> tile ids or specs (row:N, column:N, parity:K)
    extra_cells: tuple[Cell, ...] = ()
    description: str = ""
    source: str = "<rules>"
    setups: tuple[Setup, ...] = ()
    counters: tuple[Counter, ...] = ()
    notation: str = ""  # a game notation for labels and positions ("chess": UCI, SAN, FEN)
    refused: tuple[tuple[tuple[str, ...], str], ...] = ()  # board patterns the game is not meaningful on, with why
    maximum: tuple[str, ...] = ()  # move classes of which a legal turn must hold the most (draughts' maximum capture)
    passing: str = ""  # "" no passing; "when-stuck": a player without a turn passes while another player has one
    rbg_pass: str = ""  # how perft --rbg counts a pass: "" once; "pieces": once per piece of the mover (lifted, put back)
    phases: tuple[Phase, ...] = ()  # turns before the regular play, with their own order and entry moves
    steps: int = 0  # the turn's step budget: a chain's moves spend ``cost`` steps each, at most this many (0: none)

    def phase_at(self, ply: int) -> int:
        """The index of the phase the turn at ``ply`` belongs to, or -1 for the regular play."""
        start = 0
        for i, ph in enumerate(self.phases):
            if 0 <= ply - start < ph.plies:
                return i
            start += ph.plies
        return -1

    def next_player(self, player: int, ply: int) -> int:
        """Who plays the turn after ``player``'s turn at ``ply``: a phase's order while the phases last, the rule
        set's first player (``[initial] to_move``) when the regular play begins, then the players in rotation."""
        if not self.phases:
            return (player + 1) % len(self.players)
        nxt = ply + 1
        start = 0
        for ph in self.phases:
            if 0 <= nxt - start < ph.plies:
                return ph.order[(nxt - start) % len(ph.order)]
            start += ph.plies
        return self.initial.to_move if nxt == start else (player + 1) % len(self.players)

    def previous_player(self, player: int, ply: int) -> int:
        """Who played the turn before ``player``'s turn at ``ply`` (the inverse of :meth:`next_player`)."""
        i = self.phase_at(ply - 1) if ply > 0 else -1
        if i < 0:
            return (player - 1) % len(self.players)
        start = sum(ph.plies for ph in self.phases[:i])
        order = self.phases[i].order
        return order[(ply - 1 - start) % len(order)]

    @cached_property
    def phase_moves(self) -> frozenset[str]:
        """The moves some phase names (they start turns only in their phase)."""
        return frozenset(m for ph in self.phases for m in ph.moves)

    def refusal(self, board: str) -> str | None:
        """Why the game is not meaningful on ``board`` (the first ``[[refuse]]`` whose patterns match), or None."""
        return next((why for pats, why in self.refused if any(fnmatchcase(board, p) for p in pats)), None)

    @cached_property
    def state_index(self) -> dict[str, StateDef]:
        """State name (and symbol) -> definition."""
        out: dict[str, StateDef] = {}
        for s in self.states:
            out[s.name] = s
            if s.symbol:
                out.setdefault(s.symbol, s)
        return out

    @cached_property
    def by_value(self) -> dict[int, StateDef]:
        """State value -> definition."""
        return {s.value: s for s in self.states}

    @cached_property
    def n_states(self) -> int:
        """One more than the largest state value."""
        return max(s.value for s in self.states) + 1

    @cached_property
    def move_index(self) -> dict[str, Move]:
        """Move name -> move."""
        return {m.name: m for m in self.moves}

    @cached_property
    def looks(self) -> tuple[int, ...]:
        """State value -> the value of the state it looks like (itself unless ``look`` says otherwise)."""
        out = list(range(self.n_states))
        for s in self.states:
            if s.look:
                out[s.value] = self.state_index[s.look].value
        return tuple(out)

    def setup_for(self, board: str) -> Setup | None:
        """The first set-up whose board patterns match ``board``, if any."""
        return next((s for s in self.setups if any(fnmatchcase(board, p) for p in s.boards)), None)

    @cached_property
    def keyed_by_changes(self) -> bool:
        """True when some link is ``anywhere``: a turn is then keyed by its changes alone (placing a then b and b
        then a is one turn), its start and end tile being its least changed tile."""
        return any(lk.anywhere for m in self.moves for lk in m.links)

    @cached_property
    def block_moves(self) -> frozenset[int]:
        """Indices of the **block moves**: moves with a cell that reads another cell (``from``), such as pentago's
        turn of a quadrant (docs/rules.md, "Block moves")."""
        return frozenset(i for i, m in enumerate(self.moves) if any(c.source is not None for c in m.cells))

    @cached_property
    def flies_over_stops(self) -> bool:
        """Whether some slide follows another move through an ``anywhere`` link (breakthru's second slide): such a slide
        may fly over a position its chain stopped at (docs/rules.md, "Turns")."""
        slides = {m.name.partition("=")[0] for m in self.moves if m.slide}
        return any(lk.anywhere and any(t in slides for t in lk.moves)
                   for m in self.moves for lk in m.links)

    @cached_property
    def slide_groups(self) -> tuple[int, ...]:
        """Move index -> the slide it belongs to (-1: the move does not slide): its own index, or for the flight of a
        shot the shot's, so that a shot and its flight are one slide (labelled by where it ends, never landing
        on a tile it passed)."""
        index = {m.name: k for k, m in enumerate(self.moves)}
        return tuple(-1 if not m.slide else index[m.flight_of] if m.flight_of else k for k, m in enumerate(self.moves))

    @cached_property
    def oriented(self) -> bool:
        """True when some state carries a frame."""
        return any(s.oriented for s in self.states)

    @cached_property
    def domain(self) -> ChartDomain:
        """The chart domain: every pattern cell, k-in-a-row step and unit direction, filled along
        coordinate paths from the origin, closed under the orientations.  Cost O(|cells|·|H|)."""
        return derive_domain(self)


def derive_domain(rules: RuleSet) -> ChartDomain:
    """The union of the move domains closed under the grid's orientations (see :attr:`RuleSet.domain`)."""

    grid = rules.grid
    cells: set[Cell] = {grid.origin, *grid.directions, *rules.extra_cells}
    for m in [*rules.moves, *(c.move for c in rules.cleanups)]:
        for pc in m.cells:
            cells.add(pc.cell)
        cells.update(m.safe)
        for lk in m.links:
            if lk.anchor is not None:
                cells.add(lk.anchor)
        if m.lines is not None:
            cells.update(m.lines.directions)
        if m.fall is not None:
            cells.add(m.fall)
    if any(e.kind == "line" for e in rules.ends):
        cells.update(line_vectors(grid))
    filled: set[Cell] = set()
    for c in cells:
        x, y = c
        for i in range(min(0, x), max(0, x) + 1):
            for j in range(min(0, y), max(0, y) + 1):
                filled.add((i, j))
    grp = grid.group
    closed = {grp.act(g, c) for c in filled for g in range(grp.order)}
    return ChartDomain(grid, tuple(sorted(closed, key=grid.order_key)), f"{rules.name}-domain")
