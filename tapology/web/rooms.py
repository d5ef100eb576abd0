"""Games played in the page: a room per game, named by a code that a second tab (or browser) joins.

A :class:`Room` holds a game of the registry (:func:`tapology.games.registry.load_game`) on a board, its
positions and turn labels, and its seats: a human (who holds the seat's token) or a computer player by the
spec the CLI takes (``alphabeta:4``, ``mcts:500@1``, ``random``, ``ai``).  After every change the room is
written atomically to ``DATA/games/CODE.json`` in ``play``'s record format (``tapology-game/1``), so that
``tapology play --resume`` continues it and a restarted server finds it again.  A move names the ply it was
made on; a request made on an older position, or with a token that is not the seat's, is refused.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tapology.errors import GameError, OptionError, RecordError, StrengthError, TapologyError
from tapology.files import read_text, write_atomic
from tapology.game import Position, Turn
from tapology.games.chess import pgn_result, san, squares, write_pgn
from tapology.games.registry import SHIPPED, LoadedGame, load_game
from tapology.model.atlas import Atlas
from tapology.model.builtins import is_builtin
from tapology.model.tape import side_fact
from tapology.play.playing.ai import SEARCHES, Agent, make_agent, parse_player
from tapology.play.playing.session import RECORD_FORMAT, GameRecord, replay
from tapology.play.playing.transcript import position_json, state_names
from tapology.rules.engine import RuleGame
from tapology.web.shapes import board_tiles, grid_shapes
from tapology.web.workshop import StaleError, cover_view

CODE = re.compile(r"^[A-Z2-9]{6}$")
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ROOMS = 64  # games held in memory (compiled tables and all); the others are read from disk when asked for
MOVE_TIME = 2.0  # seconds a computer player may think per move in the page
_TTT = re.compile(r"^(?:tictactoe|tic-tac-toe|mnk)(?::\d{1,3}(?:,\d{1,3},\d{1,3})?)?$")


def new_code() -> str:
    """A fresh game code: six letters and digits (no 0, O, 1, I)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(6))


class Names:
    """What a request may name: shipped games and built-in boards, and files uploaded into ``DATA/uploads`` (by
    the content hash the server gave them).  Nothing else on the server's disk is reachable."""

    def __init__(self, data: Path) -> None:
        self.uploads = data / "uploads"

    def store(self, text: str, kind: str) -> str:
        """Keep an uploaded board or rule file; its name for later requests (``upload:HASH``)."""
        import hashlib  # only here: uploads are rare

        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        self.uploads.mkdir(parents=True, exist_ok=True)
        path = self.uploads / f"{digest}.{kind}.toml"
        if not path.exists():
            write_atomic(path, text)
        return f"upload:{digest}.{kind}"

    def resolve(self, name: str, kind: str) -> str:
        """The spec :func:`load_game` reads for a request's game (``kind`` = ``rules``) or board (``board``)."""
        n = (name or "").strip()
        if n.startswith("upload:"):
            key = n[7:]
            if not re.fullmatch(r"[0-9a-f]{16}\." + kind, key):
                raise OptionError(f"{kind} {n[:40]!r}: not an uploaded {kind} file of this server")
            path = self.uploads / f"{key}.toml"
            if not path.is_file():
                raise OptionError(f"{kind} {n[:40]!r}: no such upload (upload the file again)")
            return str(path)
        if kind == "rules" and (n in SHIPPED or _TTT.match(n)):
            return n
        if kind == "board" and is_builtin(n):
            return n
        what = "a shipped game (" + ", ".join(SHIPPED) + ", tictactoe:K)" if kind == "rules" else \
            "a built-in board (plane:3x3, torus:12x8, …)"
        raise OptionError(f"{'game' if kind == 'rules' else 'board'} {n[:60]!r}: give {what} or upload a file")

    def public(self, spec: str) -> str:
        """A resolved spec as the page names it again (``upload:…`` for an uploaded file)."""
        p = Path(spec)
        if p.parent == self.uploads:
            return "upload:" + p.name.removesuffix(".toml")
        return spec


def make_seat(lg: LoadedGame, who: str, where: str, seed: int | None) -> Agent | None:
    """A seat's player: None for a human, else a computer player by the CLI's spec (``ai`` = depth search)."""
    w = (who or "human").strip().lower()
    if w == "human":
        return None
    if w in ("ai", "computer"):
        return make_agent(lg.game, 4, seed, MOVE_TIME)
    try:
        spec = parse_player(w, where)
    except StrengthError as exc:
        raise OptionError(f"{where} {who[:40]!r}: use human, ai, or a computer player (random, perfect, a depth, "
                          f"alphabeta:D or mcts:N, with @SECONDS): {exc}") from None
    if spec.kind not in SEARCHES:
        return make_agent(lg.game, spec.budget, seed, MOVE_TIME)
    from tapology.play.playing.ai import make_search_agent  # the search players: only when one is asked for

    if spec.seconds is None:
        spec = parse_player(f"{w}@{MOVE_TIME:g}", where)
    return make_search_agent(lg.game, spec, seed)


@dataclass
class Room:
    """One game: the loaded game, its positions and labels, its seats and their tokens."""

    code: str
    game_spec: str  # as load_game reads it (an uploaded file's path in the data folder)
    board_spec: str
    public: tuple[str, str]  # game and board as the page names them
    lg: LoadedGame
    seats: list[str]
    agents: list[Agent | None]
    tokens: list[str | None]
    history: list[Position]
    labels: list[str]
    sans: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    claimed: list[bool] = field(default_factory=list)
    _outcome: dict[str, int] | None = None
    _outcome_of: Position | None = None

    @property
    def game(self) -> Any:
        """The game being played (a claim game or a :class:`RuleGame`)."""
        return self.lg.game

    @property
    def pos(self) -> Position:
        """The current position."""
        return self.history[-1]

    def outcome(self) -> dict[str, int] | None:
        """The result once the rules end the game (kept per position; a position with turns goes on, so the end
        rules are asked only where there is none)."""
        pos = self.pos
        if self._outcome_of is not pos:
            self._outcome = None if self.game.turns(pos) else self.game.outcome(pos)
            self._outcome_of = pos
        return self._outcome

    # ---- moves ------------------------------------------------------------------------------
    def moves(self) -> list[dict[str, Any]]:
        """The legal turns as the page clicks them: label, name in the game's notation, the tile a piece leaves
        (None for a claim or a tape turn) and the tile it reaches (the claimed tile), the sides a tape turn tapes."""
        game, pos = self.game, self.pos
        turns = game.turns(pos)
        if game.tile_claims:  # a claim turn is labelled by its tile's id
            index = pos.board.tile_index
            return [{"label": t.label, "name": t.label, "from": None, "to": index[t.label]} for t in turns]
        assert isinstance(game, RuleGame)
        ends = game.turn_ends(pos)
        chess = game.rules.notation == "chess"
        out = []
        for t, fe in zip(turns, ends, strict=False):
            item: dict[str, Any] = {"label": t.label, "name": t.label, "from": None, "to": None}
            if fe is not None:
                item["from"], item["to"] = fe
                if chess and len(t.label) == 5:  # a promotion: the page offers the piece by its letter
                    item["name"] = t.label[4].upper()
            elif t.label.startswith("tape "):
                item["tape"] = self._tape_sides(t.label[5:])
            else:
                changed = [k for k, (a, b) in enumerate(zip(pos.states, t.result.states, strict=True)) if a != b]
                item["to"] = changed[0] if changed else None
            out.append(item)
        return out

    def _tape_sides(self, label: str) -> list[int] | None:
        board = self.pos.board
        m = re.match(r"^([^.]+)\.([a-z-]+)=([^.]+)\.([a-z-]+)(~?)$", label)
        if not m:
            return None
        g = board.grid
        return [board.tile_index[m.group(1)], g.side(m.group(2)), board.tile_index[m.group(3)], g.side(m.group(4)),
                1 if m.group(5) else 0]

    def play(self, label: str, ply: int, token: str | None) -> Turn:
        """A human's turn by label at ``ply`` with the seat's token; refusals say why."""
        if ply != len(self.labels):
            raise StaleError(f"stale move: it was made on turn {ply + 1}, the game is at turn {len(self.labels) + 1}; "
                             "the page shows the position as it is now")
        if self.outcome() is not None:
            raise GameError("the game is over")
        who = self.pos.to_move
        if self.agents[who] is not None:
            raise GameError(f"{self.game.players[who]} is played by the computer ({self.seats[who]})")
        if self.tokens[who] is None or token != self.tokens[who]:
            raise GameError(f"not your turn: {self.game.players[who]} to move, and this page does not hold that seat")
        turns = self.game.turns(self.pos)
        for t in turns:
            if t.label == label:
                self._push(t, turns)
                return t
        raise GameError(f"{label[:40]!r} is not a legal turn of {self.game.players[who]} here")

    def _push(self, t: Turn, turns: list[Turn]) -> None:
        game = self.game
        name = t.label
        if isinstance(game, RuleGame) and game.rules.notation == "chess":
            name = san(game, self.pos, t, turns)
        self.history.append(t.result)
        self.labels.append(t.label)
        self.sans.append(name)

    def computer_to_move(self) -> bool:
        """Is it a computer player's turn in a game that goes on?"""
        return self.outcome() is None and self.agents[self.pos.to_move] is not None

    def computer_turn(self) -> bool:
        """Let the computer play one turn if it is its turn (in the calling thread); True if it played."""
        if not self.computer_to_move():
            return False
        agent = self.agents[self.pos.to_move]
        assert agent is not None
        turns = self.game.turns(self.pos)
        self._push(turns[agent.choose(self.pos, turns)], turns)
        return True

    def undo(self, token: str | None) -> None:
        """Take back turns to the asking human's previous turn (with the computer's replies)."""
        if token is None or token not in self.tokens:
            raise GameError("undo: this page does not hold a seat of the game")
        if len(self.history) == 1:
            raise GameError("nothing to undo")
        mine = {k for k, tk in enumerate(self.tokens) if tk == token}
        while len(self.history) > 1:  # back to before this page's last turn (the computer's replies with it)
            self.history.pop()
            self.labels.pop()
            self.sans.pop()
            if self.pos.to_move in mine:
                break

    # ---- records ---------------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The game as ``play``'s record (the autosave format)."""
        return GameRecord(self.game_spec, self.board_spec, list(self.labels),
                          dict(zip(self.game.players, self.seats, strict=True)), self.outcome(),
                          position_json(self.game, self.pos, self.history[0].board))

    def save(self, folder: Path) -> None:
        """Write the record (with the seats' tokens beside it) atomically to ``folder/CODE.json``."""
        data = self.record().to_json()
        data["web"] = {"tokens": self.tokens, "claimed": self.claimed}
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / f"{self.code}.json", json.dumps(data, indent=2) + "\n", RecordError)

    def pgn(self) -> str:
        """The game in PGN (chess only)."""
        game = self.game
        if not (isinstance(game, RuleGame) and game.rules.notation == "chess"):
            raise GameError(f"{self.game_spec}: PGN is for chess")
        return write_pgn(game, self.labels, {"Event": "tapology serve", "Site": self.public[1], "White": self.seats[0],
                                             "Black": self.seats[1]}, pgn_result(game, game.outcome(self.pos)))

    # ---- what the page shows ---------------------------------------------------------------
    def state(self, token: str | None = None) -> dict[str, Any]:
        """The position for the page: tiles with pieces, legal turns, last move, check, result, the move list."""
        game, pos = self.game, self.pos
        names = state_names(game)
        owner: dict[int, int] = {}
        oriented = False
        if isinstance(game, RuleGame):
            for sd in game.rules.states:
                owner[sd.value] = sd.owner if isinstance(sd.owner, int) else game.players.index(sd.owner) \
                    if sd.owner in game.players else -1
            oriented = bool(game.rules.oriented)
        else:
            owner = {1: 0, 2: 1}
        frames = list(pos.extra) if oriented and pos.extra else [0] * len(pos.states)
        turned: set[int] = set()  # states that carry a frame (drawn turned with it); the others are drawn upright
        if oriented and isinstance(game, RuleGame):
            canon = game.compiled(pos.board).canon
            turned = {v for v, row in enumerate(canon) if any(row)}
        pieces = [None if s == 0 else {"s": names.get(s, str(s)), "o": owner.get(s, -1), "f": frames[k],
                                       "r": s in turned}
                  for k, s in enumerate(pos.states)]
        last: list[int] = []
        if len(self.history) > 1:
            prev = self.history[-2]
            last = [k for k, (a, b) in enumerate(zip(prev.states, pos.states, strict=True)) if a != b]
        check = None
        if isinstance(game, RuleGame) and game.royal_values and game.in_check(pos):
            check = [k for k, s in enumerate(pos.states) if s in game.royal_values
                     and owner.get(s, -1) == pos.to_move]
        out = self.outcome()
        result = None
        moves = self.moves() if out is None else []
        if out is not None:
            winners = [p for p, v in out.items() if v > 0]
            if winners:
                result = f"{winners[0]} wins"
                if check:
                    result = f"checkmate: {result}"
            else:
                result = "draw"
        line = None
        kr = self.lg.kinrow
        if kr is not None and out is not None:
            x, o = kr.masks_of(pos)
            for mask in (x, o):
                got = kr.lines_of(mask)
                if got:
                    line = list(kr.lines[got[0]])
        me = [k for k, tk in enumerate(self.tokens) if tk is not None and tk == token]
        return {
            "code": self.code, "game": self.public[0], "board": self.public[1], "players": list(game.players),
            "seats": self.seats, "you": me, "ply": len(self.labels), "to_move": pos.to_move,
            "tiles": board_tiles(pos.board), "pieces": pieces, "last": last, "check": check, "result": result,
            "line": line, "moves": moves, "sans": self.sans,
            "chess": isinstance(game, RuleGame) and game.rules.notation == "chess",
            "glue": pos.board.glue != self.history[0].board.glue,
            "squares": list(squares(game).names) if isinstance(game, RuleGame) and game.rules.notation == "chess"
            else None,
        }

    def cover(self, tile: int, frame: int, radius: int) -> dict[str, Any]:
        """The cover of the current board around (tile, frame)."""
        return cover_view(self._atlas(), tile, frame, radius)

    def _atlas(self) -> Atlas:
        board = self.pos.board
        if isinstance(self.game, RuleGame):
            return self.game.chains(board).comp.atlas
        return Atlas.of(board)

    def shapes(self) -> dict[str, Any]:
        """The grid shapes of the game's board."""
        return grid_shapes(self.pos.board.grid)

    def tape_label(self, tile: int, side: int, other: int, other_side: int, flip: bool) -> str:
        """The turn label of taping two sides (for a tape turn clicked on the cover)."""
        from tapology.model.tape import format_fact  # the tape turns' own spelling

        board = self.pos.board
        try:
            fact = side_fact(board, tile, side, other, other_side, flip)
        except (TapologyError, IndexError) as exc:
            raise GameError(f"tape: {exc}") from None
        return "tape " + format_fact(board, fact)


class Rooms:
    """Every game of the server, in memory and in ``DATA/games`` (so a restart loses none)."""

    def __init__(self, data: Path) -> None:
        self.folder = data / "games"
        self.names = Names(data)
        self.rooms: OrderedDict[str, Room] = OrderedDict()
        self.lock = threading.Lock()

    def _keep(self, room: Room) -> None:
        """Hold a room in memory; beyond :data:`ROOMS` the least recently used idle one is let go (it is on disk)."""
        self.rooms[room.code] = room
        self.rooms.move_to_end(room.code)
        for code in list(self.rooms)[:-ROOMS] if len(self.rooms) > ROOMS else []:
            old = self.rooms[code]
            if old.lock.acquire(blocking=False):  # not while its computer player thinks
                del self.rooms[code]
                old.lock.release()

    def create(self, game: str, board: str | None, seats: list[str], two_tabs: bool = False,
               record: GameRecord | None = None) -> tuple[Room, str | None]:
        """A new room (or one replaying ``record``); the creating page's token."""
        game_spec = self.names.resolve(game, "rules")
        board_spec = self.names.resolve(board, "board") if board else None
        lg = load_game(game_spec, board_spec)
        if len(lg.game.players) != 2:
            raise GameError(f"{game}: the page plays games of two players; it has {len(lg.game.players)}")
        if len(seats) != 2:
            raise OptionError("give a player for each of the two seats")
        agents = [make_seat(lg, s, f"player {lg.game.players[k]}", None) for k, s in enumerate(seats)]
        tokens: list[str | None] = [secrets.token_urlsafe(12) if a is None else None for a in agents]
        with self.lock:
            code = new_code()
            while code in self.rooms or (self.folder / f"{code}.json").exists():
                code = new_code()
        if isinstance(lg.game, RuleGame):
            lg.game.prefer_native()
        history = [lg.game.initial()]
        labels: list[str] = []
        if record is not None:
            history = replay(lg.game, record.turns, "record")
            labels = list(record.turns)
        board_spec = board_spec or lg.board_name
        room = Room(code, game_spec, board_spec, (self.names.public(game_spec), self.names.public(board_spec)), lg,
                    [s.strip().lower() or "human" for s in seats], agents, tokens, history, labels)
        room.sans = self._names_of(room)
        humans = [k for k, a in enumerate(agents) if a is None]
        room.claimed = [False, False]
        mine = None
        if humans:
            room.claimed[humans[0]] = True
            if not two_tabs:
                for k in humans:
                    room.claimed[k] = True
                if len(humans) == 2:
                    room.tokens[1] = room.tokens[0]
            mine = room.tokens[humans[0]]
        room.save(self.folder)
        self._keep(room)
        return room, mine

    def _names_of(self, room: Room) -> list[str]:
        game = room.game
        if not (isinstance(game, RuleGame) and game.rules.notation == "chess"):
            return list(room.labels)
        out = []
        for pos, lab in zip(room.history, room.labels, strict=False):
            turns = game.turns(pos)
            t = next(t for t in turns if t.label == lab)
            out.append(san(game, pos, t, turns))
        return out

    def get(self, code: str) -> Room:
        """The room of a code (read from disk after a restart); :class:`GameError` for an unknown or forged code."""
        c = (code or "").strip().upper()
        if not CODE.match(c):
            raise GameError(f"game code {code[:20]!r}: a code is six letters and digits")
        room = self.rooms.get(c)
        if room is not None:
            self.rooms.move_to_end(c)
            return room
        path = self.folder / f"{c}.json"
        if not path.is_file():
            raise GameError(f"no game {c} on this server")
        text = read_text(path, "game record", RecordError)
        rec = GameRecord.from_text(text, path.name)
        web = json.loads(text).get("web") or {}
        seats = list(rec.players.values()) if len(rec.players) == 2 else ["human", "human"]
        room, _ = self._restore(c, rec, seats, web)
        return room

    def _restore(self, code: str, rec: GameRecord, seats: list[str], web: dict[str, Any]) -> tuple[Room, None]:
        lg = load_game(rec.game, rec.board)
        if isinstance(lg.game, RuleGame):
            lg.game.prefer_native()
        agents = [make_seat(lg, s, "player", None) for s in seats]
        history = replay(lg.game, rec.turns, f"game {code}")
        tokens = web.get("tokens") or [None, None]
        room = Room(code, rec.game, rec.board, (self.names.public(rec.game), self.names.public(rec.board)), lg, seats,
                    agents,
                    [t if isinstance(t, str) else None for t in tokens], history, list(rec.turns))
        room.claimed = [bool(x) for x in (web.get("claimed") or [True, True])]
        room.sans = self._names_of(room)
        self._keep(room)
        return room, None

    def join(self, code: str) -> tuple[Room, str | None]:
        """Join a game by its code: the first unclaimed human seat's token (None: watch)."""
        room = self.get(code)
        with room.lock:
            for k, a in enumerate(room.agents):
                if a is None and not room.claimed[k]:
                    room.claimed[k] = True
                    self.save(room)
                    return room, room.tokens[k]
        return room, None

    def save(self, room: Room) -> None:
        """Write a room's record."""
        room.save(self.folder)

    def load_record(self, text: str, seats: list[str] | None = None) -> tuple[Room, str | None]:
        """A new room continuing an uploaded record (``play``'s autosave format): its game and board must be ones a
        request may name."""
        rec = GameRecord.from_text(text, "uploaded record")
        rec.game, rec.board = self.names.public(rec.game), self.names.public(rec.board)
        players = list(rec.players.values()) if rec.players else ["human", "human"]
        players = ["human" if p == "ai" and seats is None else p for p in players]
        return self.create(rec.game, rec.board, seats or players, record=rec)


__all__ = ["RECORD_FORMAT", "Names", "Room", "Rooms", "StaleError", "new_code"]
