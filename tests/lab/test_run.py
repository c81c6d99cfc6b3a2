"""Running a study: the store, resuming after a kill, replaying a game."""

from __future__ import annotations

import json
import re
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tileworks.cli.main import app
from tileworks.core.records import load_record
from tileworks.lab.run import COLUMNS, load_rows, run_study
from tileworks.lab.study import StudyError, load_study, load_study_text

RESULT = [c for c in COLUMNS if c != "seconds"]  # the time a game took is not part of its result


def results(out: Path) -> list[tuple]:
    _, rows = load_rows(out)
    return [tuple(json.dumps(row[c]) for c in RESULT) for row in rows]


def test_a_study_stores_one_row_per_game_queryable_with_sql_and_parquet(small_study, tmp_path):
    out = tmp_path / "out"
    summary = run_study(load_study(small_study), out, workers=1)
    assert summary == {**summary, "cells": 4, "games": 24, "played": 24, "resumed": 0}
    with duckdb.connect(str(out / "results.duckdb"), read_only=True) as db:
        per_cell = db.execute("SELECT cell_key, count(*), min(game_index), max(game_index) FROM games "
                              "GROUP BY cell_key ORDER BY cell_key").fetchall()
        assert per_cell == [(key, 6, 0, 5) for key in (
            "tiebreak=official | all greedy", "tiebreak=official | random against greedy",
            "tiebreak=seed | all greedy", "tiebreak=seed | random against greedy")]
        seats = db.execute("SELECT agents FROM games WHERE lineup = 'random against greedy' AND cell = 2 "
                           "ORDER BY game_index LIMIT 2").fetchall()
        assert seats == [(["random", "greedy"],), (["greedy", "random"],)]
        row = db.execute("SELECT scores, winners, turns, len(trajectory), trajectory[-1] FROM games LIMIT 1").fetchone()
        scores, winners, turns, length, last = row
        assert length == turns and last == scores and scores[winners[0]] == max(scores)
        # Azul's first decision of a 2-player game: any tile group of the five factories to any of 6 places
        choices, decisions = db.execute("SELECT choices, decisions FROM games WHERE cell = 0 AND game_index = 0").fetchone()
        assert len(choices) == decisions and min(choices) >= 1 and 6 <= choices[0] <= 5 * 4 * 6
    parquet = pq.read_table(out / "games.parquet")
    assert parquet.num_rows == 24 and set(RESULT) <= set(parquet.column_names)


def test_processes_and_one_process_play_the_same_games(small_study, tmp_path):
    study = load_study(small_study)
    run_study(study, tmp_path / "one", workers=1)
    run_study(study, tmp_path / "two", workers=2)
    assert results(tmp_path / "one") == results(tmp_path / "two")


def test_a_finished_study_plays_nothing_more_and_more_games_extend_it(small_study, tmp_path):
    out = tmp_path / "out"
    study = load_study(small_study)
    run_study(study, out)
    assert run_study(study, out)["played"] == 0
    study.games = 8
    again = run_study(study, out)
    assert again["played"] == 8 and again["resumed"] == 24 and len(results(out)) == 32


def test_a_folder_of_another_study_is_refused(small_study, tmp_path):
    out = tmp_path / "out"
    run_study(load_study(small_study), out)
    other = load_study_text(small_study.read_text().replace("seed = 11", "seed = 12"))
    with pytest.raises(StudyError, match="holds the results of another study"):
        run_study(other, out)
    assert len(results(out)) == 24


def test_games_left_in_the_journal_by_a_kill_are_kept_once_and_not_played_again(small_study, tmp_path):
    out = tmp_path / "out"
    study = load_study(small_study)
    run_study(study, out)
    with duckdb.connect(str(out / "results.duckdb")) as db:
        kept = db.execute("SELECT * FROM games WHERE cell = 0 AND game_index = 5").fetchone()
        db.execute("DELETE FROM games WHERE cell = 0 AND game_index >= 4")
    row = dict(zip(COLUMNS, kept, strict=True))
    # game 5 reached the journal before the kill, twice (folded once already); a line was cut short
    line = json.dumps(row)
    (out / "journal.jsonl").write_text(f"{line}\n{line}\n{line[:40]}", encoding="utf-8")
    summary = run_study(study, out)
    assert summary["played"] == 1 and summary["resumed"] == 23  # only game 4 was lost
    assert len(results(out)) == 24 and (out / "journal.jsonl").read_text() == ""


def _study_process(path: Path, out: Path, workers: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tileworks.cli.main", "study", "run", str(path), "--out", str(out),
                             "--workers", str(workers), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def _wait_for_games(out: Path, seconds: float = 60) -> None:
    journal = out / "journal.jsonl"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if journal.exists() and journal.stat().st_size > 0 or (out / "games.parquet").exists():
            return
        time.sleep(0.05)
    raise AssertionError("the study finished no game in time")


#: the long study's games: enough that a signal sent once the first are saved always
#: lands before the last (400 did not: on a quick run they all finished first)
LONG = 1000


def _long_study(tmp_path: Path) -> Path:
    from tests.lab.conftest import SMALL

    path = tmp_path / "long.toml"
    path.write_text(SMALL.replace("games = 6", f"games = {LONG // 4}"), encoding="utf-8")
    return path


def test_a_run_killed_with_sigkill_continues_without_losing_or_repeating_a_game(tmp_path):
    path, out = _long_study(tmp_path), tmp_path / "out"
    process = _study_process(path, out, workers=2)
    _wait_for_games(out)
    time.sleep(0.1)  # a few more games
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    with duckdb.connect(str(out / "results.duckdb"), read_only=True) as db:
        stored = {key for key in db.execute("SELECT cell_key, game_index FROM games").fetchall()}
    journal = [json.loads(line) for line in (out / "journal.jsonl").read_text().splitlines() if line.endswith("}")]
    saved = stored | {(row["cell_key"], row["game_index"]) for row in journal}
    assert 0 < len(saved) < LONG
    summary = run_study(load_study(path), out, workers=2)
    assert summary["resumed"] == len(saved) and summary["played"] == LONG - len(saved)
    rows = results(out)
    assert len(rows) == len(set(rows)) == LONG
    assert rows == results_of_a_clean_run(path, tmp_path)


def results_of_a_clean_run(path: Path, tmp_path: Path) -> list[tuple]:
    run_study(load_study(path), tmp_path / "clean", workers=2)
    return results(tmp_path / "clean")


def test_ctrl_c_keeps_the_finished_games_and_says_how_to_continue(tmp_path):
    path, out = _long_study(tmp_path), tmp_path / "out"
    process = _study_process(path, out, workers=2)
    _wait_for_games(out)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the whole process group
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    summary = run_study(load_study(path), out, workers=2)
    assert summary["resumed"] > 0 and summary["resumed"] + summary["played"] == LONG
    assert len(set(results(out))) == LONG


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_a_lost_worker_stops_the_run_which_then_continues(tmp_path):
    path, out = _long_study(tmp_path), tmp_path / "out"
    process = _study_process(path, out, workers=2)
    _wait_for_games(out)
    workers = [w for child in _children(process.pid) for w in _children(child)]  # the fork server's children
    assert workers, "the run has no worker processes"
    os.kill(workers[0], signal.SIGKILL)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "a worker process was lost" in " ".join(err.split()), err
    summary = run_study(load_study(path), out, workers=2)
    assert summary["resumed"] > 0 and len(set(results(out))) == LONG


def test_any_game_replays_alone_from_its_seed(small_study, tmp_path):
    out = tmp_path / "out"
    run_study(load_study(small_study), out)
    record = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["study", "replay", str(out), "--cell", "3", "--game", "4", "--record", str(record)])
    assert result.exit_code == 0, result.output
    _, rows = load_rows(out)
    row = next(r for r in rows if r["cell"] == 3 and r["game_index"] == 4)
    loaded = load_record(record)
    assert loaded.players == row["agents"] and loaded.final_state().scores() == [int(s) for s in row["scores"]]
    missing = CliRunner().invoke(app, ["study", "replay", str(out), "--cell", "9", "--game", "0", "--record", str(record)])
    assert missing.exit_code == 2 and "holds no game 0 in cell 9" in missing.output


def test_the_command_line_runs_and_refuses_a_bad_study(small_study, tmp_path):
    runner = CliRunner()
    done = runner.invoke(app, ["study", "run", str(small_study), "--out", str(tmp_path / "out"), "--workers", "1"])
    assert done.exit_code == 0, done.output
    assert "24 games in 4 cells" in " ".join(done.output.split())
    bad = small_study.with_name("bad.toml")
    bad.write_text(small_study.read_text().replace('tiebreak = ["seed", "official"]', 'tiebreak = ["coin"]'))
    refused = runner.invoke(app, ["study", "run", str(bad), "--out", str(tmp_path / "bad")])
    assert refused.exit_code == 2 and "bad.toml line 8: bad value 'coin' for option 'tiebreak'" in " ".join(
        refused.output.split())
    assert not (tmp_path / "bad").exists()
    help_text = runner.invoke(app, ["study", "--help"]).output
    assert "run" in help_text and "report" in help_text and "replay" in help_text


def test_ray_asked_for_without_ray_says_how_to_install_it(small_study, tmp_path):
    script = ("import sys; sys.modules['ray'] = None\n"
              "from tileworks.cli.main import main\n"
              f"sys.argv = ['tileworks', 'study', 'run', {str(small_study)!r}, '--out', {str(tmp_path / 'o')!r}, "
              "'--ray', 'auto']\n"
              "main()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "pip install 'tileworks[cluster]'" in " ".join(done.stderr.split())


def test_results_stored_before_the_first_player_column_get_it_from_each_games_setup(tmp_path):
    path = tmp_path / "tuileries.toml"
    path.write_text('[study]\ngame = "tuileries"\ngames = 8\nseed = 3\n[grid]\nplayers = [2, 4]\n'
                    '[[lineups]]\nagents = ["random"]\n', encoding="utf-8")
    out = tmp_path / "out"
    run_study(load_study(path), out)
    _, rows = load_rows(out)
    played = [row["first_player"] for row in rows]
    assert len(set(played)) > 1  # chance picks Tuileries' first player
    with duckdb.connect(str(out / "results.duckdb")) as db:
        db.execute("ALTER TABLE games DROP COLUMN first_player")
        db.execute("ALTER TABLE games DROP COLUMN choices")
    _, migrated = load_rows(out)
    assert [row["first_player"] for row in migrated] == played
    assert {row["choices"] for row in migrated} == {None}  # not recorded then: complexity counts none of them


def test_workers_end_when_the_driver_is_killed_with_sigkill(tmp_path):
    path, out = _long_study(tmp_path), tmp_path / "out"
    process = _study_process(path, out, workers=2)
    _wait_for_games(out)
    helpers = _children(process.pid)  # the fork server and resource tracker
    workers = [w for child in helpers for w in _children(child)]
    assert workers, "the run has no worker processes"
    os.kill(process.pid, signal.SIGKILL)  # the driver alone, as `kill -9 PID` does
    process.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers + helpers):
        time.sleep(0.1)
    assert not [pid for pid in workers + helpers if _alive(pid)], "processes of the killed run are still running"


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent's wait() has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def test_a_plan_times_each_cell_and_a_dry_run_plays_nothing(small_study, tmp_path):
    runner = CliRunner()
    planned = runner.invoke(app, ["study", "plan", str(small_study), "--workers", "2"])
    assert planned.exit_code == 0, planned.output
    said = " ".join(planned.output.split())
    assert "24 games to play (0 already done) on 2 processes: about" in said
    assert re.search(r"│\s+3 │ tiebreak=official \| random against", planned.output)
    out = tmp_path / "out"
    dry = runner.invoke(app, ["study", "run", str(small_study), "--out", str(out), "--dry-run", "--workers", "1"])
    assert dry.exit_code == 0 and "24 games to play" in " ".join(dry.output.split())
    assert not out.exists()
    run_study(load_study(small_study), out)
    again = runner.invoke(app, ["study", "plan", str(small_study), "--out", str(out)])
    assert "0 games to play (24 already done)" in " ".join(again.output.split())
    bad = runner.invoke(app, ["study", "plan", str(tmp_path / "missing.toml")])
    assert bad.exit_code == 2 and "cannot read study file" in bad.output
