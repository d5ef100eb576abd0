"""``python -m tapology``: the command line."""

from tapology.cli import run

if __name__ == "__main__":
    run()
