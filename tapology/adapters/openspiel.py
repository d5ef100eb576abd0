"""tapology's games as OpenSpiel games (the optional extra ``tapology[openspiel]``).

:func:`register` adds one parameterised game to OpenSpiel's registry, ``tapology``; every game of
the game registry on every board is a game string::

    tapology(game=checkers,board=torus:8x8)
    tapology(game=tictactoe:4;4;3)            # commas of GAME written as ';' (OpenSpiel splits on ',')
    tapology(game=tictactopology,board=mobius:3x3)

Parameters: ``game`` (a registry name or rule file), ``board`` (default: the rule set's),
``variants`` (rule games: room for turns sharing a start and an end tile; 0 = automatic) and
``max_plies`` (a bound for rule sets that have none, the game scored a draw there; 0 = 10,000).

OpenSpiel's conventions, as this adapter keeps them:

* **actions**: integer ids that depend only on the game and board.  A k-in-a-row game's claim is
  the tile's index in the board's tile order (``n`` actions).  A rule game's turn is
  ``(start · n + end) · R + r``: the tiles where its label starts and ends (chess: the UCI
  squares), and its rank r among the turns sharing them, ordered by the state left on the end
  tile, then by label (chess's promotions ``n b r q``; two capture routes in checkers).  R is n for
  rule sets whose turns move a second piece (a shot, a follow-up anywhere that moves a piece: amazons,
  breakthru), 8 for other rule sets with links or after-state choices, else 1.  A tape turn is
  ``n² · R + ((t · m + d) · n + u) · |H| + o`` for its taping χ_t(side d) = (u, o).
  Legal actions are sorted.
* ``action_to_string`` is the turn's label (``5``, ``18x25x32``, ``e7e8q``, ``tape 1.up=7.down~``).
* **observations**: one plane per tile state (``empty``, ``X``, ``O``; chess's 19 states), each
  a value per tile in the board's tile order; rule games add one plane per frame for oriented
  pieces, a plane holding the player to move, and for games with tape turns one plane per
  (side, gluing code) saying which sides are glued where.
* **serialization**: OpenSpiel's own (the action history, and the state's plain data), so
  ``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` round-trip.
* returns are the outcome's scores (1 win, 0 draw, −1 loss), zero-sum for two players.

Everything that needs ``pyspiel`` imports it when called; the encodings (:class:`KinrowEngine`,
:class:`RuleEngine`) work without it.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapology.errors import GameError, TapologyError
from tapology.game import ClaimGame, Position, Turn
from tapology.games.chess import ChessNotation, squares
from tapology.games.kinrow import STATE_NAMES
from tapology.games.registry import SHIPPED, load_game, load_rules
from tapology.model.board import Board, Fact
from tapology.model.tape import board_tapings, format_fact, parse_tape
from tapology.rules.engine import PASS, RuleGame

SHORT_NAME = "tapology"
DEFAULT_MAX_PLIES = 10_000
PARAMS: dict[str, Any] = {"game": "tictactoe", "board": "", "variants": 0, "max_plies": 0}

Key = Any  # an engine's position key: plain, hashable, picklable data


# ---- game strings --------------------------------------------------------------------------------
def game_string(game: str = "tictactoe", board: str | None = None, **params: Any) -> str:
    """The OpenSpiel game string of GAME on BOARD: ``tapology(board=torus:3x3,game=tictactoe)``."""
    vals: dict[str, Any] = {"game": game.replace(",", ";")}
    if board:
        vals["board"] = board
    vals.update({k: v for k, v in params.items() if v})
    for k, v in vals.items():
        if any(c in str(v) for c in ",()="):
            raise GameError(f"OpenSpiel game string: {k}={v!r} may not hold ',', '(', ')' or '='")
    return f"{SHORT_NAME}(" + ",".join(f"{k}={vals[k]}" for k in sorted(vals)) + ")"


def registry_games() -> list[tuple[str, str]]:
    """(game, board) for every shipped game on every board its rule set is meant for."""
    return [(name, board) for name in SHIPPED for board in load_rules(name).boards]


# ---- engines: positions as plain keys, turns as action ids -----------------------------------------
@dataclass(frozen=True)
class Move:
    """One legal turn: its action id, label, and the key of the position it leads to."""

    action: int
    label: str
    child: Key


class KinrowEngine:
    """A k-in-a-row game on bitmasks: key ``(x, o)``, action = tile index."""

    kind = "kinrow"

    def __init__(self, game: ClaimGame) -> None:
        self.game = game
        self.n = game.n
        self.num_actions = game.n
        self.max_length = game.n
        self.planes = 3
        self.players = game.players

    def initial(self) -> Key:
        """The empty board."""
        return (0, 0)

    def to_move(self, key: Key) -> int:
        """0 for X, 1 for O."""
        x, o = key
        return x.bit_count() - o.bit_count()

    def outcome(self, key: Key) -> tuple[float, ...] | None:
        """Scores per player, or None while play goes on."""
        st = self.game.status(*key)
        if not st.over:
            return None
        if st.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if st.winner == 0 else (-1.0, 1.0)

    def moves(self, key: Key) -> list[Move]:
        """The claims, by tile."""
        g = self.game
        return [Move(t, g.label(t), (cx, co)) for t, cx, co in g.children(*key)]

    def fill(self, key: Key, obs: Any) -> None:
        """Planes empty, X, O over the tiles."""
        x, o = key
        obs.fill(0)
        for t in range(self.n):
            obs[1 if x >> t & 1 else 2 if o >> t & 1 else 0, t] = 1

    def text(self, key: Key) -> str:
        """``X to move: X . O / . . . / . . .`` (tiles in board order)."""
        x, o = key
        marks = ["X" if x >> t & 1 else "O" if o >> t & 1 else "." for t in range(self.n)]
        return f"{self.players[self.to_move(key)]} to move: " + " ".join(marks)

    def action_text(self, action: int) -> str:
        """A claim's label."""
        return self.game.label(action) if 0 <= action < self.n else f"action {action}"

    def position(self, key: Key) -> Position:
        """The Position value."""
        return self.game.position(*key)

    def key_of(self, pos: Position) -> Key:
        """The key of a Position."""
        return self.game.masks_of(pos)

    def state_names(self) -> list[str]:
        """Plane names."""
        return [STATE_NAMES[s] for s in range(3)]


_UCI = re.compile(r"^([a-z]+\d+)([a-z]+\d+)[qrbn]?$")


class RuleEngine:
    """A rule game: key = (states, frames, to move, ply, counters, board or None, history keys)."""

    kind = "rules"

    def __init__(self, game: RuleGame, variants: int = 0, max_plies: int = 0) -> None:
        if len(game.players) != 2:
            raise GameError(f"{game.name}: the OpenSpiel adapter plays two-player games; this one has "
                            f"{len(game.players)}")
        open_ended = {mv.name.partition("=")[0] for mv in game.rules.moves if not mv.final}
        if any(mv.name.partition("=")[0] in open_ended and lk.forced and open_ended.intersection(lk.moves)
               for mv in game.rules.moves for lk in mv.links):
            raise GameError(f"{game.name}: a turn may go on through forced moves that cannot end it (bounces) along "
                            "any number of routes between the same two tiles; OpenSpiel's fixed action space, one "
                            "action per (start, end, rank), cannot hold them")
        if game.rules.steps:
            raise GameError(f"{game.name}: a turn of up to {game.rules.steps} steps by any pieces has tens of "
                            "thousands of results on few (start, end) pairs; OpenSpiel's fixed action space, one action "
                            "per (start, end, rank), cannot hold them")
        self.game = game
        rules = game.rules
        self.players = game.players
        self.start = game.initial()
        board = self.start.board
        self.board = board
        self.n = n = len(board.tiles)
        self.m = m = len(board.grid.directions)
        self.h = h = game.h
        self.values = max(s.value for s in rules.states) + 1
        choices = any("=" in mv.name for mv in rules.moves)
        # a compound turn of two moving pieces (amazons' shot, breakthru's second slide) shares its first and last
        # tile with up to one turn per middle tile: room for n
        by_name = {mv.name: mv for mv in rules.moves}
        compound = any(mv.flight_of for mv in rules.moves) or any(
            lk.anywhere and any(by_name[t].to is not None for t in lk.moves) for mv in rules.moves for lk in mv.links)
        self.variants = variants or (n if compound else 8 if choices or any(mv.links for mv in rules.moves) else 1)
        self.tape_base = n * n * self.variants
        self.taping = rules.tape is not None
        self.num_actions = self.tape_base + (n * m * n * h if self.taping else 0)
        self.pass_action = self.num_actions if rules.passing else -1  # a pass is one action of its own, the last
        if rules.passing:
            self.num_actions += 1
        plies = [e.value for e in rules.ends if e.kind == "plies" and e.check is None]
        open_sides = sum(1 for row in board.glue for c in row if c < 0)
        if plies:
            self.max_length, self.truncate = min(plies), None
        elif self.taping and all(len(mv.cells) == 1 for mv in rules.moves):
            self.max_length, self.truncate = n + open_sides // 2, None  # claims, and tapes that close two sides each
        else:
            self.max_length = self.truncate = max_plies or DEFAULT_MAX_PLIES
        self.oriented = rules.oriented
        self.planes = self.values + (h if self.oriented else 0) + 1 + (m * n * h if self.taping else 0)
        self.chess = isinstance(game.notation, ChessNotation)
        ids = sorted(board.tiles, key=len, reverse=True)
        self._tile_rx = re.compile("|".join(re.escape(t) for t in ids))
        # a block move's step is written -NAME- in labels (1-turn-right-8): read as a plain step, longest names first
        self._block_seps = sorted((f"-{rules.moves[i].name}-" for i in rules.block_moves), key=len, reverse=True)
        self._index = {t: i for i, t in enumerate(board.tiles)}
        self._positions: OrderedDict[Key, Position] = OrderedDict()

    # positions <-> keys
    def _bare_key(self, pos: Position) -> Key:
        b = pos.board
        shape = None if (b.glue, b.extra) == (self.board.glue, self.board.extra) else (b.glue, b.extra)
        return (b.states, pos.extra, pos.to_move, pos.ply, pos.counters, shape)

    def key_of(self, pos: Position) -> Key:
        """The key of a Position (its history as keys)."""
        return (*self._bare_key(pos), tuple(self._bare_key(h) for h in pos.history))

    def _board(self, states: tuple[int, ...], shape: tuple | None) -> Board:
        if shape is None:
            return self.board.with_states(states)
        b = self.board
        return Board(b.grid, b.domain, b.tiles, states, shape[0], shape[1], b.placement)

    def position(self, key: Key) -> Position:
        """The Position a key names (recent ones cached)."""
        got = self._positions.get(key)
        if got is not None:
            return got
        states, extra, to_move, ply, counters, shape, hist = key
        history = tuple(Position(self._board(s, sh), tm, ex, pl) for s, ex, tm, pl, _c, sh in hist)
        pos = Position(self._board(states, shape), to_move, extra, ply, counters, history)
        self._positions[key] = pos
        if len(self._positions) > 50_000:
            self._positions.popitem(last=False)
        return pos

    def initial(self) -> Key:
        """The start position."""
        return self.key_of(self.start)

    def to_move(self, key: Key) -> int:
        """The player to move."""
        return key[2]

    def outcome(self, key: Key) -> tuple[float, ...] | None:
        """Scores per player, or None while play goes on; a draw at the ply bound of a rule set without one."""
        pos = self.position(key)
        out = self.game.outcome(pos)
        if out is not None:
            return tuple(float(out.get(p, 0)) for p in self.players)
        if self.truncate is not None and pos.ply >= self.truncate:
            return (0.0, 0.0)
        return None

    # turns <-> actions
    def _endpoints(self, label: str) -> tuple[int, int]:
        if self.chess:
            m = _UCI.match(label)
            if m is None:
                raise GameError(f"turn {label!r}: not a UCI move")
            sq = squares(self.game)
            return sq.index[m.group(1)], sq.index[m.group(2)]
        core = label
        if "#" in core and core.rpartition("#")[2].isdigit():
            core = core.rpartition("#")[0]
        for sep in self._block_seps:
            core = core.replace(sep, "-")
        tiles: list[int] = []
        i = 0
        while True:
            m = self._tile_rx.match(core, i)
            if m is None:
                break
            tiles.append(self._index[m.group(0)])
            i = m.end()
            if i >= len(core) or core[i] not in "-x,":
                break
            i += 1
        if not tiles:
            raise GameError(f"turn {label!r}: no tile path in its label")
        return tiles[0], tiles[-1]

    def _tape_action(self, pos: Position, label: str) -> int:
        fact = parse_tape(label[5:], pos.board, "turn").fact
        d = pos.board.grid.direction_index[fact.cell]
        return self.tape_base + ((fact.tile * self.m + d) * self.n + fact.other) * self.h + fact.orientation

    def actions(self, pos: Position, turns: list[Turn]) -> list[int]:
        """The action id of each turn (see the module doc)."""
        ids = [0] * len(turns)
        groups: dict[tuple[int, int], list[tuple[int, str, int]]] = {}
        for i, t in enumerate(turns):
            if t.label.startswith("tape "):
                ids[i] = self._tape_action(pos, t.label)
                continue
            if t.label == PASS and self.pass_action >= 0:
                ids[i] = self.pass_action
                continue
            s, e = self._endpoints(t.label)
            groups.setdefault((s, e), []).append((t.result.board.states[e], t.label, i))
        for (s, e), items in groups.items():
            if len(items) > self.variants:
                raise GameError(f"{self.game.name}: {len(items)} turns from tile {self.board.tiles[s]} to "
                                f"{self.board.tiles[e]}; load the game with variants={len(items)} or more")
            for r, (_st, _label, i) in enumerate(sorted(items)):
                ids[i] = (s * self.n + e) * self.variants + r
        return ids

    def moves(self, key: Key) -> list[Move]:
        """The legal turns as actions, sorted."""
        pos = self.position(key)
        if self.truncate is not None and pos.ply >= self.truncate:
            return []
        turns = self.game.turns(pos)
        ids = self.actions(pos, turns)
        return sorted((Move(a, t.label, self.key_of(t.result)) for a, t in zip(ids, turns, strict=True)),
                      key=lambda mv: mv.action)

    def action_text(self, action: int) -> str:
        """What an action id names when it is not legal where asked (legal ones are shown by their turn's label)."""
        tiles = self.board.tiles
        if action == self.pass_action >= 0:
            return PASS
        if 0 <= action < self.tape_base:
            se, r = divmod(action, self.variants)
            s, e = divmod(se, self.n)
            return f"{tiles[s]}-{tiles[e]}" + (f"#{r + 1}" if r else "")
        if self.taping and self.tape_base <= action < self.num_actions:
            rest, o = divmod(action - self.tape_base, self.h)
            rest, u = divmod(rest, self.n)
            t, d = divmod(rest, self.m)
            try:
                return "tape " + format_fact(self.board, Fact(t, self.board.grid.directions[d], u, o))
            except TapologyError:
                return f"action {action}"
        return f"action {action}"

    # observations
    def fill(self, key: Key, obs: Any) -> None:
        """The planes (see the module doc)."""
        pos = self.position(key)
        obs.fill(0)
        n = self.n
        for t, s in enumerate(pos.board.states):
            obs[s, t] = 1
        base = self.values
        if self.oriented:
            for t, (s, f) in enumerate(zip(pos.board.states, pos.extra, strict=True)):
                if s:
                    obs[base + f, t] = 1
            base += self.h
        obs[base, :] = pos.to_move
        base += 1
        if self.taping:
            nh = n * self.h
            for t, row in enumerate(pos.board.glue):
                for d, code in enumerate(row):
                    if code >= 0:
                        obs[base + d * nh + code, t] = 1

    def text(self, key: Key) -> str:
        """Player to move, ply, the tiles' states (``name@frame`` for oriented pieces), tapes made, counters."""
        pos = self.position(key)
        by = self.game.rules.by_value
        toks = []
        for t, s in enumerate(pos.board.states):
            name = by[s].name if s else "."
            if pos.extra and s and self.oriented:
                name += f"@{pos.extra[t]}"
            toks.append(name)
        lines = [f"{self.players[pos.to_move]} to move, ply {pos.ply}: " + " ".join(toks)]
        if key[5] is not None:
            start = {tp.label for tp in board_tapings(self.board)}
            lines.append("tapes: " + " ".join(tp.label for tp in board_tapings(pos.board) if tp.label not in start))
        if pos.counters:
            lines.append("counters: " + " ".join(map(str, pos.counters)))
        if pos.history:
            lines.append(f"history: {len(pos.history)}")
        return "\n".join(lines)

    def state_names(self) -> list[str]:
        """Names of the state planes."""
        by = self.game.rules.by_value
        return [by[v].name if v in by else f"state {v}" for v in range(self.values)]


Engine = KinrowEngine | RuleEngine


def make_engine(game: str = "tictactoe", board: str | None = None, variants: int = 0, max_plies: int = 0) -> Engine:
    """The engine for GAME on BOARD: bitmasks for k-in-a-row games, else the rule engine."""
    lg = load_game(game, board)
    if lg.kinrow is not None:
        return KinrowEngine(lg.kinrow)
    return RuleEngine(lg.generic, variants, max_plies)


# ---- OpenSpiel --------------------------------------------------------------------------------------
_ENGINES: dict[str, Engine] = {}
_CLASSES: dict[str, Any] = {}


class _Memo:
    """What a state derives from its key (turns, outcome): shared by clones, not serialized."""

    __slots__ = ("by_action", "known", "moves", "outcome")

    def __init__(self) -> None:
        self.moves: list[Move] | None = None
        self.by_action: dict[int, Move] | None = None
        self.outcome: tuple[float, ...] | None = None
        self.known = False

    def __deepcopy__(self, memo: dict) -> _Memo:
        return self

    def __reduce__(self) -> tuple:
        return (_Memo, ())


def _params(params: dict[str, Any] | None) -> dict[str, Any]:
    out = dict(PARAMS)
    out.update(params or {})
    return out


def _engine_for(gs: str, params: dict[str, Any] | None = None) -> Engine:
    got = _ENGINES.get(gs)
    if got is None:
        p = _params(params)
        got = make_engine(str(p["game"]).replace(";", ","), str(p["board"]) or None, int(p["variants"]),
                          int(p["max_plies"]))
        _ENGINES[gs] = got
    return got


class BoardObserver:
    """Planes over the tiles: one per state, then frames, player to move and gluing (rule games); needs no pyspiel."""

    def __init__(self, engine: Engine, params: Any) -> None:
        if params:
            raise GameError(f"observation parameters are not supported; got {params}")
        shape = (engine.planes, engine.n)
        self.tensor = np.zeros(shape[0] * shape[1], np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: Any, player: int) -> None:
        """Fill the planes from a state."""
        state.engine.fill(state.key, self.dict["observation"])

    def string_from(self, state: Any, player: int) -> str:
        """The state as text."""
        return str(state)


def _classes() -> dict[str, Any]:
    """The pyspiel classes (built once, when OpenSpiel is first asked for)."""
    if _CLASSES:
        return _CLASSES
    import pyspiel  # the optional extra tapology[openspiel]
    from open_spiel.python.observation import IIGObserverForPublicInfoGame  # part of the same extra

    game_type = pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="tapology: board games on taped-together surfaces",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(PARAMS),
    )

    class TapologyGame(pyspiel.Game):
        """A tapology game as an OpenSpiel game (parameters: game, board, variants, max_plies)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            p = _params(params)
            self.gs = game_string(str(p["game"]), str(p["board"]) or None, variants=int(p["variants"]),
                                  max_plies=int(p["max_plies"]))
            self.engine = _engine_for(self.gs, p)
            e = self.engine
            info = pyspiel.GameInfo(num_distinct_actions=e.num_actions, max_chance_outcomes=0, num_players=2,
                                    min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=e.max_length)
            super().__init__(game_type, info, params or {})

        def new_initial_state(self, key: Key = None) -> TapologyState:
            """The start position (or the position a key names)."""
            return TapologyState(self, key)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            """The board observer (planes per state), or the public-info observer for information states."""
            if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
                return BoardObserver(self.engine, params)
            return IIGObserverForPublicInfoGame(iig_obs_type, params)

    class TapologyState(pyspiel.State):
        """A position of a tapology game; its data is the game string, the position's key and a shared memo."""

        def __init__(self, game: TapologyGame, key: Key = None) -> None:
            super().__init__(game)
            self._gs = game.gs
            self._key = game.engine.initial() if key is None else key
            self._memo = _Memo()

        @property
        def engine(self) -> Engine:
            """This game's engine."""
            return _engine_for(self._gs)

        @property
        def key(self) -> Key:
            """The position's key."""
            return self._key

        def position(self) -> Position:
            """The position as a tapology Position."""
            return self.engine.position(self._key)

        def _outcome(self) -> tuple[float, ...] | None:
            m = self._memo
            if not m.known:
                m.outcome = self.engine.outcome(self._key)
                m.known = True
            return m.outcome

        def _moves(self) -> dict[int, Move]:
            m = self._memo
            if m.by_action is None:
                m.moves = [] if self._outcome() is not None else self.engine.moves(self._key)
                m.by_action = {mv.action: mv for mv in m.moves}
            return m.by_action

        def current_player(self) -> int:
            """The player to move, or TERMINAL."""
            if self._outcome() is not None:
                return pyspiel.PlayerId.TERMINAL
            return self.engine.to_move(self._key)

        def _legal_actions(self, player: int) -> list[int]:
            return list(self._moves())

        def _apply_action(self, action: int) -> None:
            mv = self._moves().get(action)
            if mv is None:
                raise GameError(f"action {action} ({self.engine.action_text(action)}) is not legal here")
            self._key = mv.child
            self._memo = _Memo()

        def _action_to_string(self, player: int, action: int) -> str:
            mv = self._moves().get(action) if self._outcome() is None else None
            return mv.label if mv is not None else self.engine.action_text(action)

        def is_terminal(self) -> bool:
            """Whether the game is over."""
            return self._outcome() is not None

        def returns(self) -> list[float]:
            """The outcome's scores (zeros while play goes on)."""
            out = self._outcome()
            return list(out) if out is not None else [0.0, 0.0]

        def __str__(self) -> str:
            return self.engine.text(self._key)

    _CLASSES.update(game_type=game_type, game=TapologyGame, state=TapologyState, observer=BoardObserver)
    return _CLASSES


def available() -> bool:
    """Whether the optional OpenSpiel extra is installed."""
    try:
        import pyspiel  # noqa: F401  # the optional extra tapology[openspiel]
    except ImportError:
        return False
    return True


def register() -> None:
    """Register the ``tapology`` game with OpenSpiel (once)."""
    import pyspiel  # the optional extra tapology[openspiel]

    cls = _classes()
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(cls["game_type"], cls["game"])


def load(game: str = "tictactoe", board: str | None = None, **params: Any) -> Any:
    """GAME on BOARD as a ``pyspiel.Game`` (registering first)."""
    import pyspiel  # the optional extra tapology[openspiel]

    register()
    return pyspiel.load_game(game_string(game, board, **params))


def state_at(spiel_game: Any, pos: Position) -> Any:
    """The OpenSpiel state of a tapology Position of this game (no action history)."""
    return spiel_game.new_initial_state(spiel_game.engine.key_of(pos))


def action_of(spiel_game: Any, pos: Position, label: str) -> int:
    """The action id of the turn ``label`` at ``pos``."""
    e: Engine = spiel_game.engine
    for mv in e.moves(e.key_of(pos)):
        if mv.label == label:
            return mv.action
    raise GameError(f"turn {label!r} is not legal here")


def iter_games() -> Iterator[tuple[str, str, str]]:
    """(game, board, game string) for every registered game of the registry."""
    for g, b in registry_games():
        yield g, b, game_string(g, b)


__all__ = ["SHORT_NAME", "KinrowEngine", "Move", "RuleEngine", "action_of", "available", "game_string",
           "iter_games", "load", "make_engine", "register", "registry_games", "state_at"]
