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
    # the answer first, and the set-up, in Japanese (a string inside an f-string escapes the catalogs)
    for heading in ("<h2>まとめ</h2>", "<h2>基準との比較</h2>", "<h2>席とエージェントを分けて</h2>", "<h2>設定</h2>",
                    "<h3>セル</h3>", "<th>組み合わせ</th>"):
        assert heading in page, heading
    assert "Set-up" not in page and "Cells" not in page and " pts" not in page
    for stem in FIGURES:
        assert (results / "report" / f"{stem}.ja.png").exists() and (results / "report" / f"{stem}.ja.svg").exists()


def test_a_folder_without_results_is_refused(tmp_path):
    with pytest.raises(StudyError, match="holds no study results"):
        write_report(tmp_path)


def _copy(results, tmp_path):
    import shutil

    folder = tmp_path / "out"
    shutil.copytree(results, folder, ignore=shutil.ignore_patterns("report"))
    return folder


def test_an_unfinished_study_says_so_and_names_the_cells_with_no_games(results, tmp_path):
    import duckdb

    out = _copy(results, tmp_path)
    with duckdb.connect(str(out / "results.duckdb")) as db:  # as if the run stopped early
        db.execute("DELETE FROM games WHERE cell = 3 OR (cell = 0 AND game_index >= 2)")
    page = write_report(out).read_text(encoding="utf-8")
    assert "This study is not finished: 14 of 24 games played, 2 of 4 cells short of their games." in page
    assert "Cells with no games yet, left out of the tables and figures: 3 (tiebreak=official · random against greedy)." in page
    assert "<td>2 of 6</td>" in page  # cell 0 in the set-up's cell table


def test_games_played_before_a_study_was_lowered_are_left_out_and_counted(results, tmp_path):
    out = _copy(results, tmp_path)
    lowered = tmp_path / "lowered.toml"
    from tests.lab.conftest import SMALL

    lowered.write_text(SMALL.replace("games = 6", "games = 4"), encoding="utf-8")
    assert run_study(load_study(lowered), out)["played"] == 0
    page = write_report(out).read_text(encoding="utf-8")
    assert "8 stored games lie beyond the games a cell is now set to play" in page
    assert "not finished" not in page
    measures = json.loads((out / "report" / "measures.json").read_text())
    assert {cell["games"] for cell in measures.values()} == {4}


def test_one_agent_in_every_seat_has_no_win_rate_by_agent(tmp_path):
    from tests.lab.conftest import SMALL

    path = tmp_path / "one.toml"
    path.write_text(SMALL.split("[[lineups]]\nname")[0], encoding="utf-8")  # the all-greedy line-up alone
    run_study(load_study(path), tmp_path / "out")
    page = write_report(tmp_path / "out").read_text(encoding="utf-8")
    assert "Balance: win rate by seat" in page and "Win rate by agent" not in page


def test_a_report_during_a_run_reads_the_games_finished_so_far(results, tmp_path):
    import subprocess
    import sys

    import duckdb

    from tileworks.lab.run import COLUMNS

    out = _copy(results, tmp_path)
    with duckdb.connect(str(out / "results.duckdb")) as db:
        found = db.execute(f"SELECT {', '.join(COLUMNS)} FROM games WHERE cell = 1 AND game_index >= 4 "
                           "ORDER BY game_index").fetchall()
        db.execute("DELETE FROM games WHERE cell = 1 AND game_index = 5")
    journalled, stored = (dict(zip(COLUMNS, values, strict=True)) for values in reversed(found))
    # the writer's journal: a game not yet moved into DuckDB, one already moved, a line being written
    (out / "journal.jsonl").write_text("\n".join([json.dumps(journalled), json.dumps(stored), '{"cell": 1, "cut sh']),
                                       encoding="utf-8")
    # another process holds the store for writing, as a running `study run` does
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time\n"
                               f"db = duckdb.connect({str(out / 'results.duckdb')!r})\n"
                               "print('open', flush=True)\ntime.sleep(60)\n"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        page = write_report(out).read_text(encoding="utf-8")
    finally:
        holder.kill()
        holder.wait()
    assert "A run is writing this study: the report reads the games finished so far." in page
    assert "not finished" not in page
    measures = json.loads((out / "report" / "measures.json").read_text())
    assert [measures[str(cell)]["games"] for cell in range(4)] == [6, 6, 6, 6]


def test_the_report_opens_with_the_answer_each_cell_against_its_baseline(results):
    page = write_report(results, language="en").read_text(encoding="utf-8")
    summary = page[page.index('<section id="summary">'):page.index('<section id="comparisons">')]
    assert re.search(r"\d+ tests, adjusted together by Holm&#x27;s method: \d+ findings hold at 5%", summary)
    # the official tie-break against the seed, within each line-up
    assert "tiebreak=official · random against greedy, against tiebreak=seed · random against greedy:" in summary
    assert page.index('id="summary"') < page.index("<h2>Set-up</h2>")
    table = page[page.index('<section id="comparisons">'):]
    assert "Newcombe" in table and "<th>adjusted p</th>" in table
    assert re.search(r"<td>decisions a game</td><td>[+-]\d+\.\d <small>", table)
    # random never beats greedy here: the seat-and-agent model declines rather than report infinite odds
    assert "not fitted: an agent always or never wins" in page


def test_a_paired_study_compares_game_by_game(tmp_path):
    from tests.lab.conftest import SMALL

    path = tmp_path / "paired.toml"
    path.write_text(SMALL.replace("seed = 11", 'seed = 11\npaired = true\nbaseline = {tiebreak = "official"}\nadjust = "bh"'),
                    encoding="utf-8")
    run_study(load_study(path), tmp_path / "out")
    page = write_report(tmp_path / "out").read_text(encoding="utf-8")
    assert "game by game: the cells played the same chance seeds" in page
    assert "adjusted together by Benjamini–Hochberg" in page
    assert "tiebreak=seed · all greedy, against tiebreak=official · all greedy:" in page
    assert "<th>paired deals</th><td>yes: every cell plays the same chance seeds</td>" in page


def test_a_strength_sweep_says_where_the_effect_holds_and_the_upset_rate(tmp_path):
    path = tmp_path / "strength.toml"
    path.write_text('[study]\ngame = "azul"\ngames = 8\nseed = 4\nmeasures = ["balance", "duration", "catch_up"]\n'
                    '[grid]\nvariant = ["standard", "grey"]\n[options]\nplayers = 2\n[sweep]\nagents = ["random", "greedy"]\n',
                    encoding="utf-8")
    run_study(load_study(path), tmp_path / "out", workers=2)
    page = write_report(tmp_path / "out").read_text(encoding="utf-8")
    section = page[page.index('<section id="strength">'):]
    section = section[:section.index("</section>")]
    assert "<th>random</th><th>greedy</th><th>the effect holds</th>" in section
    # the grey wall lengthens greedy's games for sure (+25 decisions over 8 games); random's are too noisy to tell
    assert re.search(r"<td>variant=grey</td><td>decisions a game</td><td>[^✓]*</td><td>\+\d+\.\d ✓ .*"
                     r"<td>at greedy only</td>", section)
    assert "variant=grey: random wins 0.0% (0.0%–32.4%) of its games against greedy" in section
