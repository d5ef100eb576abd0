"""The games of the Regular Boardgames catalogue shipped as rule sets: names, size variants, set-ups by region,
and ``perft --rbg`` (each turn once per way of playing it).  Their counts against RBG are in tests/data/perft."""

from __future__ import annotations

import pytest

from tapology.errors import OptionError, PositionError, RuleError
from tapology.games import SHIPPED, load_rules, open_game
from tapology.games.registry import shipped_name
from tapology.reports.games import perft_report
from tapology.rules.parse import parse_rules

CATALOGUE = {  # RBG's file name -> the shipped rule set
    "breakthrough": "breakthrough",
    "knightthrough": "knightthrough",
    "chess": "chess",
    "chess_kingCapture": "chess-king-capture",
    "chessGardner5x5_kingCapture": "chess-gardner-5x5-king-capture",
    "chessLosAlamos6x6_kingCapture": "chess-los-alamos-6x6-king-capture",
    "chessSilverman4x5_kingCapture": "chess-silverman-4x5-king-capture",
    "chessQuick5x6_kingCapture": "chess-quick-5x6-king-capture",
    "chineseCheckers6": "chinese-checkers-6",
    "paperSoccer": "paper-soccer",
    "doubleChess": "double-chess",
    "englishDraughts": "english-draughts",
    "internationalDraughts": "international-draughts",
    "canadianDraughts": "canadian-draughts",
    "foxAndHounds": "fox-and-hounds",
    "skirmish": "skirmish",
    "theMillGame": "the-mill-game",
    "arimaa": "arimaa",
    "arimaa_fixedPosition": "arimaa-fixed-position",
}


@pytest.mark.parametrize(("rbg", "shipped"), sorted(CATALOGUE.items()))
def test_rbg_names_and_kebab_names_load_the_shipped_rule_set(rbg: str, shipped: str) -> None:
    assert shipped in SHIPPED
    assert shipped_name(rbg) == shipped
    assert shipped_name(rbg.lower()) == shipped
    assert load_rules(rbg).source == load_rules(shipped).source


def test_unknown_names_are_refused_in_one_line() -> None:
    with pytest.raises(RuleError, match="no such rule file or built-in game"):
        load_rules("breakthroughs")


@pytest.mark.parametrize(("spec", "board", "first"), [("breakthrough:5x5", "plane:5x5", 13),
                                                      ("breakthrough_10x10", "plane:10x10", 28),
                                                      ("knightthrough:6x6", "plane:6x6", 28)])
def test_size_variants_come_from_one_rule_set(spec: str, board: str, first: int) -> None:
    g = open_game(spec)
    assert g.board_name == board
    pos = g.initial()
    n = int(board.split(":")[1].split("x")[1])
    assert pos.board.states.count(1) == pos.board.states.count(2) == 2 * n  # two home rows each, filled by region
    assert g.perft(pos, 1) == first


def test_size_variants_need_a_start_set_up_by_regions() -> None:
    with pytest.raises(RuleError, match="no start position for 10x10"):
        load_rules("chess:10x10")
    with pytest.raises(PositionError, match="meet on tile"):  # home rows overlap: refused, not overwritten
        open_game("breakthrough:3x3").initial()


def test_fill_names_states_and_regions() -> None:
    base = 'name = "x"\nplayers = ["a", "b"]\n[states]\nempty = 0\np = { value = 1, owner = "a" }\n'
    move = '[[move]]\nname = "m"\ncells = [[0, 0, "own", "empty"]]\n'
    with pytest.raises(RuleError, match="fill: unknown state 'q'"):
        parse_rules(base + '[initial]\nfill = { q = "home" }\n' + move)
    rules = parse_rules(base + '[regions]\nhome = "row:1"\n[initial]\nfill = { p = "home" }\n'
                        '[[move]]\nname = "m"\ncells = [[0, 0, "own", "empty"]]\n')
    assert rules.initial.fill == (("p", "home"),)
    from tapology.rules import RuleGame

    assert RuleGame(rules, "plane:2x3").initial().board.states == (1, 1, 1, 0, 0, 0)
    bad = parse_rules(base + '[initial]\nfill = { p = "nowhere" }\n[[move]]\nname = "m"\ncells = [[0, 0, "own", "empty"]]\n')
    with pytest.raises(PositionError, match="no such region"):
        RuleGame(bad, "plane:2x3").initial()


@pytest.mark.parametrize(("game", "depth"), [("breakthrough", 3), ("knightthrough", 2), ("chess-king-capture", 2),
                                             ("english-draughts", 4), ("chess", 2), ("fox-and-hounds", 4),
                                             ("skirmish", 2)])
def test_rbg_count_equals_tapology_count_where_each_turn_has_one_way(game: str, depth: int) -> None:
    g = open_game(game)
    pos = g.initial()
    assert g.perft(pos, depth, rbg=True) == g.perft(pos, depth)


def test_rbg_count_needs_no_divide() -> None:
    with pytest.raises(OptionError, match="--rbg with --divide"):
        perft_report("english-draughts", 2, by_first_turn=True, rbg=True)
    assert perft_report("english-draughts", 3, rbg=True).nodes == 302


def _flying_king():
    from pathlib import Path

    from tapology.games.registry import open_position

    path = Path(__file__).parent / "data" / "perft" / "international-draughts-king.toml"
    return open_position("international-draughts", None, str(path))


def test_maximum_rule_keeps_only_the_turns_that_take_the_most() -> None:
    import dataclasses

    from tapology.rules import RuleGame

    g, pos = _flying_king()
    turns = g.turns(pos)
    assert len(turns) == 2 and all(t.label.count("x") == 2 for t in turns)  # both take the two men
    lax = RuleGame(dataclasses.replace(g.rules, maximum=()), g.board_name)
    loose = lax.turns(pos)
    assert len(loose) > 2 and any(t.label.count("x") == 1 for t in loose)  # single captures come back


def test_a_move_that_may_not_end_a_chain_never_ends_a_turn() -> None:
    import dataclasses

    from tapology.rules import RuleGame

    g, pos = _flying_king()
    moves = tuple(dataclasses.replace(m, final=True) if m.name == "king-approach" else m for m in g.rules.moves)
    lax = RuleGame(dataclasses.replace(g.rules, moves=moves, maximum=()), g.board_name)
    strict = RuleGame(dataclasses.replace(g.rules, maximum=()), g.board_name)
    # an approach that ends without a jump would be a capture turn that slides on afterwards
    assert len(lax.turns(pos)) > len(strict.turns(pos))


def test_maximum_and_final_are_checked() -> None:
    base = 'name = "x"\nplayers = ["a", "b"]\n[states]\nempty = 0\np = { value = 1, owner = "a" }\n'
    with pytest.raises(RuleError, match="maximum: no move has class 'take'"):
        parse_rules('maximum = ["take"]\n' + base + '[[move]]\nname = "m"\ncells = [[0, 0, "own", "empty"]]\n')
    with pytest.raises(RuleError, match="final = false needs links"):
        parse_rules(base + '[[move]]\nname = "m"\nfinal = false\ncells = [[0, 0, "own", "empty"]]\n')


def _taken(g, pos, key) -> int:
    """How many of the opponent's pieces a turn (by key) takes off the board."""
    owner = g.chains(pos.board).comp.owner
    codes = g.codes(pos)
    return sum(1 for u, v in key[2] if owner[codes[u]] not in (-1, pos.to_move) and v == 0)


def test_native_engine_keeps_only_the_turns_that_take_the_most() -> None:
    """The C engine itself (not the Python rule applied after it) runs the maximum rule: on a position where the
    flying king may take one man or two, its turn listing, its perft (bulk, made, once per way) and its playouts
    keep only the turns that take two."""
    from tapology.rules import native

    if not native.available():
        pytest.skip(f"native engine: {native.reason()}")
    g, pos = _flying_king()
    chains = g.chains(pos.board)
    codes, p = g.codes(pos), pos.to_move
    walked = chains.turns(codes, p)  # the Python walk before the maximum rule: captures of one man and of two
    assert {_taken(g, pos, k) for k, f in walked.items() if f.flagged} == {1, 2}
    eng = native.engine(chains)
    assert eng is not None and native.why_not(chains, perft=True) == ""
    got = eng.turns(chains, codes, p)
    assert got is not None and len(got) == 2 and all(_taken(g, pos, k) == 2 for k in got)
    assert native.perft(chains, codes, p, pos.ply, 1) == 2
    assert native.perft(chains, codes, p, pos.ply, 1, bulk=False) == 2
    assert native.perft_ways(chains, codes, p, pos.ply, 1) == 2
    results = {tuple(codes[u] if u not in dict(k[2]) else dict(k[2])[u] for u in range(len(codes))) for k in got}
    for first in range(12):  # one random turn each: always one of the two
        ran = native.playouts(chains, codes, p, pos.ply, 1, first, 1, seed=3, specialise=False)
        assert ran is not None and ran[1] is not None
        assert tuple(ran[1][:len(codes)]) in results


def test_native_engine_declines_a_turn_whose_routes_count_differently() -> None:
    """Two routes to one result, a capture and a step: the reference reads the count on the route of the least label
    (the step's), which the C engine does not know, so it declines the listing (None) and Python answers."""
    from tapology.rules import RuleGame, native

    if not native.available():
        pytest.skip(f"native engine: {native.reason()}")
    rules = parse_rules('name = "x"\nplayers = ["a", "b"]\nmaximum = ["capture"]\n[states]\nempty = 0\n'
                        'p = { value = 1, owner = "a" }\n[initial]\nlayout = "p . ."\n'
                        '[[move]]\nname = "hop"\nclass = "capture"\ncells = [[0, 0, "own", "empty"], [1, 0, "empty", "@"]]\n'
                        '[[move]]\nname = "step"\ncells = [[0, 0, "own", "empty"], [1, 0, "empty", "@"]]\n')
    g = RuleGame(rules, "plane:3x1")
    pos = g.initial()
    chains = g.chains(pos.board)
    eng = native.engine(chains)
    assert eng is not None and eng.turns(chains, g.codes(pos), 0) is None
    assert native.perft(chains, g.codes(pos), 0, 0, 1) is None
    assert [t.label for t in g.turns(pos)] == ["1-2"] and g.perft(pos, 1) == 1


NATIVE_FILE_NODES = 100_000  # deeper counts run with -m slow (tests/test_rules_perft.py)


@pytest.mark.parametrize("name", ["international-draughts", "canadian-draughts"])
def test_draughts_perft_files_count_natively(name: str) -> None:
    """The counts of the game's perft files (RBG's) reached by the native engine itself, per result and once per
    way of playing each turn (RBG's counts hold for both)."""
    from pathlib import Path

    from tapology.games.registry import open_position
    from tapology.rules import native

    if not native.available():
        pytest.skip(f"native engine: {native.reason()}")
    data = Path(__file__).parent / "data" / "perft"
    games: dict[str | None, tuple] = {}
    checked = 0
    for f in data.glob(f"{name}*.perft"):
        position = None
        for raw in f.read_text().splitlines():
            key, _, rest = raw.split("#", 1)[0].strip().partition(" ")
            if key == "id":
                position = None
            elif key == "position":
                position = str(data / rest.strip())
            elif key == "perft":
                d, n = (int(x) for x in rest.split())
                if n > NATIVE_FILE_NODES:
                    continue
                if position not in games:
                    games[position] = open_position(name, None, position)
                g, pos = games[position]
                chains = g.chains(pos.board)
                codes = g.codes(pos)
                assert native.why_not(chains, perft=True) == ""
                assert native.perft(chains, codes, pos.to_move, pos.ply, d) == n, (f.name, position, d)
                assert native.perft_ways(chains, codes, pos.to_move, pos.ply, d) == n, (f.name, position, d)
                checked += 1
    assert checked >= 5


def test_refuse_entries_are_checked() -> None:
    base = ('name = "x"\nplayers = ["a", "b"]\n[states]\nempty = 0\np = { value = 1, owner = "a" }\n'
            '[[move]]\nname = "m"\ncells = [[0, 0, "own", "empty"]]\n')
    with pytest.raises(RuleError, match="reason must be one line"):
        parse_rules(base + '[[refuse]]\nboards = ["torus:*"]\nreason = ""\n')
    with pytest.raises(RuleError, match="boards must be a list"):
        parse_rules(base + '[[refuse]]\nboards = "torus:*"\nreason = "no"\n')
    from tapology.errors import GameError
    from tapology.rules import RuleGame

    rules = parse_rules(base + '[[refuse]]\nboards = ["torus:*"]\nreason = "wraps"\n')
    with pytest.raises(GameError, match="not meaningful: wraps"):
        RuleGame(rules, "torus:3x3")
    assert RuleGame(rules, "plane:3x3").board_name == "plane:3x3"


@pytest.mark.parametrize("name", ["international-draughts-king", "international-draughts-ring",
                                  "international-draughts-mixed"])
def test_rbg_count_on_draughts_positions(name: str) -> None:
    from pathlib import Path

    from tapology.games.registry import open_position

    path = Path(__file__).parent / "data" / "perft" / f"{name}.toml"
    g, pos = open_position("international-draughts", None, str(path))
    assert g.perft(pos, 3, rbg=True) == g.perft(pos, 3)


# a position of arimaa's play lists tens of thousands of turns (hundreds of thousands of step sequences): a search
# player's move, or an MCTS playout of hundreds of such plies, takes minutes; random players move there
BROAD = {"arimaa", "arimaa-fixed-position"}
# double chess; arimaa's play (its turns' labels read in Python: 40 s for four plies refereed twice; `arimaa`'s
# set-up, in the default run, goes through the same referee and players)
SLOW_PLAY = {"double-chess", "arimaa-fixed-position"}


@pytest.mark.parametrize("game", [pytest.param(g, marks=[pytest.mark.slow] if g in SLOW_PLAY else [])
                                  for g in sorted(set(CATALOGUE.values()) - {"chess"})])
def test_catalogue_games_are_refereed_and_played_by_computer_players(game: str) -> None:
    """A random game's transcript (positions, then labels) is valid for the referee; a computer player moves."""
    import random

    from tapology.adapters.match import make_player, play_game
    from tapology.play.playing.referee import referee
    from tapology.play.playing.transcript import read_transcript, write_transcript

    g = open_game(game)
    rng = random.Random(game)
    pos = g.initial()
    positions, labels = [pos], []
    for _ in range(4 if game == "arimaa-fixed-position" else 30):
        turns = g.turns(pos)
        if not turns:
            break
        t = rng.choice(turns)
        labels.append(t.label)
        pos = t.result
        positions.append(pos)
    rep = referee(g, read_transcript(g, write_transcript(g, positions)))
    assert rep.valid and rep.turns == labels
    rep = referee(g, read_transcript(g, "".join(f'"{lab}"\n' for lab in labels)))
    assert rep.valid and rep.final == positions[-1]
    if len(g.players) > 2:  # the two-player searches refuse; the max^n player (ai, a depth) takes every seat
        from tapology.errors import StrengthError
        from tapology.play.playing.ai import make_agent

        with pytest.raises(StrengthError, match="two-player games"):
            make_player(game, None, "alphabeta:1", seed=1, game=g)
        agents = [make_agent(g, 1, seed=i) for i in range(len(g.players))]
        pos = g.initial()
        for _ in range(len(g.players)):
            turns = g.turns(pos)
            pos = turns[agents[pos.to_move].choose(pos, turns)].result
        assert pos.ply == len(g.players)
        return
    if game in BROAD:
        a, b = (make_player(game, None, "random", seed=i, game=g) for i in (1, 2))
    else:
        a = make_player(game, None, "alphabeta:1", seed=1, game=g)
        b = make_player(game, None, "mcts:4", seed=2, engine="own", game=g)
    out, plies = play_game(g, a, b, max_plies=4)  # a few moves each: the players' search costs seconds a move
    assert set(out) == set(g.players) and 1 <= plies <= 4


def test_position_transcripts_of_games_with_counters_are_refereed() -> None:
    """A transcript of positions holds no counters: the referee compares the rest (chess's quiet-move counter)."""
    from tapology.play.playing.referee import referee
    from tapology.play.playing.transcript import read_transcript, write_transcript

    g = open_game("chess")
    p = g.initial()
    q = g.parse_turn(p, "e2e4").result
    r = g.parse_turn(q, "g8f6").result
    rep = referee(g, read_transcript(g, write_transcript(g, [p, q, r])))
    assert rep.valid and rep.turns == ["e2e4", "g8f6"] and rep.final == r and rep.final.counters == r.counters
