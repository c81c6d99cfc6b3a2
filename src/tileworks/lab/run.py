"""Playing a study: every cell's games, in local processes or on Ray, into DuckDB.

Results go to ``OUT/results.duckdb``, one row per game (table ``games``),
which a designer can query with SQL, and at the end of a run to
``OUT/games.parquet`` for pandas and friends. Each finished game is first
appended to ``OUT/journal.jsonl`` (a write-ahead log, a line per game) and
then moved into DuckDB in batches, so a run killed at any moment loses
only the games still being played: run again with the same ``OUT`` and it
plays exactly the games that are missing, and counts none twice (the
store's key is the cell and the game's index).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tileworks
from tileworks.arena.playing import play_seeded
from tileworks.arena.runners import make_runner
from tileworks.lab.study import Cell, Study, StudyError

LAB_MISSING = "the balance lab needs DuckDB, pyarrow, matplotlib, SciPy and statsmodels; install them with: pip install 'tileworks[lab]'"

#: the results table, one row per game: each column's name, DuckDB type and meaning
FIELDS = (
    ("cell", "INTEGER", "the cell's number in the study (see study.json)"),
    ("cell_key", "VARCHAR", "the cell's grid values and line-up, e.g. 'goal=12 | all greedy'"),
    ("game_index", "INTEGER", "the game's index in its cell"),
    ("seed", "BIGINT", "replays the game alone (tileworks study replay)"),
    ("lineup", "VARCHAR", "the line-up's name"),
    ("options", "VARCHAR", "the cell's game options, as JSON"),
    ("players", "INTEGER", "the player count"),
    ("agents", "VARCHAR[]", "the agent spec in each seat"),
    ("scores", "DOUBLE[]", "each seat's final score"),
    ("returns", "DOUBLE[]", "1 for a sole winner, 1/k for k tied winners"),
    ("winners", "INTEGER[]", "the winning seats (0-based)"),
    ("decisions", "INTEGER", "decisions in the game"),
    ("turns", "INTEGER", "turns: runs of decisions by one seat"),
    ("trajectory", "DOUBLE[][]", "every seat's score at the end of each turn"),
    ("first_player", "INTEGER", "the seat that made the first decision"),
    ("choices", "INTEGER[]", "the number of legal actions at each decision (1: a forced move)"),
    ("seconds", "DOUBLE", "time the game took to play (not part of the result)"),
)
COLUMNS = tuple(name for name, _, _ in FIELDS)
SCHEMA = ("CREATE TABLE IF NOT EXISTS games (\n"
          + "".join(f"    {name} {kind} NOT NULL,  -- {meaning}\n" for name, kind, meaning in FIELDS)
          + "    PRIMARY KEY (cell_key, game_index)\n)")


def _duckdb():
    try:
        import duckdb
    except ImportError:
        raise StudyError(LAB_MISSING) from None
    return duckdb


@functools.cache
def _arrow_schema():
    """The results table's columns as an Arrow schema (from :data:`FIELDS`)."""
    import pyarrow as pa

    scalar = {"INTEGER": pa.int32(), "BIGINT": pa.int64(), "VARCHAR": pa.string(), "DOUBLE": pa.float64()}

    def arrow(kind: str):
        return pa.list_(arrow(kind[:-2])) if kind.endswith("[]") else scalar[kind]

    return pa.schema([(name, arrow(kind)) for name, kind, _ in FIELDS])


def _arrow_table(rows: list[dict[str, Any]]):
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=_arrow_schema())


@dataclass(frozen=True)
class Job:
    """Some games of one cell, played in one task."""

    game: str
    options: dict[str, Any]
    cell: int
    cell_key: str
    lineup: str
    games: tuple[tuple[int, int, tuple[str, ...]], ...]  # (index, seed, seat specs)


def play_job(job: Job) -> list[dict[str, Any]]:
    """Play a job's games; one result row each."""
    game = tileworks.load_game(job.game, **job.options)
    options = json.dumps({k: list(v) if isinstance(v, tuple) else v for k, v in job.options.items()}, sort_keys=True)
    rows = []
    for index, seed, specs in job.games:
        started = time.perf_counter()
        played = play_seeded(game, list(specs), seed)
        state = played.state
        returns = state.returns()
        top = max(returns)
        rows.append({
            "cell": job.cell, "cell_key": job.cell_key, "game_index": index, "seed": seed, "lineup": job.lineup,
            "options": options, "players": len(specs), "agents": list(specs),
            "scores": [float(s) for s in state.scores()], "returns": [float(r) for r in returns],
            "winners": [seat for seat, r in enumerate(returns) if top > 0 and r == top],
            "decisions": played.decisions, "turns": played.turns, "trajectory": played.trajectory,
            "first_player": played.first_player, "choices": played.choices,
            "seconds": time.perf_counter() - started,
        })
    return rows


def _columns(db) -> set[str]:
    """The columns the stored ``games`` table has (older stores lack the newer ones)."""
    return {name for (name,) in db.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'games'").fetchall()}


def _add_first_player(db, game_name: str) -> None:
    """Results stored before the ``first_player`` column get it, found from
    each game's set-up (its seed fixes the chance that picks the first player)."""
    if "first_player" in _columns(db):
        return
    from tileworks.arena.playing import first_mover

    import pyarrow as pa

    games: dict[str, Any] = {}
    found: dict[str, list[Any]] = {"cell_key": [], "game_index": [], "first_player": []}
    for options, seed, index, key in db.execute("SELECT options, seed, game_index, cell_key FROM games").fetchall():
        game = games.get(options) or games.setdefault(options, tileworks.load_game(game_name, **json.loads(options)))
        found["cell_key"].append(key)
        found["game_index"].append(index)
        found["first_player"].append(first_mover(game, seed))
    db.execute("ALTER TABLE games ADD COLUMN first_player INTEGER")
    db.register("found", pa.table(found))
    db.execute("UPDATE games SET first_player = found.first_player FROM found "
               "WHERE games.cell_key = found.cell_key AND games.game_index = found.game_index")
    db.unregister("found")


def _add_choices(db) -> None:
    """Results stored before the ``choices`` column get it, empty (NULL):
    the complexity measures count only the games that recorded it."""
    if "choices" not in _columns(db):
        db.execute("ALTER TABLE games ADD COLUMN choices INTEGER[]")


class ResultStore:
    """A study's results folder: ``study.json``, the DuckDB file and the journal."""

    FLUSH_SECONDS = 2.0

    def __init__(self, out: Path, study: Study):
        duckdb = _duckdb()
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        described = study.describe()
        saved = self.out / "study.json"
        if saved.exists():
            before = json.loads(saved.read_text(encoding="utf-8"))
            if before.get("fingerprint") != described["fingerprint"]:
                raise StudyError(f"{self.out} holds the results of another study ({before.get('title') or before.get('game')}); "
                                 "its games, options, line-ups or seed differ: choose another --out")
        saved.write_text(json.dumps(described, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        try:
            self.db = duckdb.connect(str(self.out / "results.duckdb"))
        except duckdb.IOException as exc:
            raise StudyError(f"cannot open {self.out / 'results.duckdb'} (is another run using it?): {exc}") from None
        self.db.execute(SCHEMA)
        _add_first_player(self.db, study.game)
        _add_choices(self.db)
        self.journal_path = self.out / "journal.jsonl"
        self.pending: list[dict[str, Any]] = []
        self._fold_journal()
        self.journal = self.journal_path.open("a", encoding="utf-8")
        self.last_flush = time.monotonic()

    def _fold_journal(self) -> None:
        """Move the games a killed run left in the journal into DuckDB (a line
        cut short by the kill is a game not finished: it is played again)."""
        if not self.journal_path.exists():
            return
        for line in self.journal_path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and set(COLUMNS) <= set(row):
                self.pending.append(row)
        self._insert()
        self.journal_path.write_text("", encoding="utf-8")

    def done(self) -> dict[str, set[int]]:
        """The game indices already stored, by cell key."""
        finished: dict[str, set[int]] = {}
        for key, index in self.db.execute("SELECT cell_key, game_index FROM games").fetchall():
            finished.setdefault(key, set()).add(index)
        return finished

    def add(self, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            self.journal.write(json.dumps(row) + "\n")
        self.journal.flush()
        self.pending.extend(rows)
        if time.monotonic() - self.last_flush > self.FLUSH_SECONDS:
            self.flush()

    def _insert(self) -> None:
        # through Arrow: DuckDB binds Python parameters row by row, which
        # costs milliseconds a game with nested lists; a table costs microseconds
        if self.pending:
            table = _arrow_table(self.pending)
            self.db.register("batch", table)
            self.db.execute(f"INSERT OR IGNORE INTO games SELECT {', '.join(COLUMNS)} FROM batch")
            self.db.unregister("batch")
            self.pending.clear()

    def flush(self) -> None:
        """Commit the journal's games to DuckDB, then empty the journal."""
        self._insert()
        self.journal.truncate(0)
        self.journal.seek(0)
        self.last_flush = time.monotonic()

    def main_rows(self) -> Iterator[tuple[str, int, dict[str, Any]]]:
        """Each stored game's key, index and what the stopping rule reads."""
        self.flush()
        for key, index, agents, winners, scores, first in self.db.execute(
                "SELECT cell_key, game_index, agents, winners, scores, first_player FROM games").fetchall():
            yield key, index, {"agents": agents, "winners": winners, "scores": scores, "first_player": first}

    def export_parquet(self) -> Path:
        path = self.out / "games.parquet"
        self.db.execute(f"COPY (SELECT * FROM games ORDER BY cell, game_index) TO '{path}' (FORMAT parquet)")
        return path

    def close(self) -> None:
        self.flush()
        self.journal.close()
        self.db.close()


@dataclass
class Progress:
    """What a run has done so far, for a progress display."""

    cells: int
    total: int
    done: int = 0
    played: int = 0
    cell: int = 0
    cell_label: str = ""
    started: float = 0.0

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.played / elapsed if elapsed > 0 else 0.0


def _jobs(study: Study, todo: list[tuple[Cell, list[int]]], timing: dict[int, float],
          progress: Progress) -> Iterator[Job]:
    """The jobs, cell by cell; a job holds about half a second of games (as
    timed on the cell's first games), at most 16."""
    for cell, indices in todo:
        progress.cell, progress.cell_label = cell.number, cell.key
        position = 0
        while position < len(indices):
            seconds = timing.get(cell.number)
            size = 1 if seconds is None else max(1, min(16, int(0.5 / max(seconds, 1e-3))))
            chunk = indices[position:position + size]
            position += size
            yield Job(study.game, cell.options, cell.number, cell.key, cell.lineup.name,
                      tuple((i, study.game_seed(cell, i), tuple(cell.lineup.seats(cell.players, i))) for i in chunk))


def run_study(study: Study, out: Path, workers: int = 1, ray: str | None = None,
              on_progress: Callable[[Progress], None] | None = None) -> dict[str, Any]:
    """Play every game of ``study`` not yet in ``out``; returns what was done.

    Interrupted (Ctrl-C, a killed process, a lost worker), the games already
    finished are kept and the exception goes on; running again continues.
    """
    started = time.perf_counter()  # starting Ray is part of the run's time
    runner = make_runner(workers, ray)
    try:
        store = ResultStore(out, study)
    except BaseException:
        runner.close()
        raise
    cells = study.cells()
    finished = store.done()
    todo = [(cell, [i for i in range(cell.games(study)) if i not in finished.get(cell.key, set())]) for cell in cells]
    already = sum(len(finished.get(cell.key, set()) & set(range(cell.games(study)))) for cell in cells)
    progress = Progress(cells=len(cells), total=sum(cell.games(study) for cell in cells), done=already,
                        started=time.monotonic())
    timing: dict[int, float] = {}
    where = runner.where

    def play(todo: list[tuple[Cell, list[int]]]) -> Iterator[dict[str, Any]]:
        for rows in runner.results(play_job, _jobs(study, [t for t in todo if t[1]], timing, progress)):
            store.add(rows)
            cell = rows[0]["cell"]
            timing[cell] = sum(r["seconds"] for r in rows) / len(rows)
            progress.done += len(rows)
            progress.played += len(rows)
            if on_progress:
                on_progress(progress)
            yield from rows

    try:
        if study.precision is None:
            for _row in play(todo):
                pass
        else:
            _play_to_precision(study, cells, store, play)
        store.flush()
        store.export_parquet()
    finally:
        runner.close()
        store.close()
    return {"cells": len(cells), "games": progress.done, "played": progress.played, "resumed": already,
            "seconds": time.perf_counter() - started, "where": where}


def _play_to_precision(study: Study, cells: list[Cell], store: "ResultStore",
                       play: Callable[[list[tuple[Cell, list[int]]]], Iterator[dict[str, Any]]]) -> None:
    """Play every cell in rounds until its main interval is within the
    study's precision (a betting confidence sequence, valid however often it
    is looked at) or it has played its ``games``; each round adds a quarter
    more games (at least four a seat), whole rotations of the seats."""
    from tileworks.lab.precision import main_value, settled

    values: dict[int, dict[int, float]] = {cell.number: {} for cell in cells}
    for key, index, row in store.main_rows():
        cell = next((c for c in cells if c.key == key), None)
        if cell is not None:
            values[cell.number][index] = main_value(row, cell.lineup.weaker)
    while True:
        rounds = []
        for cell in cells:
            cap = cell.games(study)
            done, _interval, n = settled(values[cell.number], study.precision, cap)
            if done:
                continue
            seats = cell.players
            size = max(4 * seats, -(-n // 4 // seats) * seats)
            rounds.append((cell, [i for i in range(n, min(cap, n + size)) if i not in values[cell.number]]))
        if not rounds:
            return
        by_number = {cell.number: cell for cell, _ in rounds}
        for row in play(rounds):
            values[row["cell"]][row["game_index"]] = main_value(row, by_number[row["cell"]].lineup.weaker)
        store.flush()


def load_rows(out: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A results folder's study (as saved) and its rows, in cell and index order.

    While a run is writing the folder (it holds DuckDB's lock), the rows are
    read from a copy of the store and its write-ahead log, with the games
    still in the journal: a consistent snapshot of the games finished so far.
    """
    duckdb = _duckdb()
    out = Path(out)
    saved = out / "study.json"
    if not saved.exists() or not (out / "results.duckdb").exists():
        raise StudyError(f"{out} holds no study results (no study.json and results.duckdb); run `tileworks study run` first")
    described = json.loads(saved.read_text(encoding="utf-8"))
    try:
        with duckdb.connect(str(out / "results.duckdb")) as db:
            _add_first_player(db, described["game"])
            _add_choices(db)
        with duckdb.connect(str(out / "results.duckdb"), read_only=True) as db:
            rows = _fetch_rows(db)
    except duckdb.IOException as exc:
        if "lock" not in str(exc).lower():
            raise StudyError(f"cannot read {out / 'results.duckdb'}: {exc}") from None
        rows = _snapshot_rows(out, duckdb)
    return described, rows


def being_written(out: Path) -> bool:
    """Whether a run holds the study's store now (DuckDB's lock on it)."""
    duckdb = _duckdb()
    try:
        duckdb.connect(str(Path(out) / "results.duckdb"), read_only=True).close()
    except duckdb.IOException as exc:
        return "lock" in str(exc).lower()
    return False


def _fetch_rows(db) -> list[dict[str, Any]]:
    cursor = db.execute(f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY cell, game_index")
    return [dict(zip(COLUMNS, values, strict=True)) for values in cursor.fetchall()]


def _snapshot_rows(out: Path, duckdb) -> list[dict[str, Any]]:
    """The rows of a study that a run is writing: a copy of the store (a copy
    taken during one of DuckDB's checkpoints may not open: try again), then
    the journal's games not yet moved into it."""
    import shutil
    import tempfile

    rows = None
    for _attempt in range(10):
        with tempfile.TemporaryDirectory(prefix="tileworks-snapshot-") as folder:
            copy = Path(folder) / "results.duckdb"
            for name in ("results.duckdb", "results.duckdb.wal"):
                if (out / name).exists():
                    shutil.copyfile(out / name, Path(folder) / name)
            try:
                with duckdb.connect(str(copy)) as db:
                    rows = _fetch_rows(db)
                break
            except duckdb.Error:
                time.sleep(0.2)
    if rows is None:
        raise StudyError(f"could not read a consistent copy of {out / 'results.duckdb'} while a run writes it; try again")
    stored = {(row["cell_key"], row["game_index"]) for row in rows}
    journal = out / "journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines() if journal.exists() else []
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue  # the line being written
        if isinstance(row, dict) and set(COLUMNS) <= set(row) and (row["cell_key"], row["game_index"]) not in stored:
            stored.add((row["cell_key"], row["game_index"]))
            rows.append({name: row[name] for name in COLUMNS})
    rows.sort(key=lambda row: (row["cell"], row["game_index"]))
    return rows


def replay_game(out: Path, cell: int, index: int, record: Path) -> Path:
    """Play one stored game again from its seed, check that it ends as stored,
    and save its record (to look at with ``tileworks replay``)."""
    from tileworks.core.records import save_record

    described, rows = load_rows(out)
    row = next((r for r in rows if r["cell"] == cell and r["game_index"] == index), None)
    if row is None:
        raise StudyError(f"{out} holds no game {index} in cell {cell}")
    game = tileworks.load_game(described["game"], **json.loads(row["options"]))
    played = play_seeded(game, list(row["agents"]), row["seed"])
    if [float(s) for s in played.state.scores()] != list(row["scores"]):
        raise StudyError(f"game {index} of cell {cell} did not replay to its stored scores "
                         f"({played.state.scores()} against {row['scores']}): was it played by another version?")
    return save_record(played.state, Path(record), list(row["agents"]))
