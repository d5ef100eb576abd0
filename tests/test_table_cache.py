"""The disk cache of compiled tables (tapology.rules.cache): the same turns and counts read back as built, a changed
rule file or board misses it, a corrupt entry is ignored, writers never leave half a file."""

from __future__ import annotations

import copy
import os
import pickle
import random
import threading
from pathlib import Path

import pytest

from tapology.games.registry import DATA, open_game
from tapology.rules import cache, native
from tapology.rules.engine import RuleGame
from tapology.rules.parse import load_rules as load_rule_file
from tapology.rules.perft import count_leaves


@pytest.fixture
def tmp_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    native.available()  # the compiled engine stays where it is: only the tables go to the temporary cache
    monkeypatch.setenv("TAPOLOGY_CACHE", str(tmp_path))
    monkeypatch.delenv("TAPOLOGY_TABLE_CACHE", raising=False)
    return tmp_path / "tables"


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle")) if folder.exists() else []


def _turn_sets(game: RuleGame, seed: int, plies: int = 12) -> list[list[str]]:
    """The turn labels along a random game (the same game whatever the tables' origin)."""
    rng = random.Random(seed)
    pos = game.initial()
    out = []
    for _ in range(plies):
        turns = game.turns(pos)
        out.append([t.label for t in turns])
        if not turns:
            break
        pos = turns[rng.randrange(len(turns))].result
    return out


def _warm(game: RuleGame) -> None:
    native.engine(game.chains(game.board))  # every table built, and stored


@pytest.mark.parametrize(("name", "board", "depth"), [("chess", "torus:8x8", 2), ("checkers", None, 5),
                                                      ("chinese-checkers", None, 3), ("tictactoe", None, 5),
                                                      # line captures, captures by liberties, linked placements
                                                      ("reversi", None, 4), ("go-nopass:5x5", None, 2),
                                                      ("connect6:7x7", None, 2)])
def test_cached_tables_give_the_same_answers(tmp_cache: Path, name: str, board: str | None, depth: int) -> None:
    first = open_game(name, board)
    assert first.compiled(first.board).cache_key is None  # nothing on disk yet: the answers below come from built tables
    want_perft = count_leaves(first, first.initial(), depth)
    want_turns = _turn_sets(first, 3)
    _warm(first)
    assert len(_entries(tmp_cache)) == 1
    again = open_game(name, board)
    comp = again.compiled(again.board)
    assert comp.cache_key is not None and comp.native_tables is not None  # read back
    assert native.ready(again.chains(again.board)) == native.available()
    assert count_leaves(again, again.initial(), depth) == want_perft
    assert count_leaves(again, again.initial(), depth, native=False) == want_perft
    assert _turn_sets(again, 3) == want_turns
    assert len(_entries(tmp_cache)) == 1


def test_a_changed_rule_file_misses_the_cache(tmp_cache: Path, tmp_path: Path) -> None:
    src = (DATA / "checkers.toml").read_text()
    path = tmp_path / "mine.toml"
    path.write_text(src)
    g = RuleGame(load_rule_file(path))
    _warm(g)
    assert len(_entries(tmp_cache)) == 1
    assert RuleGame(load_rule_file(path)).compiled(g.board).cache_key is not None
    path.write_text(src.replace('name = "checkers"', 'name = "checkers, changed"', 1))
    changed = RuleGame(load_rule_file(path))
    assert changed.name != g.name
    assert changed.compiled(changed.board).cache_key is None
    _warm(changed)
    assert len(_entries(tmp_cache)) == 2
    # another board of the same rules is another entry too
    other = RuleGame(load_rule_file(path), "cylinder:8x8")
    assert other.compiled(other.board).cache_key is None


def test_a_corrupt_entry_is_ignored_and_written_anew(tmp_cache: Path) -> None:
    g = open_game("checkers")
    _warm(g)
    (entry,) = _entries(tmp_cache)
    for junk in (b"", b"not a pickle", entry.read_bytes()[:1000]):
        entry.write_bytes(junk)
        again = open_game("checkers")
        assert again.compiled(again.board).cache_key is None
        assert count_leaves(again, again.initial(), 4) == 1469
        _warm(again)
        assert open_game("checkers").compiled(g.board).cache_key is not None


def test_the_cache_can_be_turned_off_or_read_only(tmp_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAPOLOGY_TABLE_CACHE", "0")
    _warm(open_game("tictactoe"))
    assert _entries(tmp_cache) == []
    monkeypatch.delenv("TAPOLOGY_TABLE_CACHE")
    tmp_cache.parent.mkdir(exist_ok=True)
    tmp_cache.write_text("a file where the folder should be")  # the entry cannot be written: the run goes on
    g = open_game("tictactoe")
    _warm(g)
    assert count_leaves(g, g.initial(), 3) == 504


def test_concurrent_writers_leave_a_whole_entry(tmp_cache: Path) -> None:
    g = open_game("checkers")
    _warm(g)
    comp = g.compiled(g.board)
    threads = [threading.Thread(target=cache.store, args=(comp, comp.native_tables)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(_entries(tmp_cache)) == 1
    assert not list(tmp_cache.glob(".tmp-*"))
    again = open_game("checkers")
    assert again.compiled(again.board).cache_key is not None
    assert count_leaves(again, again.initial(), 4) == 1469


def test_cache_folder_honours_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("TAPOLOGY_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_root() == tmp_path / "tapology"
    monkeypatch.setenv("TAPOLOGY_CACHE", str(tmp_path / "x"))
    assert cache.cache_root() == tmp_path / "x"


def test_commands_build_the_tables_once_then_read_them(tmp_cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A command builds a board's tables once (perft's estimate and count share them); the next commands read them
    from the disk cache: no table built, no move placed anew."""
    from tapology import parallel
    from tapology.cli import main
    from tapology.rules.compiled import Compiled
    from tapology.rules.native import tables

    built: list[str] = []
    build, place = tables.build, Compiled._build
    monkeypatch.setattr(tables, "build", lambda chains: built.append("native") or build(chains))
    monkeypatch.setattr(Compiled, "_build", lambda self, *a: built.append("move") or place(self, *a))
    monkeypatch.setattr(parallel, "_CACHE", {})  # no game kept from another test
    assert main(["perft", "checkers", "--depth", "5", "--workers", "1"]) == 0
    assert built.count("native") == 1 and "move" in built
    assert len(_entries(tmp_cache)) == 1
    built.clear()
    for argv in (["perft", "checkers", "--depth", "5"], ["moves", "checkers"], ["playouts", "checkers", "--count", "2"]):
        parallel._CACHE.clear()  # as a new process: the game opened anew
        assert main(argv) == 0
        assert built == [], argv
    assert capsys.readouterr().out.count("perft 5: 7361 ") == 2


def test_charts_read_back_as_closed_and_keyed_by_board(tmp_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's charts are written once and read back equal to a fresh closure; another board (or a board with
    another gluing) is another entry; a corrupt entry is closed anew; TAPOLOGY_TABLE_CACHE=0 writes nothing."""
    import numpy as np

    from tapology.model.atlas import Atlas
    from tapology.model.builtins import builtin_board

    folder = tmp_cache.parent / "charts"
    dom = load_rule_file(DATA / "checkers.toml").domain
    plane, torus = builtin_board("plane:8x8", dom), builtin_board("torus:8x8", dom)
    first = cache.charted(plane)
    (entry,) = sorted(folder.glob("*.pickle"))
    with monkeypatch.context() as m:
        m.setattr(Atlas, "of", lambda *a, **k: pytest.fail("closed again"))
        again = cache.charted(plane)  # read back: no closure
    assert np.array_equal(again.chart, first.chart)
    assert np.array_equal(again.chart, Atlas.of(plane).chart) and again.board() == plane
    other = cache.charted(torus)
    assert len(list(folder.glob("*.pickle"))) == 2 and np.array_equal(other.chart, Atlas.of(torus).chart)
    assert not np.array_equal(other.chart, first.chart)
    assert cache.charts_key(plane) != cache.charts_key(torus)
    entry.write_bytes(b"not a pickle")
    assert np.array_equal(cache.charted(plane).chart, first.chart)
    monkeypatch.setenv("TAPOLOGY_TABLE_CACHE", "0")
    cache.charted(builtin_board("cylinder:8x8", dom))
    assert len(list(folder.glob("*.pickle"))) == 2



def test_reading_an_entry_keeps_it_and_the_least_used_go_first(tmp_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = []
    for name in ("tictactoe", "connect4"):
        g = open_game(name)
        _warm(g)
        paths.append(tmp_cache / f"{g.compiled(g.board).cache_key}.pickle")
    read, other = paths
    assert sorted(_entries(tmp_cache)) == sorted(paths)
    for e in paths:
        os.utime(e, (1_000_000, 1_000_000))  # both written long ago
    again = open_game("tictactoe")
    assert again.compiled(again.board).cache_key is not None and read.stat().st_mtime > 1_000_000  # read: just used
    monkeypatch.setattr(cache, "LIMIT_BYTES", read.stat().st_size + other.stat().st_size - 1)
    cache._trim(tmp_cache)
    assert _entries(tmp_cache) == [read]  # the entry not read went first


def test_restored_applications_are_made_when_read(tmp_cache: Path) -> None:
    first = open_game("checkers")
    _warm(first)
    built = first.compiled(first.board)
    again = open_game("checkers")
    comp = again.compiled(again.board)
    apps = comp.apps
    assert isinstance(apps, cache.StoredApps) and comp.stored_keys is not None  # nothing unpickled yet
    assert apps[7] == built.apps[7] and apps[-1] == built.apps[-1] and apps[2:4] == built.apps[2:4]
    assert isinstance(comp.apps, cache.StoredApps)  # a few read: still made one by one
    assert count_leaves(again, again.initial(), 4, native=False) == count_leaves(first, first.initial(), 4,
                                                                                 native=False)
    assert type(comp.apps) is list and comp.apps == built.apps  # the Python walk read many: a plain list again
    assert list(apps) == built.apps and len(apps) == len(built.apps)
    assert comp.placed() == built.placed() and comp.stored_keys is None
    again = open_game("checkers")
    apps = again.compiled(again.board).apps
    assert isinstance(apps, cache.StoredApps)
    assert copy.deepcopy(apps) == pickle.loads(pickle.dumps(apps)) == built.apps  # copied as a plain list
    assert type(again.compiled(again.board).apps) is list  # all made: the compiled board holds the plain list


def test_listing_a_restored_position_reads_few_applications(tmp_cache: Path) -> None:
    first = open_game("checkers")
    _warm(first)
    want = [t.label for t in first.turns(first.initial())]
    again = open_game("checkers")
    native.engine(again.chains(again.board))  # what 'moves' does
    assert [t.label for t in again.turns(again.initial())] == want
    comp = again.compiled(again.board)
    if native.available():  # the native engine lists the turns: the Python tables are barely read
        assert isinstance(comp.apps, cache.StoredApps) and comp.stored_keys is not None


def test_long_values_the_applications_share_are_stored_once(tmp_cache: Path) -> None:
    """arimaa's steps link to every tile: each application's links hold the same long list of targets, which a row
    pickled on its own wrote out again (some 80 kB a row, 1.2 GB for the board's 15,000 rows)."""
    first = open_game("arimaa-fixed-position")
    _warm(first)
    built = first.compiled(first.board)
    (entry,) = _entries(tmp_cache)
    assert entry.stat().st_size < 30 << 20
    again = open_game("arimaa-fixed-position")
    apps = again.compiled(again.board).apps
    assert isinstance(apps, cache.StoredApps)
    sample = range(0, len(built.apps), 97)
    assert [apps[i] for i in sample] == [built.apps[i] for i in sample]
    long = [i for i in sample if any(len(t) >= cache.SHARED_LEN for _, t in apps[i].link_keys)]
    assert len(long) >= 2 and apps[long[0]].link_keys[0][1] is apps[long[1]].link_keys[0][1]  # one object again


def test_the_generated_module_is_noted_by_the_tables_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The name the cache notes for a board's generated C is the one the generator's hash gives (a later process loads
    it by that name, without the generator)."""
    from tapology.rules.native import build, specialise

    monkeypatch.setenv("TAPOLOGY_NATIVE_SPECIALISE", "1")
    g = open_game("tictactoe")  # a new game: its board's engines are made again in this process
    chains = g.chains(g.initial().board)
    eng = native.engine(chains)  # compiled into the user's cache once per engine version (seconds), else loaded
    assert eng is not None and eng.kind == "native-specialised", native.why_not_specialised(chains)
    key = chains.comp.cache_key
    assert key is not None and build.noted(key) == specialise.module_name(chains.comp.native_tables)


def test_a_noted_module_is_read_back_only_while_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tapology.rules.native import build

    monkeypatch.setenv("TAPOLOGY_CACHE", str(tmp_path))
    monkeypatch.delenv("TAPOLOGY_NATIVE_CFLAGS", raising=False)
    name = "_tapology_spec_" + "0" * 24
    assert build.noted("k") is None  # nothing noted
    build.note("k", name)
    assert build.noted("k") is None  # noted, not compiled (removed, or never written)
    build.built_path(name).write_bytes(b"")
    assert build.noted("k") == name and build.noted("other") is None
    monkeypatch.setenv("TAPOLOGY_NATIVE_CFLAGS", "-O0")  # other flags: another module
    assert build.noted("k") is None
    monkeypatch.delenv("TAPOLOGY_NATIVE_CFLAGS")
    next(tmp_path.glob("native/*.name")).write_text("_tapology_spec_../../x")  # not a module's name: ignored
    assert build.noted("k") is None
