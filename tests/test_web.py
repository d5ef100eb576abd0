"""``tapology serve``'s API without a browser: bad input gets a clear refusal and the server goes on, no request
reaches a server path it was not given, games survive a restart in ``play``'s record format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from tapology.play.playing.session import GameRecord
from tapology.web.app import create_app
from tapology.web.rooms import Rooms
from tapology.web.workshop import Workshop

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "data"))


def err(r: Any) -> str:
    assert r.status_code >= 400, r.text
    return r.json()["error"]


def test_workshop_tapes_a_torus_with_undo_and_redo() -> None:
    w = Workshop.open("plane:3x3")
    got = w.tape(2, RIGHT, 0, LEFT, False, 0)
    assert got["classification"]["surface"] == "annulus"
    assert got["changed"] == [0, 2, 3, 5, 6, 8]  # 3.right=1.left propagates to rows 2 and 3
    got = w.tape(0, UP, 6, DOWN, False, 1)
    assert got["classification"]["surface"] == "torus" and got["tapings"] == ["3.right=1.left", "1.up=7.down"]
    assert w.undo(2)["classification"]["surface"] == "annulus"
    assert w.redo(3)["classification"]["surface"] == "torus"
    assert "[[tape]]" in w.toml() or "tape" in w.toml()
    chart = w.chart(0)
    assert len(chart["cells"]) == 9 and {c[2] for c in chart["cells"]} == set(range(9))  # a torus: all nine around 1
    cover = w.cover(4, 2)
    assert len(cover["cells"]) == 25 and cover["edges"] == []


def test_refusal_carries_the_minimal_tapings() -> None:
    w = Workshop.open("plane:3x3")
    got = w.tape(0, UP, 1, UP, True, 0)
    ref = got["refused"]
    assert ref["taping"] == "1.up=2.up~"
    assert ref["minimal"] == ["1.right=2.left", "2.right=3.left", "1.up=2.up~"]
    assert got["version"] == 0 and got["classification"]["surface"] == "disk"


def test_bad_requests_are_refused_and_the_server_goes_on(client: TestClient) -> None:
    assert "give a built-in board" in err(client.post("/api/workshop", json={"board": "/etc/passwd"}))
    assert "give a built-in board" in err(client.post("/api/workshop", json={"board": "../../x.toml"}))
    assert "not valid TOML" in err(client.post("/api/workshop", json={"text": "[board\n"}))
    assert "limit tiles" in err(client.post("/api/workshop", json={"board": "torus:5000x5000"}))
    assert "not JSON" in err(client.post("/api/workshop", content=b"{nope", headers={"content-type": "application/json"}))
    assert "nest" in err(client.post("/api/workshop", content=b"[" * 100 + b"]" * 100))
    big = client.post("/api/workshop", content=b"x", headers={"content-length": str(10**9)})
    assert big.status_code == 400
    w = client.post("/api/workshop", json={"board": "plane:3x3"}).json()
    assert "not a side of this board" in err(client.post(f"/api/workshop/{w['id']}/tape",
                                                         json={"tile": 99, "side": 0, "other": 0, "other_side": 0,
                                                               "version": 0}))
    assert "expected a whole number" in err(client.post(f"/api/workshop/{w['id']}/tape", json={"tile": "x"}))
    stale = client.post(f"/api/workshop/{w['id']}/undo", json={"version": 7})
    assert stale.status_code == 409 and "stale" in stale.json()["error"]
    assert client.get(f"/api/workshop/{w['id']}").json()["version"] == 0  # what the page shows instead
    assert "is gone" in err(client.post("/api/workshop/forged/undo", json={}))
    assert "radius" in err(client.get(f"/api/workshop/{w['id']}/cover?tile=0&radius=999"))
    assert client.post("/api/workshop", json={"board": "torus:3x3"}).status_code == 200


def test_games_refuse_forged_and_stale_moves(client: TestClient) -> None:
    g = client.post("/api/game", json={"game": "tictactoe", "board": "torus:3x3", "seats": ["human", "human"],
                                       "two_tabs": True}).json()
    code, tok = g["code"], g["token"]
    assert g["you"] == [0]
    seat = {"X-Seat": tok}
    assert client.post(f"/api/game/{code}/move", json={"label": "5", "ply": 0}, headers=seat).status_code == 200
    assert "stale" in err(client.post(f"/api/game/{code}/move", json={"label": "1", "ply": 0}, headers=seat))
    assert "not your turn" in err(client.post(f"/api/game/{code}/move", json={"label": "1", "ply": 1}, headers=seat))
    joined = client.post(f"/api/game/{code}/join", json={}).json()
    assert joined["you"] == [1]
    o = {"X-Seat": joined["token"]}
    assert "not a legal turn" in err(client.post(f"/api/game/{code}/move", json={"label": "5", "ply": 1}, headers=o))
    assert client.post(f"/api/game/{code}/join", json={}).json()["token"] is None  # the seats are taken: watch
    assert "six letters" in err(client.get("/api/game/..etc"))
    assert client.get("/api/game/..%2F..%2Fetc").status_code == 404
    assert client.get("/api/game/ZZZZZZ").status_code == 404
    assert "give a shipped game" in err(client.post("/api/game", json={"game": "/etc/passwd", "seats": ["human", "human"]}))
    assert "computer player" in err(client.post("/api/game", json={"game": "chess", "seats": ["human", "mcts:x"]}))
    assert "limit" in err(client.post("/api/game", json={"game": "chess", "seats": ["human", "alphabeta:99999999"]}))
    assert "not an uploaded" in err(client.post("/api/game", json={"game": "upload:../../etc", "seats": ["human", "human"]}))


def test_games_survive_a_restart_in_plays_record_format(tmp_path: Path) -> None:
    data = tmp_path / "data"
    c1 = TestClient(create_app(data))
    g = c1.post("/api/game", json={"game": "chess", "board": "plane:8x8", "seats": ["human", "human"]}).json()
    code, seat = g["code"], {"X-Seat": g["token"]}
    for ply, mv in enumerate(("f2f3", "e7e5", "g2g4", "d8h4")):
        assert c1.post(f"/api/game/{code}/move", json={"label": mv, "ply": ply}, headers=seat).status_code == 200
    saved = GameRecord.load(data / "games" / f"{code}.json")  # what play --resume reads
    assert saved.turns == ["f2f3", "e7e5", "g2g4", "d8h4"] and saved.result == {"white": -1, "black": 1}
    c2 = TestClient(create_app(data))  # a new server on the same folder
    again = c2.get(f"/api/game/{code}", headers=seat).json()
    assert again["result"] == "checkmate: black wins" and again["sans"] == ["f3", "e5", "g4", "Qh4#"]
    assert again["you"] == [0, 1]
    pgn = c2.get(f"/api/game/{code}/game.pgn").text
    assert "1. f3 e5 2. g4 Qh4# 0-1" in pgn and '[Result "0-1"]' in pgn
    record = c2.get(f"/api/game/{code}/record.json").json()
    loaded = c2.post("/api/game/load", json={"text": json.dumps(record)}).json()
    assert loaded["ply"] == 4 and loaded["code"] != code
    record["board"] = "/etc/passwd"
    assert "give a built-in board" in err(c2.post("/api/game/load", json={"text": json.dumps(record)}))
    assert "not a game record" in err(c2.post("/api/game/load", json={"text": "{}"}))


def test_uploads_are_kept_by_hash_and_played(client: TestClient) -> None:
    board = Path("examples/boards/strip7.toml").read_text()
    up = client.post("/api/upload", json={"kind": "board", "text": board}).json()
    assert up["name"].startswith("upload:") and up["name"].endswith(".board")
    w = client.post("/api/workshop", json={"text": board, "name": "strip7.toml"}).json()
    assert len(w["tiles"]) == 7
    g = client.post("/api/game", json={"game": "tictactoe:3", "board": up["name"], "seats": ["human", "human"]})
    assert g.status_code == 200, g.text
    assert g.json()["board"] == up["name"]
    assert "not valid TOML" in err(client.post("/api/upload", json={"kind": "board", "text": "[x"}))
    assert "board or rules" in err(client.post("/api/upload", json={"kind": "passwd", "text": ""}))
    shipped = "tapology/games/data/arimaa-fixed-position.toml"  # an uploaded rule set reads no file of the server's
    assert "only a rule file on disk" in err(client.post("/api/upload", json={"kind": "rules", "text": f'extends = "{shipped}"'}))


def test_computer_player_answers(tmp_path: Path) -> None:
    rooms = Rooms(tmp_path)
    room, tok = rooms.create("tictactoe", "torus:3x3", ["human", "alphabeta:3"])
    room.play("5", 0, tok)
    assert room.computer_turn() and len(room.labels) == 2 and room.pos.to_move == 0


def test_click_targets_name_each_turns_tiles(tmp_path: Path) -> None:
    rooms = Rooms(tmp_path)
    room, _tok = rooms.create("chess", "plane:8x8", ["human", "human"])
    moves = room.moves()
    assert len(moves) == 20
    sq = room.state()["squares"]
    assert {(sq[m["from"]], sq[m["to"]]) for m in moves} == {(m["label"][:2], m["label"][2:4]) for m in moves}


def test_tape_turns_are_clicked_as_two_sides(client: TestClient) -> None:
    g = client.post("/api/game", json={"game": "tictactopology", "seats": ["human", "human"]}).json()
    tapes = [m for m in g["moves"] if m.get("tape")]
    assert tapes and all(len(m["tape"]) == 5 for m in tapes)
    t = tapes[1]["tape"]
    got = client.post(f"/api/game/{g['code']}/tape", json={"tile": t[0], "side": t[1], "other": t[2], "other_side": t[3],
                                                          "flip": bool(t[4]), "ply": 0}, headers={"X-Seat": g["token"]})
    assert got.status_code == 200 and got.json()["sans"] == [tapes[1]["label"]] and got.json()["glue"]
    cover = client.get(f"/api/game/{g['code']}/cover?tile=4&radius=3").json()
    assert len(cover["cells"]) > 9  # the taped board unfolds past its own nine tiles


def test_big_boards_send_the_tiles_in_view_only(client: TestClient) -> None:
    w = client.post("/api/workshop", json={"board": "torus:60x60"}).json()
    assert w["n_tiles"] == 3600 and w["tiles"] == [] and "net" not in w
    assert w["classification"]["surface"] == "torus"
    cover = client.get(f"/api/workshop/{w['id']}/cover?tile=0&radius=3").json()
    assert len(cover["cells"]) == 49 and len(cover["tile_info"]) == 49
    walk = client.post(f"/api/workshop/{w['id']}/walk", json={"start": "61", "step": "up"}).json()
    assert walk["walker"]["id"] == "1" and not walk["walker"]["mirrored"]
    assert "unknown tile" in err(client.post(f"/api/workshop/{w['id']}/walk", json={"start": "99999"}))


def test_undo_far_back_closes_the_board_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import tapology.web.workshop as workshop

    monkeypatch.setattr(workshop, "KEEP", 1)  # keep the last atlas only
    w = Workshop.open("plane:3x3")
    w.tape(2, RIGHT, 0, LEFT, False, 0)
    w.tape(0, UP, 6, DOWN, False, 1)
    assert w.atlases[0] is None and w.atlases[1] is None
    assert w.undo(2)["classification"]["surface"] == "annulus"
    assert w.undo(3)["classification"]["surface"] == "disk"
    assert len(w.cover(4, 1)["cells"]) == 9 and w.atlases[0] is not None  # closed again from the board
    assert w.tape(0, UP, 1, UP, True, 4)["refused"]["taping"] == "1.up=2.up~"


def test_download_toml_and_uploaded_rules(client: TestClient) -> None:
    w = client.post("/api/workshop", json={"board": "plane:3x3"}).json()
    client.post(f"/api/workshop/{w['id']}/tape", json={"tile": 2, "side": RIGHT, "other": 0, "other_side": LEFT,
                                                       "version": 0})
    toml = client.get(f"/api/workshop/{w['id']}/board.toml").text
    again = client.post("/api/workshop", json={"text": toml, "name": "board.toml"}).json()
    assert again["classification"]["surface"] == "annulus"  # the download opens as the board it was
    rules = Path("tapology/games/data/tictactoe.toml").read_text()
    up = client.post("/api/upload", json={"kind": "rules", "text": rules}).json()
    g = client.post("/api/game", json={"game": up["name"], "board": "klein:3x3", "seats": ["human", "random"]})
    assert g.status_code == 200, g.text
    assert g.json()["game"] == up["name"] and len(g.json()["moves"]) == 9
    assert "not valid TOML" in err(client.post("/api/upload", json={"kind": "rules", "text": "name = "}))


def test_computers_play_each_other_to_the_end(tmp_path: Path) -> None:
    import time

    with TestClient(create_app(tmp_path)) as c:
        g = c.post("/api/game", json={"game": "tictactoe", "board": "torus:3x3", "seats": ["random", "alphabeta:2"]}).json()
        assert g["token"] is None  # no human seat: the page watches
        deadline = time.monotonic() + 60
        state = g
        while state["result"] is None and time.monotonic() < deadline:
            time.sleep(0.1)
            state = c.get(f"/api/game/{g['code']}").json()
        assert state["result"] is not None and state["ply"] >= 5
        assert GameRecord.load(tmp_path / "games" / f"{g['code']}.json").turns == state["sans"]


def test_undo_takes_back_the_pages_last_turn(tmp_path: Path) -> None:
    rooms = Rooms(tmp_path)
    hot, tok = rooms.create("tictactoe", "plane:3x3", ["human", "human"])  # one page plays both sides
    hot.play("5", 0, tok)
    hot.play("1", 1, tok)
    hot.undo(tok)
    assert hot.labels == ["5"]
    vs, tok = rooms.create("tictactoe", "plane:3x3", ["human", "random"])
    vs.play("5", 0, tok)
    vs.computer_turn()
    vs.undo(tok)
    assert vs.labels == []
