"""A game at the terminal: the board in the seed's style, turns by number, tile or coordinates, undo, save and load.

The loop reads commands from any text stream and writes to any other, so tests drive it
through its input.  At a human's turn the input may be:

* a **number** from the list of turns (in a claim game the list is numbered by tile, so
  ``5`` claims tile 5);
* ``#ID`` — the turn that changes tile ID;
* ``ROW,COL`` (or ``ROW COL``) — the tile drawn at that row and column, from 1 at the top left;
* a turn's **label** as listed;
* ``undo`` (``u``) — take back the last turn (and the computer's reply, when playing one);
* ``save FILE`` / ``load FILE`` — write or read a game record (JSON);
* ``moves`` (``m``), ``board`` (``b``), ``help`` (``h``, ``?``), ``quit`` (``q``).

Anything else is refused with the reason, and the same player is asked again.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, TextIO

from tapology.errors import RecordError, TapologyError
from tapology.files import check_target, parse_json, read_text, write_atomic
from tapology.game import Game, Position, Turn
from tapology.model.board import Board
from tapology.model.group import Cell
from tapology.model.tape import board_tapings
from tapology.play.playing.ai import Agent
from tapology.play.playing.chessplay import chess_end, chess_game, diagram, diagram_fits, record_pgn, san_of, status
from tapology.play.playing.referee import apply_turn
from tapology.play.playing.transcript import position_json, state_names
from tapology.render.ascii import draw_board
from tapology.render.compact import compact_board
from tapology.render.develop import develop_board
from tapology.rules.ends import Claim
from tapology.rules.engine import RuleGame

RECORD_FORMAT = "tapology-game/1"
MENU_WIDTH = 78  # characters of a line of the turn menu
MENU_LINES = 8  # lines of the turn menu shown before each turn (the rest on 'm')
MAX_WIDTH = 120  # a wider seed-style picture is drawn compactly (render.compact)
NOTE_STARTS = ("taped beyond the picture", "tapes played", "sides glued since")
CHESS_MENU_LINES = 5  # with a chess diagram: the board, the menu and the prompt fit 24 lines
TABLE_WORDS = frozenset({"resign", "draw", "offer", "accept", "decline", "claim", "pgn"})



@dataclass
class GameRecord:
    """A saved game: which game on which board, who played, and the turns so far."""

    game: str
    board: str
    turns: list[str]
    players: dict[str, str] = field(default_factory=dict)
    result: dict[str, int] | None = None
    final: dict[str, Any] | None = None
    end: str | None = None  # how a game ended other than by the rules: "white resigns", "drawn by agreement"

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (``end`` only when the players ended the game)."""
        out = {"format": RECORD_FORMAT, "game": self.game, "board": self.board, "players": self.players,
               "turns": self.turns, "result": self.result, "final": self.final}
        if self.end is not None:
            out["end"] = self.end
        return out

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically (a temporary file renamed into place); :class:`RecordError` naming ``path`` if it cannot be."""
        write_atomic(path, json.dumps(self.to_json(), indent=2) + "\n", RecordError)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record; :class:`RecordError` naming the file and the problem."""
        return cls.from_text(read_text(path, "game record", RecordError), path)

    @classmethod
    def from_text(cls, text: str, path: str | os.PathLike[str] = "record") -> GameRecord:
        """A record from its JSON text; :class:`RecordError` naming ``path`` and the problem."""
        data = parse_json(text, os.fspath(path), RecordError)
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"{path}: not a game record (expected \"format\": \"{RECORD_FORMAT}\")")
        turns = data.get("turns")
        if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
            raise RecordError(f"{path}: 'turns' must be a list of turn labels")
        for k in ("game", "board"):
            if not isinstance(data.get(k), str):
                raise RecordError(f"{path}: '{k}' must be a string")
        players = data.get("players")
        if players is not None and (not isinstance(players, dict)
                                    or not all(isinstance(v, str) for v in players.values())):
            raise RecordError(f"{path}: 'players' must be a table of player = human or ai")
        result = data.get("result")
        if result is not None and (not isinstance(result, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in result.values())):
            raise RecordError(f"{path}: 'result' must be a table of player = score")
        if data.get("final") is not None and not isinstance(data["final"], dict):
            raise RecordError(f"{path}: 'final' must be a position object")
        end = data.get("end")
        if end is not None and not isinstance(end, str):
            raise RecordError(f"{path}: 'end' must be a string")
        if end is not None and result is None:
            raise RecordError(f"{path}: 'end' {end!r} without a 'result'")
        return cls(data["game"], data["board"], list(turns), dict(data.get("players") or {}), data.get("result"),
                   data.get("final"), end)


def autosave_path() -> str:
    """Where ``play`` saves the game after every turn when no ``--save`` is given: ``$TAPOLOGY_AUTOSAVE``, else
    ``$XDG_STATE_HOME/tapology/autosave.json`` (``~/.local/state/tapology/autosave.json``); its folder is made."""
    path = os.environ.get("TAPOLOGY_AUTOSAVE")
    if not path:
        state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
        path = os.path.join(state, "tapology", "autosave.json")
    folder = os.path.dirname(path)
    if folder:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise RecordError(f"autosave {path}: cannot make its folder: {exc.strerror}") from None
    return path


def check_record_target(path: str | os.PathLike[str]) -> None:
    """:class:`RecordError` unless a game record could be written at ``path``: not a folder, its folder exists."""
    check_target(path, RecordError)


def replay(game: Game, labels: Sequence[str], where: str = "record") -> list[Position]:
    """The positions of a game from its start through the labelled turns; :class:`RecordError` at the first bad one."""
    pos = game.initial()
    out = [pos]
    for i, lab in enumerate(labels, start=1):
        t, why = apply_turn(game, pos, lab)
        if t is None:
            raise RecordError(f"{where}: turn {i} ({lab!r}): {why}")
        pos = t.result
        out.append(pos)
    return out


# ---- pictures -------------------------------------------------------------------------
def layout(board: Board) -> list[tuple[Cell, int] | None]:
    """The drawn placement of each tile: ((x, y), orientation), None for tiles not drawn."""
    if board.placement is not None:
        return list(board.placement)

    return list(develop_board(board))


def hidden_tapings(board: Board) -> list[str]:
    """Tapings the drawing cannot show: sides glued to a tile other than the one drawn next to them, or turned."""
    place = layout(board)
    grid = board.grid
    grp = grid.group
    at: dict[Cell, int] = {p[0]: t for t, p in enumerate(place) if p is not None}
    out = []
    for tp in board_tapings(board):
        f = tp.fact
        pt, pu = place[f.tile], place[f.other]
        if pt is None or pu is None:
            out.append(tp.label)
            continue
        (cell, gt), (_, gu) = pt, pu
        nb = grid.add(cell, grp.act(gt, f.cell))
        if at.get(nb) != f.other or gu != grp.mul[f.orientation][gt]:
            out.append(tp.label)
    return out


def rowcol_tiles(board: Board) -> dict[tuple[int, int], int]:
    """(row, column) from 1 at the top left of the drawing -> tile."""
    place = layout(board)
    cells = {board.grid.layout_row_col(p[0]): t for t, p in enumerate(place) if p is not None}
    if not cells:
        return {}
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return {(r - r0 + 1, c - c0 + 1): t for (r, c), t in cells.items()}


def draw_position(game: Game, pos: Position, *, start: Board | None = None, gluing: bool = True,
                  played: Sequence[str] = ()) -> str:
    """The board in the seed's style, with the tiles' states written under their ids, and (with ``gluing``)
    the tapings the picture cannot show: the start board's, the tape turns ``played``, and every side
    glued since the start (tapings propagate, so a tape turn may glue more than its two sides)."""

    names = state_names(game)
    shown = {k: v for k, v in names.items() if k != 0}
    pic = draw_board(pos.board, positions=layout(pos.board), state_names=shown)
    notes = []
    new: list[str] = []
    if start is not None and (pos.board.glue != start.glue or pos.board.extra != start.extra):
        before = {tp.label for tp in board_tapings(start)}
        new = [tp.label for tp in board_tapings(pos.board) if tp.label not in before]
    hidden = [h for h in hidden_tapings(pos.board) if h not in new] if gluing else []
    if hidden:
        notes.append("taped beyond the picture: " + ", ".join(hidden))
    if played and gluing:
        notes.append("tapes played: " + ", ".join(played))
    if new and gluing:
        notes.append("sides glued since the start: " + ", ".join(new))
    return pic + ("\n" + "\n".join(notes) if notes else "")


# ---- the loop ---------------------------------------------------------------------------
_HELP = """commands:
  N          the turn numbered N in the list (claim games number turns by tile)
  #ID        the turn that changes tile ID
  ROW,COL    the tile drawn at that row and column (1,1 is the top left)
  LABEL      a turn by its label
  claim      end the game by a claim the rules offer now (chess: fifty-move rule, threefold repetition)
  undo, u    take back the last turn (and the computer's reply)
  save FILE  write the game record;  load FILE  replay a record
  moves, m   list all turns (m TEXT: those with TEXT);  board, b  draw the board;  quit, q  stop
  resign     give up;  draw  offer a draw (accept / decline it)
  pgn FILE   write the game as PGN (chess)"""


class PlaySession:
    """One game between humans and computer players on text streams."""

    def __init__(self, game: Game, seats: Sequence[Agent | None], inp: TextIO, out: TextIO, *,
                 game_name: str = "", board_name: str = "", early_draw: bool = True, color: bool = False,
                 record: GameRecord | None = None, record_where: str = "game record", autosave: str | None = None,
                 thinking: Callable[[str], AbstractContextManager[object]] | None = None,
                 pgn_out: str | None = None) -> None:
        if len(seats) != len(game.players):
            raise TapologyError(f"{len(seats)} seats for the {len(game.players)} players of {game.name}")
        self.game = game
        self.seats = list(seats)
        self.inp = inp
        self.out = out
        self.game_name = game_name or game.name
        self.board_name = board_name
        self.early_draw = early_draw
        self.color = color
        self.start = game.initial()
        self.history: list[Position] = [self.start]
        self.labels: list[str] = []
        self.result: dict[str, int] | None = None
        self.note = ""
        self._shown_gluing: tuple | None = None
        self.autosave = autosave
        self.autosave_error: str | None = None
        self.thinking = thinking
        self.pgn_out = pgn_out
        self.ending: str | None = None  # the players ended the game: "white resigns", "drawn by agreement"
        self.draw_offer: int | None = None  # the player whose draw offer stands
        if record is not None:
            self.history = replay(game, record.turns, record_where)
            self.labels = list(record.turns)
            if record.end is not None and record.result is not None:
                self.ending, self.result = record.end, dict(record.result)

    # -- output --
    def say(self, text: str = "") -> None:
        """Write a line (coloured X and O when colour is on)."""
        if self.color:
            from rich.console import Console
            from rich.text import Text

            con = Console(file=self.out, force_terminal=True, highlight=False, width=200)
            t = Text(text)
            t.highlight_regex(r"(?<![\w])X(?![\w])", "bold red")
            t.highlight_regex(r"(?<![\w])O(?![\w])", "bold blue")
            con.print(t)
        else:
            self.out.write(text + "\n")
        self.out.flush()

    @property
    def pos(self) -> Position:
        """The current position."""
        return self.history[-1]

    def seat_name(self, p: int) -> str:
        """``X (you)`` / ``O (computer)``."""
        who = "computer" if self.seats[p] is not None else "human"
        return f"{self.game.players[p]} ({who})"

    def menu(self, turns: Sequence[Turn]) -> list[tuple[str, Turn]]:
        """Numbered turns.  A turn labelled by a number (a claim, labelled by its tile) keeps that number;
        the others are numbered on from past the largest such number and the tile count."""
        nums = [t.label for t in turns if t.label.isdigit()]
        if len(set(nums)) != len(nums):
            return [(str(i), t) for i, t in enumerate(turns, start=1)]
        nxt = max([int(x) for x in nums] + [len(self.pos.states) if nums else 0]) + 1
        out = []
        for t in turns:
            if t.label.isdigit():
                out.append((t.label, t))
            else:
                out.append((str(nxt), t))
                nxt += 1
        return out

    def show(self) -> None:
        """Draw the board (with its hidden tapings the first time and whenever they change), then any news."""
        if self.show_diagram():
            return
        key = (self.pos.board.glue, self.pos.board.extra)
        played = [lab[5:] for lab in self.labels if lab.startswith("tape ")]
        pic = draw_position(self.game, self.pos, start=self.start.board, gluing=key != self._shown_gluing, played=played)
        self.say(self.narrow(pic))
        self._shown_gluing = key
        self.show_news()

    def narrow(self, pic: str) -> str:
        """The picture, or where it is wider than ``MAX_WIDTH`` columns the compact drawing (one line a row of tiles,
        the last turn's tiles starred) with the picture's notes."""
        if max(map(len, pic.splitlines()), default=0) <= MAX_WIDTH:
            return pic
        prev = self.history[-2].board.states if len(self.history) > 1 else self.pos.board.states
        changed = {t for t, (a, b) in enumerate(zip(prev, self.pos.board.states, strict=False)) if a != b}
        small = compact_board(self.pos.board, layout(self.pos.board), state_names(self.game), changed)
        if small is None:
            return pic
        notes = [line for line in pic.splitlines() if line.startswith(NOTE_STARTS)]
        return "\n".join([small, *notes])

    def show_news(self) -> None:
        """The turns played since the last picture, and a standing draw offer to the player to move."""
        if self.note:
            self.say(self.note)
            self.note = ""
        if self.draw_offer is not None and self.draw_offer != self.pos.to_move and self.ending is None:
            self.say(f"{self.game.players[self.draw_offer]} offers a draw: type accept or decline (a move declines it)")

    # -- chess at the terminal, and what players say to each other (resign, draw offers, claims) --
    def show_diagram(self) -> bool:
        """Draw a chess diagram (files, ranks, last move, check) when the game has one; False when it has none."""
        g = chess_game(self.game)
        if g is None or not diagram_fits(g):
            return False
        self.raw(diagram(g, self.pos, self.labels[-1] if self.labels else None, color=self.color))
        key = (self.pos.board.glue, self.pos.board.extra)
        if key != self._shown_gluing:
            hidden = hidden_tapings(self.pos.board)
            if hidden:
                self.say(f"taped beyond the diagram: {len(hidden)} pairs of sides ({self.board_name}; "
                         "'board full' draws them)")
            self._shown_gluing = key
        self.show_news()
        check = status(g, self.pos)
        if check:
            self.say(check)
        return True

    def raw(self, text: str) -> None:
        """Write text as it is (ANSI colours included)."""
        self.out.write(text + "\n")
        self.out.flush()

    def turn_names(self, turns: Sequence[Turn]) -> dict[str, str]:
        """label -> how the menu names a turn: SAN in chess, else the label."""
        g = chess_game(self.game)
        if g is None:
            return {t.label: t.label for t in turns}
        listed = self.game.turns(self.pos)
        return {t.label: san_of(g, self.pos, t, listed) for t in turns}

    def echo(self, typed: str, turn: Turn) -> str | None:
        """How a human's turn is echoed: as typed (UCI when UCI was typed, SAN when SAN was), the game's own name for
        it when it was chosen by number or tile."""
        s = typed.strip()
        if chess_game(self.game) is None:
            return None
        if s.lower() == turn.label:
            return turn.label
        if s.isdigit() or s.startswith("#") or re.fullmatch(r"(\d+)\s*[, ]\s*(\d+)", s):
            return None
        return self.turn_names([turn])[turn.label]

    def table_command(self, word: str, cmd: str, who: int) -> bool:
        """``resign``, ``draw``/``offer``, ``accept``, ``decline``, ``claim``, ``pgn FILE``; True when the turn is
        over (the game ended)."""
        me, g = self.game.players[who], self.game
        other = (who + 1) % len(g.players)
        if len(g.players) > 2 and word in ("resign", "draw", "offer", "accept", "decline"):
            self.say(f"resigning and draw offers are for two-player games; {g.name} has {len(g.players)} players")
            return False
        if word == "resign":
            self.ending = f"{me} resigns"
            self.result = {p: (-1 if i == who else 1) for i, p in enumerate(g.players)}
            self.save_now()
            return True
        if word in ("draw", "offer"):
            if self.draw_offer == other:
                return self.table_command("accept", cmd, who)
            if self.seats[other] is not None:
                self.say(f"{self.seat_name(other)} declines the draw")
                return False
            self.draw_offer = who
            self.say(f"{me} offers a draw; now make your move ({g.players[other]} may accept or decline)")
            return False
        if word == "accept":
            if self.draw_offer is None or self.draw_offer == who:
                self.say("there is no draw offer to accept (draw offers one)")
                return False
            self.ending = "drawn by agreement"
            self.result = {p: 0 for p in g.players}
            self.draw_offer = None
            self.save_now()
            return True
        if word == "decline":
            if self.draw_offer is None or self.draw_offer == who:
                self.say("there is no draw offer to decline")
                return False
            self.say(f"{me} declines the draw")
            self.draw_offer = None
            return False
        if word == "claim":
            msg = self.claim(cmd.split(maxsplit=1)[1].strip() if len(cmd.split(maxsplit=1)) > 1 else "")
            if self.ending is None:
                self.say(msg)
                return False
            self.note = msg
            return True
        parts = cmd.split(maxsplit=1)
        if len(parts) < 2:
            self.say("pgn needs a file name")
            return False
        try:
            self.write_pgn(parts[1].strip())
            self.say(f"wrote {parts[1].strip()}")
        except (TapologyError, OSError) as exc:
            self.say(f"cannot write the PGN: {exc}")
        return False

    def write_pgn(self, path: str) -> None:
        """Write the game so far as PGN at ``path`` (atomically); :class:`RecordError` for a game without SAN."""
        g = chess_game(self.game)
        if g is None:
            raise RecordError(f"{path}: PGN holds chess games; {self.game_name} is not one")
        players = {p: ("computer" if s is not None else "human") for p, s in zip(g.players, self.seats, strict=True)}
        outcome = self.result if self.ending is not None else g.outcome(self.pos)
        write_atomic(path, record_pgn(g, self.labels, players, outcome, self.ending), RecordError)

    def show_moves(self, turns: Sequence[Turn], full: bool = False, only: str = "") -> None:
        """List the turns with their numbers, packed in columns: claims on one line, the other turns at most
        ``MENU_LINES`` lines unless ``full`` (``only``: the turns whose label contains it), so that the board stays
        on screen."""
        items = self.menu(turns)
        if self.game.tile_claims:
            self.say("free tiles: " + " ".join(n for n, _ in items))
            return
        names = self.turn_names(turns)
        if only:
            items = [(n, t) for n, t in items if only.lower() in t.label.lower() or only.lower() in names[t.label].lower()]
            if not items:
                self.say(f"no turn matches {only!r}")
                return
        same = [n for n, t in items if n == t.label]
        if same:
            self.say("turns: " + " ".join(same))
        rest = [f"{n:>3} {names[t.label]}" for n, t in items if n != t.label]
        if not rest:
            return
        width = max(map(len, rest)) + 2
        per_line = max(1, MENU_WIDTH // width)
        lines = ["".join(cell.ljust(width) for cell in rest[i:i + per_line]).rstrip()
                 for i in range(0, len(rest), per_line)]
        most = CHESS_MENU_LINES if diagram_fits(self.game) else MENU_LINES
        shown = lines if full or len(lines) <= most else lines[:most]
        for line in shown:
            self.say(line)
        if len(shown) < len(lines):
            more = len(rest) - len(shown) * per_line
            if diagram_fits(self.game):
                self.say(f"… and {more} more: 'm' lists them all, 'm TEXT' those with TEXT (e.g. m Q)")
            else:
                self.say(f"… and {more} more: 'm' lists them all, 'm TEXT' those whose label has TEXT (e.g. m 3.up)")

    # -- input --
    def parse(self, text: str, turns: Sequence[Turn]) -> tuple[Turn | None, str]:
        """The turn an input names, or None and the reason it names none."""
        s = text.strip()
        items = self.menu(turns)
        by_num = dict(items)
        if s.isdigit():
            if s in by_num:
                return by_num[s], ""
            if self.game.tile_claims and s in self.pos.board.tile_index:
                _, why = apply_turn(self.game, self.pos, s)
                return None, why
            nums = [n for n, _ in items]
            span = f"{nums[0]}–{nums[-1]}" if len(nums) > 1 else nums[0] if nums else "none"
            return None, f"there is no turn {s} (choose from {span}" + (", or type moves)" if nums else ")")
        m = re.fullmatch(r"(\d+)\s*[, ]\s*(\d+)", s)
        if m:
            rc = (int(m.group(1)), int(m.group(2)))
            tiles = rowcol_tiles(self.pos.board)
            if rc not in tiles:
                rows = max((r for r, _ in tiles), default=0)
                cols = max((c for _, c in tiles), default=0)
                return None, f"no tile at row {rc[0]}, column {rc[1]} (the board is drawn {rows} rows by {cols} columns)"
            return self._by_tile(tiles[rc], turns)
        if s.startswith("#"):
            tid = s[1:].strip()
            idx = self.pos.board.tile_index.get(tid)
            if idx is None:
                return None, f"{tid!r} is not a tile of the board"
            return self._by_tile(idx, turns)
        for t in turns:
            if t.label == s or t.label.lower() == s.lower():
                return t, ""
        turn, why = apply_turn(self.game, self.pos, s)  # other spellings the game reads (SAN, TAPE text)
        if turn is not None:
            return turn, ""
        return None, why or f"{s!r} is not a turn here"

    def _by_tile(self, tile: int, turns: Sequence[Turn]) -> tuple[Turn | None, str]:
        tid = self.pos.board.tiles[tile]
        if self.game.tile_claims:
            t, why = apply_turn(self.game, self.pos, tid)
            return t, why
        hits = [t for t in turns if t.result.states[tile] != self.pos.states[tile]]
        if len(hits) == 1:
            return hits[0], ""
        if not hits:
            return None, f"no legal turn changes tile {tid}"
        nums = [n for n, t in self.menu(turns) if t in hits]
        return None, f"several turns change tile {tid}: choose one by number ({', '.join(nums)})"

    def read(self, prompt: str) -> str | None:
        """One input line (None at the end of the input)."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            return None
        return line.rstrip("\n")

    # -- actions --
    def play(self, turn: Turn, who: int, said: str | None = None) -> None:
        """Make a turn; ``said`` is how it is echoed (the spelling the player typed; by default the game's
        notation: SAN in chess)."""
        if said is None:
            said = self.turn_names([turn])[turn.label] if diagram_fits(self.game) else turn.label
        self.history.append(turn.result)
        self.labels.append(turn.label)
        verb = "claims tile" if self.game.tile_claims else "plays"
        self.note = (self.note + "\n" if self.note else "") + f"{self.seat_name(who)} {verb} {said}"
        if self.draw_offer is not None and self.draw_offer != who:
            self.note += " (the draw offer is declined)"
            self.draw_offer = None
        self.save_now()

    def save_now(self) -> None:
        """Write the game so far to the autosave file (atomically: the old record stays whole until the new one is
        in place), and as PGN to ``pgn_out``; a failure is said once and play goes on."""
        if self.pgn_out is not None:
            try:
                self.write_pgn(self.pgn_out)
            except (TapologyError, OSError) as exc:
                if self.autosave_error is None:
                    self.autosave_error = str(exc)
                    self.say(f"cannot write the PGN: {exc}")
        if self.autosave is None:
            return
        try:
            rec = self.record()
            if self.ending is None:
                rec.result = self.game.outcome(self.pos)  # the record carries the result once the rules end the game
            rec.save(self.autosave)
        except (TapologyError, OSError) as exc:
            if self.autosave_error is None:
                self.autosave_error = str(exc)
                self.say(f"cannot autosave: {exc}")

    def undo(self) -> str:
        """Take back turns to this human's previous turn; the message to show."""
        if len(self.history) == 1:
            return "nothing to undo"
        me = self.pos.to_move
        taken = []
        while len(self.history) > 1:
            self.history.pop()
            taken.append(self.labels.pop())
            if self.pos.to_move == me or self.seats[self.pos.to_move] is None:
                break
        self.result = None
        self.ending = None
        self.draw_offer = None
        return "took back " + ", ".join(reversed(taken))

    def record(self) -> GameRecord:
        """The game so far as a record."""
        players = {p: ("ai" if s is not None else "human") for p, s in zip(self.game.players, self.seats, strict=True)}
        return GameRecord(self.game_name, self.board_name, list(self.labels), players, self.result,
                          position_json(self.game, self.pos, self.start.board), self.ending)

    def load(self, path: str) -> str:
        """Replace the game by a saved one (same game and board)."""
        rec = GameRecord.load(path)
        if (self.game_name and rec.game != self.game_name) or (self.board_name and rec.board != self.board_name):
            raise RecordError(f"{path}: a record of {rec.game} on {rec.board}, not {self.game_name} on {self.board_name}")
        self.history = replay(self.game, rec.turns, path)
        self.labels = list(rec.turns)
        self.draw_offer = None
        self.ending, self.result = (rec.end, dict(rec.result)) if rec.end is not None and rec.result else (None, None)
        return f"loaded {path}: {len(self.labels)} turns"

    def finished(self) -> bool:
        """Is the game over (by the rules, a resignation or agreement, or by early draw detection)?"""
        if self.ending is not None:
            return True
        out = self.game.outcome(self.pos)
        if out is not None:
            self.result = out
            return True
        if self.early_draw and self.game.drawn_early(self.pos):
            self.result = {p: 0 for p in self.game.players}
            self.note = (self.note + "\n" if self.note else "") + "no line can still be completed: the game is drawn"
            return True
        return False

    def announce(self) -> None:
        """Say how the game ended."""
        assert self.result is not None
        winners = [p for p, v in self.result.items() if v > 0]
        if self.ending is not None:
            text = self.ending + (f": {winners[0]} wins" if winners else ": the game is a draw")
        elif (cg := chess_game(self.game)) is not None:
            text = chess_end(cg, self.pos, self.result)
        elif winners:
            text = f"{winners[0]} wins"
            detail = self.game.win_detail(self.pos, winners[0])
            if detail:
                text += " with " + detail
        else:
            text = "the game is a draw"
        n = len(self.labels)
        if chess_game(self.game) is not None:  # counted as chess players count: a move is White's ply and Black's
            moves = (self.start.ply + n - 1) // 2 - self.start.ply // 2 + 1 if n else 0
            self.say(f"game over after {moves} move{'s' if moves != 1 else ''} ({n} pl{'ies' if n != 1 else 'y'}): {text}")
        else:
            self.say(f"game over after {n} turns: {text}")

    def claims(self) -> list[Claim]:
        """What the player to move may claim now (rule games with ``claim`` end rules)."""
        return self.game.claims(self.pos) if isinstance(self.game, RuleGame) else []

    def claim(self, what: str) -> str:
        """Make a claim (the first one offered, or the one whose name starts with ``what``); the message to show."""
        offered = self.claims()
        if not offered:
            return "nothing to claim here"
        got = [c for c in offered if c.name.lower().startswith(what.lower())] if what else offered[:1]
        if not got:
            return f"no claim {what!r} here (you may claim: {', '.join(c.name for c in offered)})"
        me = self.game.players[self.pos.to_move]
        self.ending = f"{got[0].name} claimed by {me}"
        self.result = dict(got[0].score)
        self.save_now()
        return f"{self.seat_name(self.pos.to_move)} claims the {got[0].name}"

    def run(self) -> dict[str, Any]:
        """Play to the end (or until the input ends or a player quits); the result as JSON."""
        g = self.game
        self.say(f"{self.game_name} on {self.board_name or 'the board'}: "
                 + " vs ".join(self.seat_name(p) for p in range(len(g.players))))
        if g.intro():
            self.say(f"{g.intro()}; type help for commands")
        quit_ = False
        all_ai = all(s is not None for s in self.seats)
        while True:
            if self.finished():
                self.show()
                self.announce()
                break
            pos = self.pos
            turns = g.turns(pos)
            who = pos.to_move
            agent = self.seats[who]
            if agent is not None:
                if all_ai:
                    self.show()
                with self.thinking(self.seat_name(who)) if self.thinking else nullcontext():
                    choice = agent.choose(pos, turns)
                self.play(turns[choice], who)
                continue
            self.show()
            self.show_moves(turns)
            offered = self.claims()
            if offered:
                self.say("you may claim: " + ", ".join(c.name for c in offered) + " (type claim)")
            while True:
                line = self.read(f"{self.seat_name(who)} to move> ")
                if line is None:
                    quit_ = True
                    break
                cmd = line.strip()
                word = cmd.split(maxsplit=1)[0].lower() if cmd else ""
                if not cmd:
                    continue
                if word in ("q", "quit", "exit"):
                    quit_ = True
                    break
                if word in ("h", "help", "?"):
                    self.say(_HELP)
                    continue
                if word in TABLE_WORDS:
                    if self.table_command(word, cmd, who):
                        break
                    continue
                if word in ("m", "moves"):
                    rest = cmd.split(maxsplit=1)
                    self.show_moves(turns, full=True, only=rest[1].strip() if len(rest) > 1 else "")
                    continue
                if word in ("b", "board"):
                    if cmd.lower().split()[1:] == ["full"]:  # the seed-style drawing, tapings listed
                        self.say(draw_position(g, self.pos, start=self.start.board, played=[
                            lab[5:] for lab in self.labels if lab.startswith("tape ")]))
                        continue
                    self.show()
                    continue
                if word in ("u", "undo"):
                    self.note = self.undo()
                    self.save_now()
                    break
                if word in ("save", "load"):
                    arg = cmd.split(maxsplit=1)[1].strip() if len(cmd.split(maxsplit=1)) > 1 else ""
                    if not arg:
                        self.say(f"{word} needs a file name")
                        continue
                    try:
                        if word == "save":
                            self.record().save(arg)
                            self.say(f"saved {arg}")
                            continue
                        self.note = self.load(arg)
                        self.save_now()
                        break
                    except (TapologyError, OSError) as exc:
                        self.say(f"cannot {word}: {exc}")
                        continue
                turn, why = self.parse(cmd, turns)
                if turn is None:
                    self.say(f"illegal: {why}")
                    continue
                self.play(turn, who, self.echo(cmd, turn))
                break
            if quit_:
                where = f"; the game is saved in {self.autosave} (--resume {self.autosave} continues it)" \
                    if self.autosave and self.autosave_error is None else ""
                if where and self.pgn_out:
                    where += f"\nthe game as PGN: {self.pgn_out}"
                self.say(f"stopped after {len(self.labels)} turns{where}")
                break
        out: dict[str, Any] = {"turns": list(self.labels), "result": self.result, "finished": not quit_,
               "final": position_json(g, self.pos, self.start.board)}
        if self.ending is not None:
            out["end"] = self.ending
        return out
