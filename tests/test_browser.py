"""``tapology serve`` in a real browser: Debian's chromium driven by playwright clicks the page as a person would.

One server and one browser for the module.  In CI (``CI`` set) a missing chromium or playwright fails the tests;
elsewhere they skip.  With ``TAPOLOGY_SCREENSHOTS=docs/browser`` the screenshots of docs/browser.md are written.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import SHOTS_ENV, browser, missing, serving

WHY = missing()
if WHY is not None:
    if os.environ.get("CI"):
        raise RuntimeError(f"the browser tests must run in CI: {WHY}")
    pytest.skip(WHY, allow_module_level=True)

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("serve")) as u:
        yield u


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as b:
        yield b


@pytest.fixture
def page(chromium: Any, url: str) -> Iterator[Any]:
    ctx = chromium.new_context(viewport={"width": 1280, "height": 860})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    ctx.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    """Save a screenshot for docs/browser.md when asked to."""
    folder = os.environ.get(SHOTS_ENV)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def click_side(page: Any, tile: int, side: int) -> None:
    page.click(f"#net .side[data-t='{tile}'][data-s='{side}']")


def open_board(page: Any, name: str) -> None:
    page.fill("#ws-board", name)
    page.click("#ws-open")
    page.wait_for_function(f"document.getElementById('msg').textContent.startsWith('opened {name}')")


def test_tape_plane_into_torus_by_clicks(page: Any) -> None:
    open_board(page, "plane:3x3")
    assert page.inner_text("#surface") == "disk"
    click_side(page, 2, RIGHT)  # 3.right
    click_side(page, 0, LEFT)  # 1.left: a cylinder (the taping propagates to 6.right=4.left, 9.right=7.left)
    page.wait_for_function("document.getElementById('surface').textContent === 'annulus'")
    # the chart of tile 1 now holds tiles 3 and 6 on its left (the cells that changed flash)
    page.wait_for_function("document.querySelectorAll('#ws-chart g.cell.flash').length === 2")
    click_side(page, 0, UP)  # 1.up
    click_side(page, 6, DOWN)  # 7.down
    page.wait_for_function("document.getElementById('surface').textContent === 'torus'")
    assert "χ = 0" in page.inner_text("#classification")
    assert page.locator("#tapings li").count() == 2
    page.fill("#ws-radius", "4")
    page.press("#ws-radius", "Enter")
    page.wait_for_function("document.querySelectorAll('#ws-cover g.cell').length === 81")
    page.click("#ws-cover g.cell[data-k='0']")  # the centre tile: its copies light up together
    assert page.locator("#ws-cover g.cell.same").count() == 9
    shot(page, "workshop-torus")
    page.click("#ws-undo")
    page.wait_for_function("document.getElementById('surface').textContent === 'annulus'")
    page.click("#ws-redo")
    page.wait_for_function("document.getElementById('surface').textContent === 'torus'")


def test_refused_taping_shows_its_explanation(page: Any) -> None:
    open_board(page, "plane:3x3")
    page.check("#ws-flip")
    click_side(page, 0, UP)  # 1.up
    click_side(page, 1, UP)  # 2.up, flipped: tile 2 would meet itself turned
    page.wait_for_selector("#refusal:not([hidden])")
    text = page.inner_text("#refusal")
    assert "refused: 1.up=2.up~" in text
    assert "minimal set of tapings that cannot hold together: 1.right=2.left, 2.right=3.left, 1.up=2.up~" in text
    assert "would hold both" in text
    assert page.locator("#net g.cell.bad").count() >= 1
    assert page.inner_text("#surface") == "disk"  # nothing changed
    shot(page, "workshop-refused")


def new_game(page: Any, game: str, board: str, x: str = "human", o: str = "human") -> None:
    page.click("#tab-play")
    page.fill("#pl-game", game)
    page.fill("#pl-board", board)
    page.fill("#pl-x", x)
    page.fill("#pl-o", o)
    page.click("#pl-new")
    page.wait_for_selector("#game-code", timeout=60_000)


def click_tile(page: Any, tile: int, ply: int) -> None:
    page.click(f"#pl-cover g.cell[data-t='{tile}']")
    page.wait_for_selector(f"#pl-status[data-ply='{ply}']")


def test_fools_mate_by_clicks(page: Any) -> None:
    new_game(page, "chess", "plane:8x8")
    sq = page.evaluate("P.state.squares")
    ply = 0
    for a, b in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        page.click(f"#pl-cover g.cell[data-t='{sq.index(a)}']")
        assert page.locator("#pl-cover g.cell.target").count() >= 1  # legal targets highlighted
        ply += 1
        click_tile(page, sq.index(b), ply)
    assert page.inner_text("#result") == "checkmate: black wins"
    assert page.inner_text("#pl-moves") .split() == ["f3", "e5", "g4", "Qh4#"]
    assert page.locator("#pl-cover g.cell.check").count() == 1
    shot(page, "play-fools-mate")
    pgn = page.evaluate("fetch(`/api/game/${P.code}/game.pgn`).then(r => r.text())")
    assert "1. f3 e5 2. g4 Qh4# 0-1" in pgn


def test_a_late_refresh_keeps_the_piece_picked(page: Any) -> None:
    """The game's socket may announce a move after the move's own answer was shown: the refresh it starts finds the
    game as shown and leaves the piece the player has picked since (under load, a refresh that redrew the pieces
    dropped it, and the next click moved nothing)."""
    new_game(page, "chess", "plane:8x8")
    sq = page.evaluate("P.state.squares")
    click_tile(page, sq.index("e2"), 0)  # picks the pawn: nothing played yet
    assert page.locator("#pl-cover g.cell.sel").count() >= 1
    page.evaluate("plRefresh()")  # awaited: the refresh has answered before the next click
    click_tile(page, sq.index("e4"), 1)
    assert page.inner_text("#pl-moves").split() == ["e4"]


def test_illegal_click_says_why(page: Any) -> None:
    new_game(page, "chess", "plane:8x8")
    sq = page.evaluate("P.state.squares")
    page.click(f"#pl-cover g.cell[data-t='{sq.index('e2')}']")
    page.click(f"#pl-cover g.cell[data-t='{sq.index('e5')}']")
    assert "no legal move of the piece on e2 to e5" in page.inner_text("#msg")
    assert page.get_attribute("#pl-status", "data-ply") == "0"


def test_x_wins_tictactoe_across_the_torus_seam(page: Any) -> None:
    new_game(page, "tictactoe", "torus:3x3")
    # X: 2, 6, 7 (a diagonal that wraps round the torus); O: 1, 3
    for ply, tid in enumerate(("2", "1", "6", "3", "7"), start=1):
        click_tile(page, int(tid) - 1, ply)
    assert page.inner_text("#result") == "X wins"
    assert page.locator("#pl-cover line.winline").count() == 1
    # the line is drawn through three consecutive copies of the tiles, not within one copy of the board
    ends = page.evaluate("(() => { const l = document.querySelector('line.winline');"
                         " return ['x1', 'y1', 'x2', 'y2'].map((a) => +l.getAttribute(a)); })()")
    s = 48.0
    assert abs(abs(ends[2] - ends[0]) - 2 * s) < 1 and abs(abs(ends[3] - ends[1]) - 2 * s) < 1
    assert page.locator("#pl-cover g.cell.win").count() >= 9
    shot(page, "play-tictactoe-torus")


def test_walker_across_the_klein_seam_comes_back_mirrored(page: Any) -> None:
    page.click("#tab-walker")
    page.fill("#wk-board", "klein:3x3")
    page.fill("#wk-tile", "5")
    page.click("#wk-start")
    page.wait_for_selector("#wk-status[data-tile='5']")
    assert "mirrored" not in page.inner_text("#wk-status")
    page.click("#wk-view")
    for _ in range(3):
        before = page.inner_text("#wk-status")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"document.getElementById('wk-status').textContent !== {before!r}")
    status = page.inner_text("#wk-status")
    assert status.startswith("on tile 5, frame 6 (mirrored)"), status
    assert page.locator("#wk-view g.cell").count() > 9
    shot(page, "walker-klein")


def test_two_tabs_join_by_code(chromium: Any, url: str) -> None:
    ctx = chromium.new_context(viewport={"width": 1280, "height": 860})
    a, b = ctx.new_page(), ctx.new_page()
    for pg in (a, b):
        pg.goto(url)
        pg.wait_for_selector("body[data-ready='1']")
    # a person switches to a tab before clicking in it (a background tab's frames are throttled: clicked unseen,
    # each click waited seconds for the page to settle); the other tab hears each turn while in the background
    front(a).check("#pl-two") if a.is_visible("#pl-two") else None
    new_game_two(front(a))
    code = a.inner_text("#game-code")
    front(b).click("#tab-play")
    b.fill("#pl-code", code)
    b.click("#pl-join")
    b.wait_for_selector("#game-code")
    assert "you play O" in b.inner_text("#pl-status")
    front(a).click("#pl-cover g.cell[data-t='4']")  # X claims the centre in tab a
    b.wait_for_selector("#pl-status[data-ply='1']")  # tab b hears it over the websocket
    front(b).click("#pl-cover g.cell[data-t='0']")
    a.wait_for_selector("#pl-status[data-ply='2']")
    front(a).click("#pl-cover g.cell[data-t='1']")
    # each tab clicks only once it has heard the last turn: a click before that is refused as not its turn
    b.wait_for_selector("#pl-status[data-ply='3']")
    front(b).click("#pl-cover g.cell[data-t='2']")  # O to move
    a.wait_for_selector("#pl-status[data-ply='4']")
    front(a).click("#pl-cover g.cell[data-t='3']")
    a.wait_for_selector("#pl-status[data-ply='5']")
    a.click("#pl-cover g.cell[data-t='8']")  # O to move: tab a does not hold O
    a.wait_for_function("document.getElementById('msg').textContent.includes('not your turn')")
    ctx.close()


def front(page: Any) -> Any:
    """The page, its tab brought to the front."""
    page.bring_to_front()
    return page


def new_game_two(page: Any) -> None:
    page.click("#tab-play")
    page.fill("#pl-game", "tictactoe")
    page.fill("#pl-board", "plane:3x3")
    page.fill("#pl-x", "human")
    page.fill("#pl-o", "human")
    page.check("#pl-two")
    page.click("#pl-new")
    page.wait_for_selector("#game-code")
    assert "you play X" in page.inner_text("#pl-status")


def test_bad_input_gets_a_message_in_the_page(page: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\ngrid = 'square'\n")
    page.set_input_files("#ws-upload", str(bad))
    page.wait_for_function("document.getElementById('msg').className === 'error'")
    assert "not valid TOML" in page.inner_text("#msg")
    page.fill("#ws-board", "torus:5000x5000")
    page.click("#ws-open")
    page.wait_for_function("document.getElementById('msg').textContent.includes('limit tiles')")
    page.fill("#ws-board", "/etc/passwd")
    page.click("#ws-open")
    page.wait_for_function("document.getElementById('msg').textContent.includes('give a built-in board')")
    shot(page, "bad-input")
    open_board(page, "plane:3x3")  # the server goes on serving


def test_tape_turn_by_two_side_clicks(page: Any) -> None:
    new_game(page, "tictactopology", "plane:3x3")
    page.locator("#pl-cover .side[data-t='0'][data-s='0']").first.click()  # 1.up
    page.locator("#pl-cover .side[data-t='6'][data-s='2']").first.click()  # 7.down
    if page.is_visible("#promo"):
        page.click("#promo button >> nth=0")
    page.wait_for_selector("#pl-status[data-ply='1']")
    assert "tape 1.up=7.down" in page.inner_text("#pl-moves")
    # the taped board unfolds beyond its nine tiles: tile 1 now has copies above tile 7
    assert page.locator("#pl-cover g.cell[data-t='0']").count() > 1


def test_against_a_computer_player(page: Any) -> None:
    new_game(page, "tictactoe", "plane:3x3", x="human", o="alphabeta:4")
    page.click("#pl-cover g.cell[data-t='4']")
    page.wait_for_selector("#pl-status[data-ply='2']")  # the computer's reply arrives over the websocket
    assert page.inner_text("#pl-moves").split()[0] == "5" and len(page.inner_text("#pl-moves").split()) == 2
    page.click("#pl-undo")  # takes back the reply and the claim
    page.wait_for_selector("#pl-status[data-ply='0']")


def test_promotion_asks_for_the_piece(page: Any) -> None:
    new_game(page, "chess", "plane:8x8")
    sq = page.evaluate("P.state.squares")
    ply = 0
    for a, b in (("h2", "h4"), ("g7", "g5"), ("h4", "g5"), ("g8", "f6"), ("g5", "f6"), ("h7", "h6"), ("f6", "e7"),
                 ("h6", "h5")):
        page.click(f"#pl-cover g.cell[data-t='{sq.index(a)}']")
        ply += 1
        click_tile(page, sq.index(b), ply)
    page.click(f"#pl-cover g.cell[data-t='{sq.index('e7')}']")
    page.click(f"#pl-cover g.cell[data-t='{sq.index('f8')}']")
    page.wait_for_selector("#promo:not([hidden])")
    assert sorted(page.locator("#promo button").all_inner_texts()) == ["B", "N", "Q", "R"]
    page.click("#promo button:text-is('N')")
    page.wait_for_selector("#pl-status[data-ply='9']")
    assert page.inner_text("#pl-moves").split()[-1] == "exf8=N"
