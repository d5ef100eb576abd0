"""A roguelike on a manifold: a house bigger inside than outside, a staircase walked through
with ordinary steps, and a portal opened during play by a taping (refused when it would make
the map inconsistent).  What the walker sees is its field of view on the unfolded map.

Run:  python examples/roguelike/play.py
"""

from __future__ import annotations

from pathlib import Path

from tapology.model.boardfile import load_board
from tapology.model.tape import parse_tape
from tapology.model.walker import Walker, parse_moves, start_walker, walk_path
from tapology.render.fov import draw_glyphs, field_of_view, opaque_states

MAP = Path(__file__).with_name("village.toml")
GLYPHS = {0: ".", 1: "+", 2: ">", 3: "O", 4: "T", 5: "$"}
TREE = 4


class Game:
    """The map (an atlas that tapings change) and the walker on it."""

    def __init__(self, path: Path = MAP, start: str = "g53") -> None:
        self.atlas = load_board(str(path)).atlas()
        if self.atlas.conflict is not None:
            raise SystemExit(self.atlas.conflict.describe(self.atlas.board()))
        self.board = self.atlas.board()
        self.walker: Walker = start_walker(self.atlas, start)

    def tile(self) -> str:
        return self.board.tiles[self.walker.tile]

    def go(self, steps: str) -> list[str]:
        """Walk comma-separated steps; returns the tiles visited (stops at a wall of the map)."""
        path = walk_path(self.atlas, self.walker, parse_moves(self.board.grid, steps))
        self.walker = path.end
        return [self.board.tiles[t] for t in path.tiles]

    def look(self, radius: int = 5) -> str:
        """The field of view as a roguelike screen: '@' the walker, '#' the map's edge, 'T' trees block sight."""
        fov = field_of_view(self.atlas, self.walker, radius, opaque_states(self.board, {TREE}))
        return draw_glyphs(fov, self.board, GLYPHS)

    def open_portal(self, tape: str) -> str:
        """Tape two sides together now; refused (and explained) if the map would become inconsistent."""
        taping = parse_tape(tape, self.board, where="portal")
        conflict = self.atlas.tape([taping])
        if conflict is not None:
            return "refused: " + conflict.describe(self.board).split("\n")[0]
        self.board = self.atlas.board()
        return f"opened: {taping.label}"


def reachable(game: Game, start: str, avoid: set[str]) -> set[str]:
    """Tiles reachable from ``start`` by steps that never enter ``avoid``."""
    at = game.atlas
    seen = {start}
    todo = [start_walker(at, start)]
    while todo:
        w = todo.pop()
        for v in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            n = w.step(at, v)
            if n is None:
                continue
            tid = at.tiles[n.tile]
            if tid not in seen and tid not in avoid:
                seen.add(tid)
                todo.append(n)
    return seen


def main() -> None:
    g = Game()
    print("Standing on the green below the door, looking up (radius 5):")
    print(g.look())
    print()
    print("walk up, up:", " -> ".join(g.go("up,up")))
    inside = reachable(g, "H", avoid={"D", "s1"})  # the hall and the room, not the way out or the stairs
    print(f"the house's footprint outside is 3 x 2 tiles; inside there are {len(inside)} tiles")
    print(g.look())
    print()
    g.walker = start_walker(g.atlas, "h26")
    print("the staircase, with ordinary steps:", " -> ".join(g.go("right,right,right,right,right")))
    print()
    g.walker = start_walker(g.atlas, "g27")
    print("a portal into a tree's tile?", g.open_portal("g27.up=A.up"))
    print("a portal in the alcove:", g.open_portal("P.up=A.up"))
    print("a second portal onto the same side:", g.open_portal("g16.up=A.up"))
    g.walker = start_walker(g.atlas, "g17")
    print("from g17 walk up, up:", " -> ".join(g.go("up,up")),
          f"(frame {g.walker.frame}: the walker comes out turned round)")
    print("its view through the portal:")
    print(g.look(4))
    print("walk up (the walker's up):", " -> ".join(g.go("up")))


if __name__ == "__main__":
    main()
