"""The report: every measure's table and the figures, in English and Japanese."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from tileworks.cli.main import app
from tileworks.lab.report import write_report
from tileworks.lab.run import run_study
from tileworks.lab.study import StudyError, load_study

FIGURES = ("seats", "catch-up", "scores", "margin", "tiebreak", "length", "trajectories")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    from tests.lab.conftest import SMALL

    folder = tmp_path_factory.mktemp("study")
    (folder / "s.toml").write_text(SMALL, encoding="utf-8")
    run_study(load_study(folder / "s.toml"), folder / "out")
    return folder / "out"


def test_the_english_report_has_the_setup_every_measure_and_the_figures(results):
    page_path = write_report(results, language="en")
    page = page_path.read_text(encoding="utf-8")
    assert page_path.name == "report.html" and '<html lang="en">' in page
    assert "Azul: a small study" in page and "tiebreak: seed, official" in page
    for heading in ("Balance: win rate by seat", "Win rate by agent", "Winning margin", "Duration: game length",
                    "Drawishness: shared wins", "Ties on the top score and the tie-break", "Lead change", "Comebacks",
                    "Catch-up: the weaker agent&#x27;s win rate"):
        assert f">{heading}</h2>" in page, heading
    # a cell's seat win rates with their intervals: random never beats greedy in 6 games
    assert re.search(r"tiebreak=seed · random against greedy</td><td>[\d.]+% <small>\([\d.]+%–[\d.]+%\)", page)
    for stem in FIGURES:
        assert (page_path.parent / f"{stem}.png").stat().st_size > 1000
        assert (page_path.parent / f"{stem}.svg").read_text().lstrip().startswith("<?xml")
        assert f'<figure id="fig-{stem}"><svg' in page  # inline: the page stands alone
    measures = json.loads((page_path.parent / "measures.json").read_text())
    assert measures["2"]["catch_up"]["n"] == 6 and measures["2"]["catch_up"]["count"] == 0


def test_the_japanese_report_speaks_japanese(results):
    runner = CliRunner()
    done = runner.invoke(app, ["--lang", "ja", "study", "report", str(results)])
    assert done.exit_code == 0, done.output
    page = (results / "report" / "report.ja.html").read_text(encoding="utf-8")
    assert '<html lang="ja">' in page and "バランス" in page and "図" in page
    for stem in FIGURES:
        assert (results / "report" / f"{stem}.ja.png").exists() and (results / "report" / f"{stem}.ja.svg").exists()


def test_a_folder_without_results_is_refused(tmp_path):
    with pytest.raises(StudyError, match="holds no study results"):
        write_report(tmp_path)
