"""Speed against Regular Boardgames (RBG, the fastest general game system) and Stockfish, like for like.

    python benchmarks/bench_rbg.py                     # every row, prints a Markdown section for RESULTS.md
    python benchmarks/bench_rbg.py --only checkers --rounds 1 --seconds 1 --no-long
    python benchmarks/bench_rbg.py --json out.json     # the raw figures too
    python benchmarks/bench_rbg.py --process --rounds 3  # only the whole processes: the CLI against RBG's
    python benchmarks/bench_rbg.py --process --only checkers10  # one of them (checkers10, chess6, moves_torus)

For every game both systems have (the table ROWS; a row whose game tapology's registry does not
know yet is skipped and listed, so a catalogue game added later needs only its row), in one run,
the measures interleaved (RBG, then tapology, alternating the order each round; the best of the
rounds kept, as the machine is shared):

(a) perft at a depth of a few seconds, both with the last ply counted in bulk (RBG ``perft_bulk``,
    tapology's ``count_leaves``) and with every leaf turn made (RBG ``perft``, tapology
    ``bulk=False``, ``perft --no-bulk``); tapology is timed as a library call with its tables
    already built, RBG by the time its reasoner prints (process start and compilation left out);
(b) random playouts to the end of the game for S seconds: RBG ``benchmark`` against
    :func:`tapology.rules.playouts.run_playouts` (``tapology playouts``); playouts per second and
    plies (turns made) per second, the latter like for like where the two rule sets end games
    differently (RBG's chess has the fifty-move rule, tapology's playouts leave optional rules
    out and stop at 1000 plies);
(c) chess perft 6: tapology (library and whole CLI process), RBG ``perft_bulk chess 6`` and
    ``stockfish bench 16 1 6 current perft``; and checkers perft 10 as whole processes, the CLI
    against RBG.

Ratios are RBG's time over tapology's (> 1: tapology faster).  RBG's reasoners compile on first use
(about 30 s a game, in ``~/.cache/rbg-peer``); run once before measuring.  Needs the RBG peer at
``../shared/peers/rbg`` (or ``$RBG``) and ``stockfish`` (Debian: ``apt-get install stockfish``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RBG = Path(os.environ.get("RBG", ROOT.parent.parent / "shared" / "peers" / "rbg")) / "run.sh"
if not RBG.exists():
    RBG = Path("/work/shared/peers/rbg/run.sh")
KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
KIWIPETE_RBG = HERE / "kiwipete.rbg"


@dataclass(frozen=True)
class Row:
    """One game in both systems: tapology's name (board, position) and RBG's, and the perft depth measured."""

    name: str
    game: str
    rbg: str
    depth: int
    board: str | None = None
    position: str | None = None
    same_rules: bool = True  # False: the rule sets differ (counts not compared, rates only)
    note: str = ""


ROWS = [
    Row("chess", "chess", "chess", 5),
    Row("kiwipete", "chess", str(KIWIPETE_RBG), 4, position=KIWIPETE_FEN),
    Row("checkers", "checkers", "englishDraughts", 10),
    Row("tic-tac-toe", "tictactoe", "ticTacToe", 9),
    Row("breakthrough", "breakthrough", "breakthrough", 5),
    Row("chinese checkers", "chinese-checkers-6", "chineseCheckers6", 5, same_rules=False,
        note="tapology counts the pass once, RBG once per marble lifted and put back (perft --rbg equals RBG)"),
    Row("quick chess 5x6", "chess-quick-5x6-king-capture", "chessQuick5x6_kingCapture", 7),
    Row("paper soccer", "paper-soccer", "paperSoccer", 6, same_rules=False,
        note="the same rules; from depth 5 RBG counts a bouncing turn once per order of its kicks, tapology once "
             "per result (perft --rbg equals RBG: 69,514 and 1,082,662)"),
    # catalogue games (a row whose name the registry does not know is listed as skipped)
    Row("connect four", "connect4", "connect4", 8),
    Row("reversi", "reversi", "reversi", 8),
    Row("gomoku", "gomoku-free-style", "gomoku_freeStyle", 3,
        note="perft 4 (2,495,102,400) takes RBG about a minute counted in bulk, more made"),
    Row("hex 9x9", "hex:9x9", "hex_9x9", 4),
    Row("amazons", "amazons", "amazons", 2),
    Row("fox and hounds", "fox-and-hounds", "foxAndHounds", 11),
    Row("skirmish", "skirmish", "skirmish", 5),
    Row("the mill game", "the-mill-game", "theMillGame", 5),
    Row("breakthru", "breakthru", "breakthru", 5),
    Row("knightthrough", "knightthrough", "knightthrough", 4),
    Row("gess", "gess", "gess", 3),
    Row("pentago", "pentago", "pentago", 3, same_rules=False,
        note="the same rules; RBG counts a turn per placement, quadrant and direction (perft --rbg), tapology per board"),
    Row("international draughts", "international-draughts", "internationalDraughts", 6),
    Row("canadian draughts", "canadian-draughts", "canadianDraughts", 5),
    # the rest of the catalogue (RBG's files that tapology's registry loads)
    Row("english draughts", "english-draughts", "englishDraughts", 10),
    Row("chess king capture", "chess-king-capture", "chess_kingCapture", 5),
    Row("gardner 5x5", "chess-gardner-5x5-king-capture", "chessGardner5x5_kingCapture", 7),
    Row("los alamos 6x6", "chess-los-alamos-6x6-king-capture", "chessLosAlamos6x6_kingCapture", 6),
    Row("silverman 4x5", "chess-silverman-4x5-king-capture", "chessSilverman4x5_kingCapture", 8),
    Row("double chess", "double-chess", "doubleChess", 3),
    Row("gomoku standard", "gomoku-standard", "gomoku_standard", 3,
        note="perft 4 (2,495,102,400) takes RBG about a minute counted in bulk, more made"),
    Row("hex", "hex", "hex", 3, note="11x11; perft 4 (203,889,840) takes RBG 4-7 s in bulk, several times that made"),
    Row("yavalath", "yavalath", "yavalath", 4),
    Row("connect6", "connect6", "connect6", 2, same_rules=False,
        note="the same rules; tapology counts a two-stone turn once, RBG once per order of its placements "
             "(perft --rbg equals RBG)"),
    Row("go", "go", "go", 2, note="19x19; perft 3 (47,046,242) takes RBG 5-7 s in bulk"),
    Row("go nopass", "go-nopass", "go_nopass", 2, note="19x19; perft 3 (46,655,640) takes RBG 5-7 s in bulk"),
    Row("arimaa", "arimaa", "arimaa", 4, note="perft 4 (39,180,960) is still the set-up, placements counted alike; a "
        "turn of play lists thousands of turns, tens of thousands of step sequences"),
    Row("arimaa fixed position", "arimaa-fixed-position", "arimaa_fixedPosition", 1, same_rules=False,
        note="tapology counts a turn once per result (2,467), RBG once per sequence of steps (20,652; perft --rbg "
             "equals RBG); perft 2 takes RBG half an hour"),
    # RBG's sizes of the games above (tapology's NAME:MxN)
    Row("breakthrough 5x5", "breakthrough:5x5", "breakthrough_5x5", 6),
    Row("breakthrough 6x6", "breakthrough:6x6", "breakthrough_6x6", 6),
    Row("breakthrough 7x7", "breakthrough:7x7", "breakthrough_7x7", 5),
    Row("breakthrough 9x9", "breakthrough:9x9", "breakthrough_9x9", 5),
    Row("breakthrough 10x10", "breakthrough:10x10", "breakthrough_10x10", 5),
    Row("breakthrough 11x11", "breakthrough:11x11", "breakthrough_11x11", 5),
    Row("breakthrough 12x12", "breakthrough:12x12", "breakthrough_12x12", 5),
    Row("hex 5x5", "hex:5x5", "hex_5x5", 5),
    Row("hex 6x6", "hex:6x6", "hex_6x6", 5),
    Row("hex 7x7", "hex:7x7", "hex_7x7", 4),
    Row("hex 8x8", "hex:8x8", "hex_8x8", 4),
    Row("hex 10x10", "hex:10x10", "hex_10x10", 4),
    Row("reversi 4x4", "reversi:4x4", "reversi_4x4", 13),
    Row("reversi 6x6", "reversi:6x6", "reversi_6x6", 8),
    Row("reversi 10x10", "reversi:10x10", "reversi_10x10", 8),
    Row("gomoku standard 11x11", "gomoku-standard:11x11", "gomoku_standard_11x11", 3,
        note="perft 4 (203,889,840) takes RBG 4-8 s in bulk, several times that made"),
    Row("gomoku standard 13x13", "gomoku-standard:13x13", "gomoku_standard_13x13", 3),
]


@dataclass
class Figures:
    """The best time (seconds) and what it counted, per measure and system."""

    times: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    rates: dict[str, float] = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)

    def keep(self, key: str, seconds: float, count: int | None = None) -> None:
        if key not in self.times or seconds < self.times[key]:
            self.times[key] = seconds
        if count is not None:
            if key in self.counts and self.counts[key] != count:
                raise SystemExit(f"{key}: counted {count}, then {self.counts[key]}")
            self.counts[key] = count

    def keep_rate(self, key: str, rate: float) -> None:
        self.rates[key] = max(rate, self.rates.get(key, 0.0))


# ---- RBG ----------------------------------------------------------------------------------------
def rbg(what: str, game: str, arg: int) -> tuple[str, float]:
    """RBG's output and the wall time of its process."""
    t = time.perf_counter()
    out = subprocess.run([str(RBG), what, game, str(arg)], capture_output=True, text=True, check=True,
                         cwd="/tmp").stdout
    return out, time.perf_counter() - t


def rbg_perft(game: str, depth: int, bulk: bool) -> tuple[int, float, float]:
    """(count, seconds it prints, wall seconds of the process)."""
    out, wall = rbg("perft_bulk" if bulk else "perft", game, depth)
    ms = int(re.search(r"time: (\d+) ms", out).group(1))  # type: ignore[union-attr]
    n = int(re.search(r"perft: (\d+)", out).group(1))  # type: ignore[union-attr]
    return n, ms / 1000, wall


def rbg_playouts(game: str, seconds: float) -> tuple[float, float, float]:
    """(playouts/s, plies/s, mean length)."""
    out, _ = rbg("benchmark", game, int(seconds * 1000))
    po = float(re.search(r"\(([\d.]+) playouts/sec\)", out).group(1))  # type: ignore[union-attr]
    st = float(re.search(r"\(([\d.]+) states/sec\)", out).group(1))  # type: ignore[union-attr]
    depth = float(re.search(r"depth: avg ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    return po, st, depth


# ---- tapology -----------------------------------------------------------------------------------
def tap_open(row: Row):
    from tapology.games.registry import open_position

    return open_position(row.game, row.board, row.position)


def tap_perft(game, pos, depth: int, bulk: bool) -> tuple[int, float]:
    from tapology.rules.perft import count_leaves

    t = time.perf_counter()
    n = count_leaves(game, pos, depth, bulk=bulk)
    return n, time.perf_counter() - t


def warm(game, pos, depth: int) -> str:
    """Loads the engine a perft of ``depth`` runs on (C generated for the board is compiled here on its first use,
    not in a timed count) and names it."""
    from tapology.rules import native

    chains = game.chains(pos.board)
    native.perft_engine(chains, game.codes(pos), pos.to_move, pos.ply, depth)
    kind, why = native.engine_used(chains, perft=True)
    return kind + (f" ({why})" if why else "")


def compiled(name: str, depth: int) -> None:
    """Compiles here the C generated for a shipped game's board, which the CLI's perft of ``depth`` would otherwise
    compile in a process of its own on its first run while counting on the interpreter (a cold cache after the
    engine changed): the whole-process runs then time the warm CLI, as RBG's are timed with its reasoner built."""
    from tapology.games.registry import open_position

    game, pos = open_position(name, None, None)
    before = os.environ.get("TAPOLOGY_NATIVE_SPECIALISE")
    os.environ["TAPOLOGY_NATIVE_SPECIALISE"] = "1"
    try:
        warm(game, pos, depth)
    finally:
        if before is None:
            del os.environ["TAPOLOGY_NATIVE_SPECIALISE"]
        else:
            os.environ["TAPOLOGY_NATIVE_SPECIALISE"] = before


def tap_cli(args: list[str]) -> tuple[str, float]:
    """The CLI as a whole process (start, tables, count) and its wall time, choosing its engine as it does by
    default, with its modules' bytecode cached as an installed package has it (``PYTHONDONTWRITEBYTECODE`` dropped:
    without it every start compiles the sources again, a quarter of a second)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TAPOLOGY_NATIVE_SPECIALISE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "tapology", *args], capture_output=True, text=True, check=True,
                         env=env, cwd=str(ROOT)).stdout
    return out, time.perf_counter() - t


def stockfish_perft(depth: int) -> tuple[int, float, str] | None:
    """Stockfish's perft: (nodes, seconds, the version its banner names)."""
    exe = shutil.which("stockfish") or ("/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None)
    if exe is None:
        return None
    got = subprocess.run([exe, "bench", "16", "1", str(depth), "current", "perft"], capture_output=True, text=True,
                         check=True)
    text = got.stdout + got.stderr
    ms = min(int(m) for m in re.findall(r"Total time \(ms\)\s*:\s*(\d+)", text))
    n = int(re.findall(r"Nodes searched\s*:\s*(\d+)", text)[-1])
    version = re.search(r"Stockfish (\S+)", text)
    return n, ms / 1000, version.group(1) if version else "?"


# ---- the run ------------------------------------------------------------------------------------
def interleave(rounds: int, pair: list[Callable[[], None]]) -> None:
    """Each measure of a pair once per round, the order swapped every round."""
    for r in range(rounds):
        for fn in (pair if r % 2 == 0 else pair[::-1]):
            fn()


def measure_row(row: Row, rounds: int, seconds: float) -> Figures:
    from tapology.rules.playouts import run_playouts

    fig = Figures()
    t = time.perf_counter()
    game, pos = tap_open(row)
    tap_perft(game, pos, 1, True)  # the tables, built once per board, are not part of the count's time
    fig.extra["tables_seconds"] = time.perf_counter() - t
    fig.extra["tap_perft_engine"] = warm(game, pos, row.depth)
    for bulk in (True, False):
        tag = "bulk" if bulk else "made"

        def r_run(bulk: bool = bulk, tag: str = tag) -> None:
            n, s, _wall = rbg_perft(row.rbg, row.depth, bulk)
            fig.keep(f"rbg_{tag}", s, n)

        def t_run(bulk: bool = bulk, tag: str = tag) -> None:
            n, s = tap_perft(game, pos, row.depth, bulk)
            fig.keep(f"tap_{tag}", s, n)

        interleave(rounds, [r_run, t_run])

    def r_play() -> None:
        po, st, depth = rbg_playouts(row.rbg, seconds)
        fig.keep_rate("rbg_playouts", po)
        fig.keep_rate("rbg_plies", st)
        fig.extra["rbg_length"] = depth

    def t_play() -> None:
        run = run_playouts(game, pos, seconds=seconds, seed=1)
        fig.keep_rate("tap_playouts", run.rate)
        fig.keep_rate("tap_plies", run.ply_rate)
        fig.extra["tap_length"] = run.plies / max(run.playouts, 1)
        fig.extra["tap_capped"] = run.capped / max(run.playouts, 1)
        fig.extra["tap_engine"] = run.engine

    interleave(rounds, [r_play, t_play])
    return fig


def measure_long(rounds: int) -> dict[str, object]:
    """(c): chess perft 6 against RBG and Stockfish; checkers perft 10 and chess perft 6 as whole processes."""
    out: dict[str, object] = {}
    game, pos = tap_open(ROWS[0])
    tap_perft(game, pos, 1, True)
    out["tap_chess6_engine"] = warm(game, pos, 6)
    best: dict[str, float] = {}

    def keep(k: str, v: float) -> None:
        best[k] = min(v, best.get(k, float("inf")))

    def sf() -> None:
        got = stockfish_perft(6)
        if got is not None:
            out["stockfish_nodes"] = got[0]
            out["stockfish_version"] = got[2]
            keep("stockfish", got[1])

    def rb() -> None:
        n, s, wall = rbg_perft("chess", 6, True)
        out["rbg_nodes"] = n
        keep("rbg_chess6", s)
        keep("rbg_chess6_process", wall)

    def tp() -> None:
        n, s = tap_perft(game, pos, 6, True)
        out["tap_nodes"] = n
        keep("tap_chess6", s)

    interleave(rounds, [rb, tp, sf])
    out.update(best)
    out.update(measure_process(rounds))
    return out


PROCESS_RUNS = [  # (key, RBG's game and depth or None, the tapology command)
    ("checkers10", ("englishDraughts", 10), ["perft", "checkers", "--depth", "10"]),
    ("chess6", ("chess", 6), ["perft", "chess", "--depth", "6"]),
    ("moves_torus", None, ["moves", "chess", "--board", "torus:12x8"]),
]


def measure_process(rounds: int, only: list[str] | None = None) -> dict[str, object]:
    """Whole processes (start, tables, count), wall time: RBG ``perft_bulk`` against the tapology CLI, each pair
    interleaved over ``rounds`` (order swapped every round), the best kept; every command run once before, untimed
    (its tables and generated C in the caches, its bytecode written)."""
    out: dict[str, object] = {}

    def keep(k: str, v: float) -> None:
        out[k] = min(v, float(out.get(k, float("inf"))))  # type: ignore[arg-type]

    for key, peer, args in PROCESS_RUNS:
        if only and key not in only:
            continue
        print(f"… whole process: tapology {' '.join(args)}", file=sys.stderr, flush=True)
        if args[0] == "perft":
            compiled(args[1], int(args[-1]))
        tap_cli(args)

        def tap(key: str = key, args: list[str] = args) -> None:
            text, wall = tap_cli(args)
            out[f"tap_cli_{key}_text"] = text.strip().splitlines()[-2:] if key != "moves_torus" else \
                f"{len(text.splitlines())} lines"
            keep(f"tap_{key}_process", wall)

        if peer is None:
            interleave(rounds, [tap])
            continue
        rbg_perft(peer[0], peer[1], True)

        def rb(key: str = key, peer: tuple[str, int] = peer) -> None:
            n, _s, wall = rbg_perft(peer[0], peer[1], True)
            out[f"rbg_{key}_nodes"] = n
            keep(f"rbg_{key}_process", wall)

        interleave(rounds, [rb, tap])
    return out


def process_report(got: dict[str, object], meta: dict[str, object]) -> str:
    """The whole-process table (Markdown)."""
    def ms(k: str) -> str:
        return _ms(got.get(k))  # type: ignore[arg-type]

    lines = [f"Whole processes ({meta['when']}; {meta['machine']}; load average {meta['load_before']} before, "
             f"{meta['load_after']} after; interleaved, best of {meta['rounds']} rounds):", "",
             "| whole process (start, tables, count) | RBG | tapology CLI | ratio |", "|---|---|---|---|"]
    for key, peer, args in PROCESS_RUNS:
        r, t = got.get(f"rbg_{key}_process"), got.get(f"tap_{key}_process")
        if t is None:
            continue
        what = f"`{' '.join(args)}`" + (f" (RBG `perft_bulk {peer[0]} {peer[1]}`)" if peer else "")
        lines.append(f"| {what} | {ms(f'rbg_{key}_process') if peer else '–'} | {ms(f'tap_{key}_process')} | "
                     f"{_ratio(r, t) if peer else '–'} |")  # type: ignore[arg-type]
    return "\n".join(lines) + "\n"


def _ratio(a: float | None, b: float | None, mark: str = "") -> str:
    if not a or not b:
        return "–"
    return f"{a / b:.2f}×{mark}"


def _perft_ratio(f: Figures, tag: str) -> str:
    """RBG's time over tapology's; where the counts differ (other rules), leaf turns per second over RBG's (†)."""
    t, c = f.times, f.counts
    rt, tt, rc, tc = t.get(f"rbg_{tag}"), t.get(f"tap_{tag}"), c.get(f"rbg_{tag}"), c.get(f"tap_{tag}")
    if not rt or not tt or not rc or not tc:
        return "–"
    if rc == tc:
        return _ratio(rt, tt)
    return _ratio(tc / tt, rc / rt, "†")


def _ms(s: float | None) -> str:
    return "–" if s is None else f"{s * 1000:,.0f} ms"


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def report(results: dict[str, Figures], rows: list[Row], skipped: list[Row], long: dict[str, object] | None,
           meta: dict[str, object]) -> str:
    lines = ["## Against RBG and Stockfish", "",
             f"`python benchmarks/bench_rbg.py` ({meta['when']}; {meta['machine']}; load average {meta['load_before']} "
             f"before, {meta['load_after']} after: the machine is shared with other work, so each pair of measures "
             f"is interleaved and the best of {meta['rounds']} rounds kept).  Ratios are RBG's time (or rate) against "
             "tapology's: above 1, tapology is faster.  tapology: library calls with the tables built (*open*: "
             "opening the game and its tables, read back from the disk cache, once per board and process); RBG: the "
             "times its reasoner prints; C generated for each board (*native-specialised*, `--engine specialised`) is "
             "compiled once, before the timed runs, as RBG compiles its reasoners; the CLI runs pick their engine as "
             "they do by default.  *made*: every leaf turn made (RBG `perft`, `tapology perft --no-bulk`); "
             "*bulk*: the last ply counted (RBG `perft_bulk`, `tapology perft`).", "",
             "| game | perft | count | RBG bulk | tapology bulk | ratio | RBG made | tapology made | ratio | "
             "RBG playouts/s | tapology playouts/s | ratio | RBG plies/s | tapology plies/s | ratio | open |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    notes = []
    for row in rows:
        f = results[row.name]
        t, c, r = f.times, f.counts, f.rates
        same = c.get("rbg_bulk") == c.get("tap_bulk") == c.get("rbg_made") == c.get("tap_made")
        count = f"{c.get('tap_bulk', 0):,}" if same else f"{c.get('tap_bulk', 0):,} (RBG {c.get('rbg_bulk', 0):,})"
        if not same and row.same_rules:
            notes.append(f"{row.name}: the counts differ (tapology {c.get('tap_bulk')}, RBG {c.get('rbg_bulk')})")
        lines.append(
            f"| {row.name} | {row.depth} | {count} | {_ms(t.get('rbg_bulk'))} | {_ms(t.get('tap_bulk'))} | "
            f"{_perft_ratio(f, 'bulk')} | {_ms(t.get('rbg_made'))} | {_ms(t.get('tap_made'))} | "
            f"{_perft_ratio(f, 'made')} | {r.get('rbg_playouts', 0):,.0f} | "
            f"{r.get('tap_playouts', 0):,.0f} | {_ratio(r.get('tap_playouts'), r.get('rbg_playouts'))} | "
            f"{r.get('rbg_plies', 0):,.0f} | {r.get('tap_plies', 0):,.0f} | "
            f"{_ratio(r.get('tap_plies'), r.get('rbg_plies'))} | {float(f.extra['tables_seconds']):.2f} s |")
        notes.append(f"{row.name}: tapology's perft on {f.extra.get('tap_perft_engine')}, playouts on "
                     f"{f.extra.get('tap_engine')}; mean playout {f.extra.get('tap_length', 0):.1f} plies in tapology "
                     f"({100 * float(f.extra.get('tap_capped', 0)):.0f}% stopped at 1000 plies), "
                     f"{f.extra.get('rbg_length', 0):.1f} in RBG" + (f"; {row.note}" if row.note else ""))
    lines.append("")
    lines.append("- † the rule sets differ (so do the counts): leaf turns per second, tapology's over RBG's")
    lines.extend(f"- {n}" for n in notes)
    if skipped:
        lines.append(f"- not in tapology's registry yet (rows kept for the catalogue): "
                     f"{', '.join(r.name for r in skipped)}")
    if long:
        lines += ["", "| chess perft 6 (119,060,324) | time | tapology's speed against it |", "|---|---|---|",
                  f"| tapology, library ({long.get('tap_chess6_engine')}) | {_ms(long.get('tap_chess6'))} | 1 |",  # type: ignore[arg-type]
                  f"| RBG perft_bulk | {_ms(long.get('rbg_chess6'))} | "  # type: ignore[arg-type]
                  f"{_ratio(long.get('rbg_chess6'), long.get('tap_chess6'))} |",  # type: ignore[arg-type]
                  f"| Stockfish {long.get('stockfish_version', '?')} `bench 16 1 6 current perft` | "
                  f"{_ms(long.get('stockfish'))} | "  # type: ignore[arg-type]
                  f"{_ratio(long.get('stockfish'), long.get('tap_chess6'))} |",  # type: ignore[arg-type]
                  "", process_report(long, meta).rstrip("\n")]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", help="rows by name (repeatable); with --process: checkers10, chess6, "
                                                    "moves_torus")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=2.0, help="playout time per system and round")
    ap.add_argument("--no-long", action="store_true", help="leave out chess perft 6 and the whole-process runs")
    ap.add_argument("--process", action="store_true", help="only the whole-process runs (the CLI against RBG's "
                                                                "process: checkers perft 10, chess perft 6, moves on "
                                                                "chess torus:12x8)")
    ap.add_argument("--json", type=Path, help="write the raw figures here too")
    ap.add_argument("--engine", choices=("specialised", "auto"), default="specialised",
                    help="library calls on C generated for each board, as RBG compiles each game (default), or on "
                         "the engine tapology picks by the job's size (the CLI runs always do)")
    args = ap.parse_args(argv)
    os.environ["TAPOLOGY_NATIVE_SPECIALISE"] = "1" if args.engine == "specialised" else "auto"
    sys.path.insert(0, str(ROOT))
    from tapology.errors import TapologyError
    from tapology.rules import native

    if not native.available():
        raise SystemExit(f"the native engine does not run here: {native.reason()}")
    if not RBG.exists():
        raise SystemExit(f"no RBG peer at {RBG}")
    meta: dict[str, object] = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                               "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                                          f"{platform.python_version()}",
                               "load_before": load(), "rounds": args.rounds}
    if args.process:
        got = measure_process(args.rounds, args.only)
        meta["load_after"] = load()
        print(process_report(got, meta))
        if args.json:
            args.json.write_text(json.dumps({"meta": meta, "process": got}, indent=1, default=str))
        return
    rows, skipped = [], []
    for row in ROWS:
        if args.only and row.name not in args.only:
            continue
        try:
            tap_open(row)
        except TapologyError:
            skipped.append(row)
            continue
        rows.append(row)
    results: dict[str, Figures] = {}
    for row in rows:
        print(f"… {row.name}", file=sys.stderr, flush=True)
        results[row.name] = measure_row(row, args.rounds, args.seconds)
        print(f"  {vars(results[row.name])}", file=sys.stderr, flush=True)  # a long run's figures so far
    long = None
    if not args.no_long:
        print("… chess perft 6, checkers perft 10", file=sys.stderr, flush=True)
        long = measure_long(args.rounds)
    meta["load_after"] = load()
    text = report(results, rows, skipped, long, meta)
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "rows": {k: vars(v) for k, v in results.items()},
                                         "long": long}, indent=1, default=str))


if __name__ == "__main__":
    main()
