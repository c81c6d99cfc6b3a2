"""Numeric sweeps: the study's axis of values, and response curves fitted across its cells."""

from __future__ import annotations

import random

import pytest

from tileworks.lab.curves import response_curves
from tileworks.lab.report import write_report
from tileworks.lab.run import run_study
from tileworks.lab.study import StudyError, load_study, load_study_text

SWEEP = '''[study]
game = "kiln"
games = {games}
seed = 3
measures = ["balance", "duration"]
[grid]
goal = {sweep}
[[lineups]]
agents = ["greedy"]
'''


def test_a_sweep_is_the_values_from_to_by_step():
    study = load_study_text(SWEEP.format(games=10, sweep="{from = 10, to = 22, step = 4}"))
    assert [cell.axes["goal"] for cell in study.cells()] == [10, 14, 18, 22] and study.sweeps == ("goal",)


@pytest.mark.parametrize("sweep, message", [
    ("{from = 10, to = 20}", "a sweep is written {from = A, to = B, step = S}"),
    ("{from = 10, to = 5, step = 1}", "a sweep needs step >= 1 and from <= to"),
    ('{from = 10, to = 20, step = "2"}', "a sweep's from, to and step must be whole numbers"),
    ("{from = 10, to = 120, step = 50}", "bad value 110 for option 'goal'"),
])
def test_a_bad_sweep_is_refused_naming_its_line(sweep, message):
    with pytest.raises(StudyError, match="study line 7: .*" + message.replace("{", r"\{").replace("}", r"\}")):
        load_study_text(SWEEP.format(games=10, sweep=sweep))


def test_the_length_curve_recovers_a_known_trend_with_a_band_that_covers_it():
    study = load_study_text(SWEEP.format(games=40, sweep="{from = 10, to = 22, step = 2}"))
    rng = random.Random(1)
    rows = {}
    for cell in study.cells():
        goal = cell.axes["goal"]  # length 4 decisions a goal point, plus noise; seats even
        rows[cell.number] = [{"decisions": round(4 * goal + rng.gauss(0, 6)), "scores": [1, 0],
                              "winners": [i % 2], "first_player": 0, "agents": ["greedy"] * 2, "game_index": i}
                             for i in range(40)]
    curves = {c.response: c for c in response_curves(study, study.cells(), rows)}
    length, first = curves["decisions"], curves["first_seat"]
    assert length.degree == 2 and length.p_trend < 1e-6
    # the truth is 40 decisions at goal 10 and 88 at 22; the band's half-width is about 3 at the ends
    assert length.mean[0] == pytest.approx(40, abs=3) and length.mean[-1] == pytest.approx(88, abs=3)
    assert length.low[0] < length.mean[0] < length.high[0] and length.high[0] - length.low[0] < 8
    assert first.p_trend > 0.5 and all(lo < 0.5 < hi for lo, hi in zip(first.low, first.high, strict=True))


def test_the_report_draws_the_response_to_a_swept_option(tmp_path):
    path = tmp_path / "goal.toml"
    path.write_text(SWEEP.format(games=8, sweep="{from = 10, to = 16, step = 2}"), encoding="utf-8")
    run_study(load_study(path), tmp_path / "out")
    page_path = write_report(tmp_path / "out")
    page = page_path.read_text(encoding="utf-8")
    assert "<h2>Response to goal</h2>" in page and '<figure id="fig-sweep-goal"><svg' in page
    assert "<td>all greedy</td><td>decisions a game</td><td>10: " in page
    assert (page_path.parent / "sweep-goal.png").stat().st_size > 1000
