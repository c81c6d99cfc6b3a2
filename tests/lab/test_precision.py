"""Stopping at a precision: a confidence sequence keeps its coverage however often a run looks."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from tileworks.cli.main import app
from tileworks.lab.precision import betting_interval, settled, target_games
from tileworks.lab.report import write_report
from tileworks.lab.run import load_rows, run_study
from tileworks.lab.study import StudyError, load_study, load_study_text


def stop(rate: float, precision: float, seed: int, cap: int = 4000) -> tuple[int, tuple[float, float]]:
    """Games drawn at ``rate`` in rounds, as the run plays them, until the rule stops."""
    rng = random.Random(seed)
    values: dict[int, float] = {}
    while True:
        done, interval, n = settled(values, precision, cap)
        if done:
            return n, interval
        for index in range(n, n + max(8, n // 4)):
            values[index] = 1.0 if rng.random() < rate else 0.0


def test_stopping_when_narrow_keeps_the_coverage():
    # a fixed-sample interval checked after every round would miss more often than 5%
    missed = sum(not (low <= 0.35 <= high) for low, high in (stop(0.35, 0.1, seed)[1] for seed in range(150)))
    assert missed / 150 <= 0.06


def test_an_even_cell_plays_about_the_target_and_a_lopsided_one_stops_sooner():
    even, interval = stop(0.5, 0.05, seed=1)
    assert 0.9 * target_games(0.05) < even < 1.2 * target_games(0.05)
    assert (interval[1] - interval[0]) / 2 <= 0.05
    lopsided, _ = stop(0.95, 0.05, seed=1)
    assert lopsided < even / 2


def test_the_interval_narrows_with_games_and_holds_the_mean():
    rng = random.Random(4)
    values = [1.0 if rng.random() < 0.3 else 0.0 for _ in range(800)]
    short, long = betting_interval(values[:100], 800), betting_interval(values, 800)
    assert short[0] < long[0] < 0.3 < long[1] < short[1]


STUDY = """[study]
game = "azul"
games = 400
seed = 5
precision = {precision}
measures = ["balance", "catch_up"]
[[lineups]]
name = "random against greedy"
agents = ["random", "greedy"]
weaker = "random"
[[lineups]]
agents = ["greedy"]
"""


def test_a_study_plays_each_cell_until_its_main_interval_is_narrow(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(STUDY.format(precision=0.15), encoding="utf-8")
    out = tmp_path / "out"
    first = run_study(load_study(path), out, workers=2)
    _, rows = load_rows(out)
    played = {lineup: sum(1 for row in rows if row["lineup"] == lineup) for lineup in ("random against greedy", "all greedy")}
    # random never beats greedy: its cell settles within a few rounds; the even greedy mirror plays on
    assert played["random against greedy"] < 40 < played["all greedy"] < 1.3 * target_games(0.15)
    assert all(count % 2 == 0 for count in played.values())  # whole rotations of the seats
    assert first["played"] == sum(played.values())
    assert run_study(load_study(path), out)["played"] == 0  # settled cells play nothing more
    page = write_report(out).read_text(encoding="utf-8")
    assert page.count("<td>precision reached</td>") == 2 and "not finished" not in page
    assert "within ±0.15 (a betting confidence sequence" in page


def test_a_plan_for_a_precision_says_the_most_it_plays(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(STUDY.format(precision=0.1), encoding="utf-8")
    said = " ".join(CliRunner().invoke(app, ["study", "plan", str(path), "--workers", "1"]).output.split())
    assert f"{2 * 2 * -(-target_games(0.1) // 2)} games to play" in said  # two cells and "a lopsided cell stops sooner" in said


@pytest.mark.parametrize("value", ["0", "0.5", "true", '"tight"'])
def test_a_bad_precision_is_refused_naming_its_line(value):
    with pytest.raises(StudyError, match="study line 5: precision is the half-width"):
        load_study_text(STUDY.format(precision=value))
