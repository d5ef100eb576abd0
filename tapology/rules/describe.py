"""A rule set described for people (``tapology rules``) and as JSON."""

from __future__ import annotations

from typing import Any

from tapology.rules.ends import ordinal
from tapology.rules.model import Condition, Move, RuleSet
from tapology.rules.pattern import draw_pattern


def draw_domain(rules: RuleSet) -> str:
    """The chart domain as a grid of ``#`` with ``*`` on the origin (square and hex cells alike, by coordinates)."""
    cells = set(rules.domain.cells)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            row.append("*" if (x, y) == (0, 0) else "#" if (x, y) in cells else ".")
        rows.append(" ".join(row))
    return "\n".join(rows)


def _move_cells(m: Move) -> list[tuple[tuple[int, ...], str, str | None]]:
    return [(pc.cell, pc.before.text(), pc.after) for pc in m.cells]


def _condition(c: Condition) -> dict[str, Any]:
    if c.any:
        return {"any": [_condition(a) for a in c.any]}
    return {"states": list(c.states), "op": c.op, "value": c.value, "region": c.region or None,
            **({"line": c.line, "outside": c.outside} if c.line else {}), **({"here": True} if c.here else {}),
            **({"around": True} if c.around else {})}


def _cond_text(c: Condition) -> str:
    """A count condition in words: ``count of own on a line of 3 here >= 1``."""
    if c.any:
        return "(" + " or ".join(_cond_text(a) for a in c.any) + ")"
    where = f" in {c.region}" if c.region else ""
    if c.line:
        where += f" {'off every' if c.outside else 'on a'} line of {c.line}"
    if c.here:
        where += " here"
    if c.around:
        where += " next to it"
    return f"count of {'|'.join(c.states)}{where} {c.op} {c.value}"


def rules_json(rules: RuleSet) -> dict[str, Any]:
    """The rule set as JSON."""
    def move(m: Move) -> dict[str, Any]:
        return {
            "name": m.name, "players": [rules.players[p] for p in m.players], "orientations": list(m.orientations),
            "cells": [{"at": list(pc.cell), "before": pc.before.text(), "after": pc.after,
                       **({"region": pc.region} if pc.region else {})} for pc in m.cells],
            "safe": [list(c) for c in m.safe],
            "to": list(m.to) if m.to else None, "class": m.klass, "start": m.start,
            "links": [{"moves": list(lk.moves), "at": list(lk.anchor) if lk.anchor else None,
                       "orientations": list(lk.orientations), "forced": lk.forced,
                       **({"anywhere": True} if lk.anywhere else {}),
                       **({"if": [_condition(c) for c in lk.conditions]} if lk.conditions else {})} for lk in m.links],
            **({"if": [_condition(c) for c in m.conditions]} if m.conditions else {}),
            **({"cost": m.cost} if m.cost != 1 else {}),
        }
    return {
        "name": rules.name, "description": rules.description, "grid": rules.grid.name,
        "players": list(rules.players), "board": rules.board, "boards": list(rules.boards),
        "states": [{"name": s.name, "value": s.value, "owner": None if s.owner is None else rules.players[s.owner],
                    "kind": s.kind, "symmetry": list(s.symmetry) or None} for s in rules.states],
        "moves": [move(m) for m in rules.moves],
        "cleanups": [dict(move(c.move), when=c.when, conditions=[_condition(x) for x in c.conditions])
                     for c in rules.cleanups],
        "tape": None if rules.tape is None else {"players": [rules.players[p] for p in rules.tape.players],
                                                 "flips": list(rules.tape.flips)},
        "end": [{"kind": e.kind, "k": e.k, "states": list(e.states), "result": e.result, "op": e.op, "value": e.value,
                 "move": e.move, "conditions": [_condition(c) for c in e.conditions], "check": e.check,
                 "optional": e.optional, "claim": e.claim, "name": e.name or None, "counter": e.counter or None,
                 "player": None if e.player is None else rules.players[e.player]} for e in rules.ends],
        "counters": [{"name": c.name, "reset-classes": list(c.classes), "reset-kinds": list(c.kinds)}
                     for c in rules.counters],
        "regions": {name: list(specs) for name, specs in rules.regions},
        "mandatory": list(rules.mandatory), "royal": list(rules.royal),
        **({"phases": [{"name": ph.name, "plies": ph.plies, "order": [rules.players[p] for p in ph.order],
                        "moves": list(ph.moves)} for ph in rules.phases]} if rules.phases else {}),
        **({"steps": rules.steps} if rules.steps else {}),
        "domain": [list(c) for c in rules.domain.cells],
    }


def rules_text(rules: RuleSet) -> str:
    """The rule set printed with its moves drawn and its derived chart domain."""
    out = [f"{rules.name}: {rules.description}".rstrip(": "), f"grid {rules.grid.name}; players "
           + ", ".join(rules.players) + f"; board {rules.board}"]
    out.append("states: " + ", ".join(
        f"{s.name}={s.value}" + (f" ({rules.players[s.owner]}" + (f" {s.kind}" if s.kind else "") + ")"
                                 if s.owner is not None else "")
        + (f" frame mod {list(s.symmetry)}" if s.oriented else "") for s in rules.states))
    if rules.steps:
        out.append(f"a turn spends at most {rules.steps} steps (each move costs 1 unless it says otherwise)")
    for m in rules.moves:
        head = f"move {m.name}: orientations {list(m.orientations)}"
        if m.klass:
            head += f", class {m.klass}"
        if not m.start:
            head += ", follow-up only"
        if m.cost != 1:
            head += f", costs {m.cost} steps"
        out.append("")
        out.append(head)
        out.append(draw_pattern(_move_cells(m)) if rules.grid.name.startswith("square") else
                   "  " + "; ".join(f"{list(c)}: {b} -> {a or '_'}" for c, b, a in _move_cells(m)))
        if m.conditions:
            out.append("  only where " + " and ".join(_cond_text(c) for c in m.conditions))
        for lk in m.links:
            out.append(f"  then {'must' if lk.forced else 'may'} {' or '.join(lk.moves)} "
                       + ("anywhere" if lk.anywhere else f"at {list(lk.anchor or ())}")
                       + (f" turned by {list(lk.orientations)}" if lk.orientations else "")
                       + (" if " + " and ".join(_cond_text(c) for c in lk.conditions) if lk.conditions else ""))
    for c in rules.cleanups:
        out.append("")
        out.append(f"clean-up {c.move.name} (everywhere, to a fixpoint, after each {c.when})")
        out.append(draw_pattern(_move_cells(c.move)))
    if rules.tape is not None:
        out.append("")
        out.append("tape: a turn may tape two open sides" + (" (flips allowed)" if True in rules.tape.flips else ""))
    out.append("")
    for e in rules.ends:
        who = f"{rules.players[e.player]} " if e.player is not None else "the player who just moved: " if e.mover else ""
        desc = {"line": f"{e.k} in a row wins", "no-turns": f"no legal turn: {e.result}",
                "count": " and ".join(_cond_text(c) for c in e.conditions) + f": {who}{e.result}",
                "chain": f"the longest chain of {e.move!r} moves {e.op} {e.value}: {who}{e.result}",
                "plies": f"after {e.value} turns: {e.result}",
                "counter": f"counter {e.counter} {e.op} {e.value}: {e.result}",
                "repetition": f"the same position for the {ordinal(e.value)} time: {e.result}"}[e.kind]
        if e.check is not None:
            desc += " (in check)" if e.check else " (not in check)"
        if e.after_phases:
            desc += " (after the phases)"
        if e.claim:
            desc += " [claim]"
        elif e.optional:
            desc += " [optional]"
        if e.name:
            desc = f"{e.name}: {desc}"
        out.append("end: " + desc)
    if rules.mandatory:
        out.append("mandatory: " + ", ".join(rules.mandatory))
    if rules.royal:
        out.append("royal: " + ", ".join(rules.royal))
    for ph in rules.phases:
        starts = " or ".join(ph.moves) or "the moves of the regular play"
        out.append(f"phase {ph.name}: {ph.plies} turn{'s' if ph.plies != 1 else ''} before the regular play, by "
                   + ", ".join(rules.players[p] for p in ph.order) + f" in turn, started by {starts}")
    out.append("")
    out.append(f"chart domain ({len(rules.domain.cells)} cells):")
    out.append(draw_domain(rules))
    return "\n".join(out)
