"""Long commands left running with their output in a file still say how far they are."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
from typer.testing import CliRunner

from tileworks.cli.main import app
from tileworks.cli.progress import Progress


def test_an_arena_writing_to_a_file_says_after_each_game_how_far_it_is_and_who_leads(tmp_path):
    result = CliRunner().invoke(app, ["arena", "dominoes", "--agents", "greedy,random", "--games", "4",
                                      "--out", str(tmp_path / "arena")])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("dominoes  ")]
    assert [line.split()[1] for line in lines] == ["1/4", "4/4"]  # the first game, then the end
    assert "greedy" in lines[-1] and "random" in lines[-1]
    assert not [line for line in result.output.splitlines() if line.startswith("dominoes ━")]  # no bar drawn


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_lines_come_at_most_once_a_minute_and_a_stop_says_where_the_work_got_to():
    console, clock = Console(file=io.StringIO(), width=100), Clock()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=console, get_time=clock) as bar:
        task = bar.add_task("ladder", total=10)
        for done, at in ((1, 0), (2, 20), (3, 59), (4, 61), (5, 70), (6, 200)):
            clock.now = at
            bar.update(task, completed=done)
        bar.update(task, description="ladder")  # nothing more done: no line
    assert console.file.getvalue().splitlines() == ["ladder  1/10", "ladder  4/10", "ladder  6/10"]

    console, clock = Console(file=io.StringIO(), width=100), Clock()
    with pytest.raises(KeyboardInterrupt), Progress(*columns, console=console, get_time=clock) as bar:
        task = bar.add_task("train", total=10)
        bar.update(task, completed=1)
        clock.now = 5
        bar.advance(task)  # within the minute: no line yet
        raise KeyboardInterrupt
    assert console.file.getvalue().splitlines() == ["train  1/10", "train  2/10"]


def test_on_a_terminal_the_bar_is_drawn_in_place_and_no_lines_are_written():
    console = Console(file=io.StringIO(), width=100, force_terminal=True)
    with Progress(TextColumn("{task.description}"), MofNCompleteColumn(), console=console) as bar:
        task = bar.add_task("study", total=2)
        bar.update(task, completed=1)
    assert not bar.lines
    assert "study  1/2\n" not in console.file.getvalue()
