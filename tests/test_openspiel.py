"""The OpenSpiel adapter: every registered game passes OpenSpiel's random-simulation test (with serialization),
action ids are stable and sorted with our labels as their strings, observations are planes per state in tile order,
and OpenSpiel's MinimaxSolver and alpha-beta give the values of ``tapology solve`` on the five 3×3 surfaces.
Skipped when the extra ``tapology[openspiel]`` is not installed."""

from __future__ import annotations

import pytest

from tapology.adapters import openspiel as osp
from tapology.errors import GameError
from tapology.games.registry import load_game, load_rules, open_game
from tapology.play.solving.solve import solve_kinrow

pyspiel = pytest.importorskip("pyspiel")

SURFACES = ["plane:3x3", "cylinder:3x3", "mobius:3x3", "torus:3x3", "klein:3x3"]


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    osp.register()


# games of hundreds of tiles whose random games run to hundreds of turns: the default run plays each on a small
# size of the same rule set and surface, the full size with -m slow
SMALL = {"connect6": 7, "go": 5, "go-nopass": 5, "gomoku-free-style": 9, "gomoku-standard": 9}


# games the adapter refuses, with the reason it gives (test_refused_games_say_why)
REFUSED = {"chinese-checkers-6": "plays two-player games", "paper-soccer": "cannot hold them",
           "arimaa": "cannot hold them", "arimaa-fixed-position": "cannot hold them"}


def _sim_cases(slow: bool) -> list:
    out = []
    for game, board in osp.registry_games():
        if (slow and game != "chess") or game in REFUSED:
            continue
        # double chess: 192 tiles, a minute a game; breakthru: its set-up runs in Python, minutes a game; amazons:
        # thousands of turns a ply, half a minute a board
        heavy = game in ("double-chess", "breakthru", "amazons") or game in SMALL
        heavy = heavy or (game == "pentago" and not board.startswith("plane")) or game == "gess"  # seconds a game
        marks = [pytest.mark.slow] if slow or heavy else []
        out.append(pytest.param(game, board, slow, id=f"{game}-{board}{'-full' if slow else ''}", marks=marks))
        if game in SMALL and not slow:
            n = SMALL[game]
            small = f"{board.partition(':')[0]}:{n}x{n}"
            out.append(pytest.param(f"{game}:{n}x{n}", small, False, id=f"{game}:{n}x{n}-{small}"))
    return out




@pytest.mark.parametrize(("game", "board", "full"), _sim_cases(False) + _sim_cases(True))
def test_openspiel_random_simulation(game: str, board: str, full: bool) -> None:
    # chess has no ply bound of its own; the default run plays it to a bound of 60 plies (scored a draw there), 30 on
    # the 96-tile closed boards (a second a ply: every state is serialised and read back, its turns listed again)
    big = board.endswith(":12x8")
    params = {"max_plies": 30 if big else 60} if game in ("chess", "double-chess") and not full else {}
    g = pyspiel.load_game(osp.game_string(game, board, **params))
    # three random games on the first board a game lists (its usual one, or its small size), one on the others
    usual = board.partition(":")[0] == load_rules(game.partition(":")[0]).boards[0].partition(":")[0]
    sims = 1 if game in ("chess", "chinese-checkers") or not (usual or full) else 3
    pyspiel.random_sim_test(g, num_sims=sims, serialize=True, verbose=False)


def test_every_registry_game_has_a_string() -> None:
    names = {gs for _g, _b, gs in osp.iter_games()}
    assert "tapology(board=torus:8x8,game=checkers)" in names
    assert "tapology(board=mobius:3x3,game=tictactopology)" in names and len(names) == len(osp.registry_games())
    assert osp.game_string("tictactoe:4,4,3") == "tapology(game=tictactoe:4;4;3)"
    g = pyspiel.load_game("tapology(game=tictactoe:4;4;3)")
    assert g.num_distinct_actions() == 16 and g.max_game_length() == 16
    with pytest.raises(GameError):
        osp.game_string("tictactoe", "weird(board)")


def test_actions_labels_and_order() -> None:
    g = osp.load("checkers")
    s = g.new_initial_state()
    assert s.legal_actions() == sorted(s.legal_actions())
    labels = [s.action_to_string(s.current_player(), a) for a in s.legal_actions()]
    want = [t.label for t in open_game("checkers").turns(open_game("checkers").initial())]
    assert sorted(labels) == sorted(want)
    n = 64
    for a, lab in zip(s.legal_actions(), labels, strict=True):
        start, end = (int(x) - 1 for x in lab.split("-"))
        assert a == (start * n + end) * 8  # rank 0 of 8 variants
    # the same turn has the same id in another position
    a0 = s.legal_actions()[0]
    s.apply_action(a0)
    s.apply_action(s.legal_actions()[0])
    assert a0 in s.legal_actions() or s.action_to_string(0, a0) == labels[0]


def test_claims_are_tiles_and_tapes_have_their_block() -> None:
    t = osp.load("tictactoe", "klein:3x3")
    s = t.new_initial_state()
    assert s.legal_actions() == list(range(9)) and s.action_to_string(0, 4) == "5"
    tt = osp.load("tictactopology")
    s = tt.new_initial_state()
    acts = s.legal_actions()
    labs = [s.action_to_string(0, a) for a in acts]
    claims = [a for a, lab in zip(acts, labs, strict=True) if not lab.startswith("tape ")]
    tapes = [a for a, lab in zip(acts, labs, strict=True) if lab.startswith("tape ")]
    assert claims == [(k * 9 + k) for k in range(9)] and min(tapes) >= 81 and len(tapes) == 68
    s.apply_action(tapes[0])
    assert "tapes: " in str(s) and tapes[0] not in s.legal_actions()


def test_chess_promotions_rank_by_piece() -> None:
    game = open_game("chess")
    from tapology.games.chess import position_from_fen

    pos = position_from_fen(game, "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    g = osp.load("chess")
    s = osp.state_at(g, pos)
    by_label = {s.action_to_string(0, a): a for a in s.legal_actions()}
    promos = [by_label[f"a7a8{p}"] for p in "nbrq"]
    assert promos == sorted(promos) and promos[3] - promos[0] == 3
    assert osp.action_of(g, pos, "a7a8q") == promos[3]


def test_observation_planes_in_tile_order() -> None:
    g = osp.load("tictactoe", "torus:3x3")
    s = g.new_initial_state()
    s.apply_action(4)
    s.apply_action(0)
    obs = s.observation_tensor(0)
    assert list(g.observation_tensor_shape()) == [3, 9] and len(obs) == 27
    empty, x, o = obs[0:9], obs[9:18], obs[18:27]
    assert x[4] == 1 and o[0] == 1 and sum(empty) == 7 and sum(x) == 1 and sum(o) == 1
    c = osp.load("checkers")
    cs = c.new_initial_state()
    shape = c.observation_tensor_shape()
    assert list(shape) == [5 + 8 + 1, 64]  # 5 states, 8 frames, the player to move
    planes = cs.observation_tensor(0)
    assert sum(planes[64:128]) == 12 and sum(planes[128:192]) == 12  # black men, white men


def test_serialize_round_trip_and_clone() -> None:
    g = osp.load("tictactopology", "cylinder:3x3")
    s = g.new_initial_state()
    for _ in range(4):
        s.apply_action(s.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(g, s)
    _g2, s2 = pyspiel.deserialize_game_and_state(text)
    assert str(s2) == str(s) and s2.history() == s.history() and s2.legal_actions() == s.legal_actions()
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert str(c) != str(s) and s.legal_actions() == s2.legal_actions()


@pytest.mark.parametrize("board", SURFACES)
def test_minimax_and_alpha_beta_match_solve(board: str) -> None:
    from open_spiel.python.algorithms import minimax
    from open_spiel.python.algorithms.minimax_solver import MinimaxSolver

    gs = osp.game_string("tictactoe", board)
    solver = MinimaxSolver(gs)
    solver.solve()
    g = pyspiel.load_game(gs)
    value = solver.values_from_string(str(g.new_initial_state()))
    ab, _action = minimax.alpha_beta_search(g, maximum_depth=10)
    want = solve_kinrow(load_game("tictactoe", board).kinrow).value
    assert value == ab == want


def test_variants_room_is_checked() -> None:
    e = osp.make_engine("checkers", variants=1)
    assert e.variants == 1 and e.num_actions == 64 * 64
    assert osp.make_engine("chess").variants == 8 and osp.make_engine("tictactopology").variants == 1


@pytest.mark.parametrize("game", sorted(REFUSED))
def test_refused_games_say_why(game: str) -> None:
    with pytest.raises(GameError, match=REFUSED[game]):
        osp.make_engine(game)
