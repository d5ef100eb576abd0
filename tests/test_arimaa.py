"""Arimaa (docs/games.md) and the mechanics it brought to the rule language (docs/rules.md "A turn of steps",
"Conditions around a tile"): a step budget where moves cost steps, counts of the tiles around a move's origin
and disjunctions of counts (freezing), frame-aware anywhere links; against a brute-force reading of RBG's
arimaa_fixedPosition.rbg (RBG's moves are sequences of steps; their distinct results are tapology's turns)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tapology.errors import RuleError
from tapology.games import open_game
from tapology.rules import RuleGame, native
from tapology.rules.cspenum import csp_chains
from tapology.rules.parse import parse_rules
from tapology.rules.perft import count_leaves, play_paths
from tapology.rules.z3enum import z3_chains

RBG_FIXED_1 = 20652  # `run.sh perft arimaa_fixedPosition 1` (tests/data/perft/arimaa-fixed-position.perft)

# ---- a brute-force reading of arimaa_fixedPosition.rbg ---------------------------------------------------------
KINDS = "EMHDCR"  # strongest first; gold upper case, silver lower case
DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))
TRAPS = ((2, 2), (5, 2), (2, 5), (5, 5))


def _color(p: str) -> str:
    return "g" if p.isupper() else "s"


def _rank(p: str) -> int:
    return KINDS.index(p.upper())


def _nb(x: int, y: int):
    for dx, dy in DIRS:
        if 0 <= x + dx < 8 and 0 <= y + dy < 8:
            yield x + dx, y + dy


def _frozen(b: dict, s: tuple[int, int]) -> bool:
    p = b[s]
    friends = any(_color(b[u]) == _color(p) for u in _nb(*s) if u in b)
    return not friends and any(_color(b[u]) != _color(p) and _rank(b[u]) < _rank(p) for u in _nb(*s) if u in b)


def _fire(b: dict) -> dict:
    for t in TRAPS:
        if t in b and not any(u in b and _color(b[u]) == _color(b[t]) for u in _nb(*t)):
            b = {k: v for k, v in b.items() if k != t}
    return b


def _wins(b: dict) -> int:
    """How many of RBG's winning branches hold (0, 1, or 2 when both players' do)."""
    gold = [k for k, v in b.items() if v == "R"]
    silver = [k for k, v in b.items() if v == "r"]
    return int(not gold or any(y == 7 for _x, y in silver)) + int(not silver or any(y == 0 for _x, y in gold))


def _steps(b: dict, color: str, left: int):
    """(new board, cost) for every step of ``color`` RBG allows with ``left`` steps, traps fired after it."""
    for s, p in sorted(b.items()):
        if _color(p) != color or _frozen(b, s):
            continue
        fwd = (0, -1) if color == "g" else (0, 1)
        for d in DIRS:
            if p.upper() == "R" and d == (-fwd[0], -fwd[1]):
                continue
            t = (s[0] + d[0], s[1] + d[1])
            if 0 <= t[0] < 8 and 0 <= t[1] < 8 and t not in b:
                nb = dict(b)
                del nb[s]
                nb[t] = p
                yield _fire(nb), 1
        if left < 2 or p.upper() == "R":
            continue
        for e in _nb(*s):
            q = b.get(e)
            if q is None or _color(q) == color or _rank(q) <= _rank(p):
                continue
            for f in _nb(*e):  # push: the enemy to f, the piece onto e
                if f != s and f not in b:
                    nb = dict(b)
                    del nb[s]
                    nb[f] = q
                    nb[e] = p
                    yield _fire(nb), 2
            for t in _nb(*s):  # pull: the piece to t, the enemy onto s
                if t not in b:
                    nb = dict(b)
                    del nb[e]
                    nb[t] = p
                    nb[s] = q
                    yield _fire(nb), 2


def rbg_moves(b: dict, color: str) -> tuple[int, set]:
    """RBG's moves of ``color``: (how many sequences of steps, their distinct results)."""
    start = frozenset(b.items())
    results: set = set()
    count = 0

    def go(cur: dict, left: int) -> None:
        nonlocal count
        for nb, cost in _steps(cur, color, left):
            if cost > left:
                continue
            w = _wins(nb)
            if w:
                count += w
                results.add(frozenset(nb.items()))
                continue
            if frozenset(nb.items()) != start:
                count += 1
                results.add(frozenset(nb.items()))
            go(nb, left - cost)

    go(b, 4)
    return count, results


def _board(g: RuleGame, pos) -> dict:
    names = {s.value: s.name for s in g.rules.states}
    out = {}
    for t, c in enumerate(g.codes(pos)):
        name = names[c // g.h]
        if name != "empty":
            out[(t % 8, t // 8)] = name
    return out


def _results(g: RuleGame, pos) -> set:
    return {frozenset(_board(g, t.result).items()) for t in g.turns(pos)}


@pytest.fixture(scope="module")
def fixed() -> RuleGame:
    return open_game("arimaa-fixed-position")


def test_the_start_matches_a_brute_force_reading_of_rbg(fixed: RuleGame) -> None:
    pos = fixed.initial()
    count, results = rbg_moves(_board(fixed, pos), "g")
    assert count == RBG_FIXED_1  # the brute force reads RBG's rules as RBG's own perft counts them
    assert _results(fixed, pos) == results  # tapology's turns are the distinct results of RBG's moves
    assert fixed.perft(pos, 1, rbg=True) == count


# a position six random plies in: tens of seconds of the Python walk and brute force each (-m slow); a crowded small
# position, the same check at once, stays in the default run
@pytest.mark.parametrize("seed", [pytest.param(3, marks=pytest.mark.slow), pytest.param(11, marks=pytest.mark.slow)])
def test_positions_of_play_match_the_brute_force(fixed: RuleGame, seed: int) -> None:
    """Later positions (traps, freezing, pushes and pulls in reach), for the player to move."""
    rng = random.Random(seed)
    pos = fixed.initial()
    for _ in range(6):
        turns = fixed.turns(pos)
        pos = rng.choice(turns).result
    color = "g" if pos.to_move == 0 else "s"
    count, results = rbg_moves(_board(fixed, pos), color)
    assert _results(fixed, pos) == results
    chains = fixed.chains(pos.board)
    assert len(play_paths(chains, fixed.codes(pos), pos.to_move)) == count


def _at(layout: list[str], who: str = "gold") -> RuleGame:
    """arimaa-fixed-position with another start position."""
    g = open_game("arimaa-fixed-position")
    rules = g.rules
    ini = dataclasses.replace(rules.initial, layout=tuple(" ".join(layout).split()), to_move=rules.players.index(who))
    return RuleGame(dataclasses.replace(rules, initial=ini), "plane:8x8")


EMPTY = [". . . . . . . ."] * 8


def _with(cells: dict[tuple[int, int], str]) -> list[str]:
    rows = [r.split() for r in EMPTY]
    for (x, y), p in cells.items():
        rows[y][x] = p
    return [" ".join(r) for r in rows]


@pytest.mark.parametrize("who", ["gold", "silver"])
def test_a_crowded_position_matches_the_brute_force(who: str) -> None:
    """Pushes, pulls, freezing and a trap (c6: x 2, y 2) in reach of both sides, a rabbit a step from its goal."""
    g = _at(_with({(2, 3): "E", (2, 2): "c", (3, 2): "m", (1, 2): "D", (4, 4): "h", (4, 5): "H", (5, 5): "r",
                   (0, 1): "R", (6, 6): "C", (7, 6): "r", (1, 0): "e"}), who)
    pos = g.initial()
    count, results = rbg_moves(_board(g, pos), who[0])
    assert _results(g, pos) == results
    # RBG's count of step sequences: natively where the engine runs (the Python walk's play_paths, which
    # test_positions_of_play_match_the_brute_force reads, is held to it in tests/test_native_registry.py)
    assert count_leaves(g, pos, 1, rbg=True) == count


def test_a_piece_next_to_a_stronger_enemy_is_frozen_unless_a_friend_is_next_to_it() -> None:
    base = {(0, 7): "R", (7, 0): "r", (3, 3): "M", (3, 4): "e"}
    g = _at(_with(base))
    movers = {t.label.split("-")[0].split(",")[0] for t in g.turns(g.initial())}
    assert str(1 + 3 * 8 + 3) not in movers  # the camel beside the silver elephant does not move
    g = _at(_with({**base, (2, 3): "C"}))
    assert str(1 + 3 * 8 + 3) in {t.label.split("-")[0] for t in g.turns(g.initial())}  # a friend unfreezes it
    g = _at(_with({**base, (3, 4): "m"}))  # an equal enemy does not freeze
    assert str(1 + 3 * 8 + 3) in {t.label.split("-")[0] for t in g.turns(g.initial())}


def test_the_disjunction_is_needed() -> None:
    """Without its first alternative (a friend next to it), the camel stays frozen beside the elephant."""
    base = {(0, 7): "R", (7, 0): "r", (3, 3): "M", (3, 4): "e", (2, 3): "C"}
    g = _at(_with(base))
    cut = dataclasses.replace(g.rules, moves=tuple(
        dataclasses.replace(m, conditions=tuple(c.any[1] if c.any else c for c in m.conditions)) for m in g.rules.moves))
    h = RuleGame(cut, "plane:8x8")
    assert len(h.turns(h.initial())) < len(g.turns(g.initial()))
    assert str(1 + 3 * 8 + 3) not in {t.label.split("-")[0] for t in h.turns(h.initial())}


def test_a_piece_on_a_trap_without_a_friend_is_taken_after_the_step() -> None:
    g = _at(_with({(0, 7): "R", (7, 0): "r", (2, 1): "D", (6, 6): "e"}))
    onto = [t for t in g.turns(g.initial()) if t.label == f"{1 + 8 + 2}-{1 + 16 + 2}"]
    assert len(onto) == 1 and "D" not in {_board(g, onto[0].result).get((2, 2))}
    assert (2, 2) not in _board(g, onto[0].result)  # the dog stepped onto c6 and fell in


def test_a_win_ends_the_turn_at_once() -> None:
    g = _at(_with({(0, 1): "R", (7, 0): "r", (5, 5): "E"}))
    turns = g.turns(g.initial())
    won = [t for t in turns if _board(g, t.result).get((0, 0)) == "R"]
    assert won and all(g.outcome(t.result) == {"gold": 1, "silver": -1} for t in won)
    assert all(t.label.endswith("-1") for t in won)  # the step onto the goal is the last: no step after a win
    assert any(_board(g, t.result).get((5, 5)) != "E" for t in won)  # steps before it are taken


def test_the_step_budget_is_needed() -> None:
    """A budget of one step gives single steps only; without costs a push would be one step."""
    g = open_game("arimaa-fixed-position")
    pos = g.initial()
    one = RuleGame(dataclasses.replace(g.rules, steps=1), "plane:8x8")
    assert one.perft(one.initial(), 1) == 8  # one step: a rabbit up (the pieces behind the rabbits are blocked)
    assert g.perft(pos, 1) == 2467 > one.perft(one.initial(), 1)


def test_silver_rabbits_step_forward_down_in_follow_ups(fixed: RuleGame) -> None:
    pos = fixed.turns(fixed.initial())[0].result  # gold's a-rabbit four steps up, then silver
    labels = {t.label for t in fixed.turns(pos)}
    assert "12-20-28" in labels and "12-20-28-36" in labels  # a silver rabbit down (forward in its frame), step by step
    assert not any(lab.startswith("28-20") for lab in labels)


def test_the_set_up_phase_leads_into_the_fixed_game() -> None:
    g = open_game("arimaa")
    pos = g.initial()
    layout = ["H", "C", "D", "M", "E", "D", "C", "H"]
    # silver first needs gold's 16: gold's rabbits on row 7, pieces on row 8
    for t in range(16):
        x, y = t % 8, 6 + t // 8
        want = "R" if y == 6 else layout[x]
        turn = next(tt for tt in g.turns(pos) if tt.label.startswith(f"{1 + y * 8 + x}")
                    and _board(g, tt.result).get((x, y)) == want)
        pos = turn.result
    for t in range(16):
        x, y = t % 8, t // 8
        want = layout[x].lower() if y == 0 else "r"
        turn = next(tt for tt in g.turns(pos) if tt.label.startswith(f"{1 + y * 8 + x}")
                    and _board(g, tt.result).get((x, y)) == want)
        pos = turn.result
    assert pos.ply == 32 and pos.to_move == 0
    fixed = open_game("arimaa-fixed-position")
    assert g.codes(pos) == fixed.codes(fixed.initial())  # silver's rabbits placed facing down
    assert g.perft(pos, 1) == 2467


def test_the_set_up_places_each_piece_up_to_its_number() -> None:
    g = open_game("arimaa")
    pos = g.initial()
    assert g.perft(pos, 1) == 16 * 6
    elephant = next(t for t in g.turns(pos) if _board(g, t.result) == {(0, 7): "E"})
    assert {_board(g, t.result).get((1, 7)) for t in g.turns(elephant.result)} >= {"M", "R"}
    assert all(list(_board(g, t.result).values()).count("E") == 1 for t in g.turns(elephant.result))  # one elephant


def test_the_tools_refuse_or_decline_the_mechanics_by_name(fixed: RuleGame) -> None:
    pos = fixed.initial()
    chains = fixed.chains(pos.board)
    with pytest.raises(RuleError, match="step budgets"):
        z3_chains(chains, fixed.codes(pos), 0)
    if native.available():  # the native engine runs them: turns, perft (bulk and made) and perft --rbg
        assert native.engine_used(chains) == ("native", "")
        assert native.engine_used(chains, perft=True) == ("native", "")


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
@pytest.mark.parametrize(("seed", "board"), [(s, b) for s in range(4) for b in ("plane:4x4", "cylinder:4x4")])
def test_the_native_engine_matches_the_walk_on_steps_and_around(seed: int, board: str) -> None:
    rules = parse_rules(TOY)
    rng = random.Random(seed)
    cells = ["p", "p", "k", "q", "q"] + ["."] * 11
    rng.shuffle(cells)
    rules = dataclasses.replace(rules, initial=dataclasses.replace(rules.initial, layout=tuple(cells)))
    g = RuleGame(rules, board)
    pos = g.initial()
    chains = g.chains(pos.board)
    eng = native.engine(chains)
    assert eng is not None, native.why_not(chains)
    codes = g.codes(pos)
    assert set(eng.turns(chains, codes, 0)) == set(chains.turns(codes, 0))
    for rbg in (False, True):
        assert count_leaves(g, pos, 2, rbg=rbg) == count_leaves(g, pos, 2, native=False, rbg=rbg)


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_the_native_engine_counts_rbgs_sequences_of_steps(fixed: RuleGame) -> None:
    pos = fixed.initial()
    assert count_leaves(fixed, pos, 1, rbg=True) == RBG_FIXED_1  # natively: each sequence of steps once
    chains = fixed.chains(pos.board)
    after = fixed.turns(pos)[5].result  # silver to move: its rabbits' forward is down, the traps fire after each step
    got = native.engine(chains).turns(chains, fixed.codes(after), after.to_move)
    assert set(got) == set(chains.turns(fixed.codes(after), after.to_move))


TOY = '''name = "toy"
players = ["a", "b"]
[states]
empty = 0
p = { value = 1, owner = "a", kind = "man" }
k = { value = 2, owner = "a", kind = "king" }
q = { value = 3, owner = "b", kind = "man" }
[steps]
budget = 3
[[move]]
name = "step"
orientations = "rotations"
cells = [[0, 0, "own:man", "empty"], [0, 1, "empty", "@"]]
if = [{ any = [{ states = ["own"], around = true, op = ">=", value = 1 },
               { states = ["foe"], around = true, op = "==", value = 0 }] }]
[[move]]
name = "leap"
cost = 2
orientations = "rotations"
cells = [[0, 0, "own:king", "empty"], [0, 1, "any"], [0, 2, "empty", "@"]]
'''


@pytest.mark.parametrize("seed", range(6))
def test_python_constraint_agrees_with_the_walk_on_steps_and_around(seed: int) -> None:
    rules = parse_rules(TOY)
    rng = random.Random(seed)
    cells = ["p", "p", "k", "q", "q"] + ["."] * 11
    rng.shuffle(cells)
    rules = dataclasses.replace(rules, initial=dataclasses.replace(rules.initial, layout=tuple(cells)))
    g = RuleGame(rules, "plane:4x4")
    pos = g.initial()
    chains = g.chains(pos.board)
    codes = g.codes(pos)
    assert set(csp_chains(chains, codes, 0)) == set(chains.turns(codes, 0))


def test_toy_costs_and_budget() -> None:
    g = RuleGame(dataclasses.replace(parse_rules(TOY), initial=dataclasses.replace(
        parse_rules(TOY).initial, layout=tuple("k . . . . . . . . . . . . . . .".split()))), "plane:4x4")
    ends = {t.result.board.states.index(2) for t in g.turns(g.initial())}
    assert ends == {8, 2}  # one leap (two steps) up or right; a second leap would need four steps of three


@pytest.mark.parametrize(("text", "match"), [
    ("[steps]\nbudget = 0\n", "budget must be"),
    ("[steps]\nbudget = 1\n", "cost 2 is more than"),
    ("[steps]\nbudget = 2\nuntil = 1\n", "unknown key 'until'"),
])
def test_bad_budgets_are_refused(text: str, match: str) -> None:
    base = TOY.replace("[steps]\nbudget = 3\n", text)
    with pytest.raises(RuleError, match=match):
        parse_rules(base)


def test_a_cost_without_a_budget_is_refused() -> None:
    with pytest.raises(RuleError, match="no \\[steps\\] budget"):
        parse_rules(TOY.replace("[steps]\nbudget = 3\n", ""))


def test_around_needs_a_tile_at_hand() -> None:
    bad = TOY + '[[end]]\nkind = "count"\nall = [{ states = ["own"], around = true, value = 1 }]\n'
    with pytest.raises(RuleError, match="around = true"):
        parse_rules(bad)


def test_rules_describe_budget_costs_and_disjunctions() -> None:
    from tapology.rules.describe import rules_text
    text = rules_text(parse_rules(TOY))
    assert "at most 3 steps" in text and "costs 2 steps" in text and " or count of foe next to it == 0" in text


@pytest.mark.slow
@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_the_native_perft_2_agrees_with_the_walk_on_sampled_children(fixed: RuleGame) -> None:
    """tests/data/perft/arimaa-fixed-position.perft's depth 2 is the native engine's own: its subtrees under sampled
    children of the start are counted by the Python walk too."""
    turns = fixed.perft_turns(fixed.initial())
    for t in random.Random(7).sample(turns, 3):
        assert count_leaves(fixed, t.result, 1) == count_leaves(fixed, t.result, 1, native=False)


@pytest.mark.skipif(not native.available(), reason=f"native engine: {native.reason()}")
def test_a_step_follows_only_what_the_steps_left_pay_for(fixed: RuleGame) -> None:
    """The native walk reads, after a step, only the follow-ups the turn's steps left pay for (engine.c budget_rows):
    none with no step left, steps but not pushes or pulls (two steps) with one."""
    pos = fixed.initial()
    eng = native.engine(fixed.chains(pos.board))
    assert eng is not None
    one, two = eng.budget_follow_ups(1), eng.budget_follow_ups(2)
    assert eng.budget_follow_ups(0) == 0 and 0 < one < two == eng.budget_follow_ups(4)
    assert eng.budget_follow_ups(5) == -1  # past the budget
