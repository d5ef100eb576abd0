"""``python -m tests.golden [--update]``: list the golden files that differ, or rewrite them all."""

from __future__ import annotations

import sys

from tests.golden import differences, update


def main(argv: list[str]) -> int:
    if argv == ["--update"]:
        changed = update()
        if not changed:
            print("golden files unchanged")
            return 0
        for name, diff in changed.items():
            print(f"changed: {name}\n{diff}")
        print(f"{len(changed)} golden files rewritten: read the diff above, then run without --update")
        return 1
    if argv:
        print("usage: python -m tests.golden [--update]", file=sys.stderr)
        return 2
    bad = differences()
    print("\n".join(bad) if bad else "golden files agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
