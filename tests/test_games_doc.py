"""docs/games.md's tables hold what the engine counts: perft 1-3 of every game on every board it lists, and the
boards each game refuses with the reason it gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tapology.errors import GameError
from tapology.games import SHIPPED, open_game
from tapology.games.registry import shipped_name

DOC = Path(__file__).resolve().parent.parent / "docs" / "games.md"
SLOW_LEAVES = 100_000  # a row whose perft 3 is bigger runs depth 3 with -m slow only
HEAVY = {"torus:12x8", "klein:12x8",  # chess's closed boards take seconds to open: -m slow (test_chess_surfaces
         "cylinder:12x16", "mobius:12x16"}  # covers chess there in the default run); double chess's plane row stays


def _table(heading: str) -> list[list[str]]:
    text = DOC.read_text()
    part = text[text.index(heading):]
    rows = []
    for line in part.splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:]  # the header row


PERFT = _table("## Perft on every board")
REFUSED = _table("### Boards a game is refused on")


def _cases() -> list:
    out = []
    for game, board, *counts in PERFT:
        nodes = [int(c.replace(",", "")) for c in counts if c != "—"]  # "—": a count too big to list (amazons' 3)
        if len(nodes) < 3:  # perft 2 in the millions (amazons on 10x10): depth 1 in the default run
            out.append(pytest.param(game, board, nodes, 1, id=f"{game}-{board}"))
            out.append(pytest.param(game, board, nodes, 2, id=f"{game}-{board}-2", marks=pytest.mark.slow))
            continue
        if board in HEAVY:
            out.append(pytest.param(game, board, nodes, 3, id=f"{game}-{board}", marks=pytest.mark.slow))
            continue
        slow = nodes[2] > SLOW_LEAVES or game == "tictactopology"  # tape turns are counted over positions
        out.append(pytest.param(game, board, nodes, 2 if slow else 3, id=f"{game}-{board}"))
        if slow:
            out.append(pytest.param(game, board, nodes, 3, id=f"{game}-{board}-3", marks=pytest.mark.slow))
    return out


@pytest.mark.parametrize(("game", "board", "nodes", "depth"), _cases())
def test_perft_table_matches_the_engine(game: str, board: str, nodes: list[int], depth: int) -> None:
    g = open_game(game, None if board == g_default(game) else board)
    pos = g.initial()
    assert [g.perft(pos, d) for d in range(1, depth + 1)] == nodes[:depth]


def g_default(game: str) -> str:
    """The name the table gives a game's own board when it is a board file (Chinese checkers' star)."""
    return "star" if game == "chinese-checkers" else ""


@pytest.mark.parametrize(("game", "board", "why"), [pytest.param(*r, id=f"{r[0]}-{r[1]}") for r in REFUSED])
def test_refused_boards_say_why(game: str, board: str, why: str) -> None:
    with pytest.raises(GameError, match=re.escape(why)):
        open_game(game, board)


def test_every_shipped_game_is_in_the_table() -> None:
    assert {shipped_name(re.sub(r":\d+x\d+$", "", r[0])) for r in PERFT} == set(SHIPPED)
