"""``tileworks study``: the balance lab's commands (run, report, replay)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from tileworks.cli.errors import fail
from tileworks.core.i18n import _, current_language, pgettext

app = typer.Typer(
    help=_("The balance lab: play a study (a TOML file: a game, a grid of options, line-ups of agents) over "
           "thousands of games, on this machine or a Ray cluster, then measure and report how balanced it is. "
           "See docs/balance.md."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


_fail = fail


@app.command("run", help=_("Play every game of a study that OUT does not hold yet (an interrupted run continues)."))
def run(
    file: Annotated[Path, typer.Argument(help=_("the study file (TOML)"))],
    out: Annotated[Path, typer.Option("--out", "-o", help=_("folder for the results (DuckDB, Parquet) and the report"))],
    workers: Annotated[Optional[int], typer.Option("--workers", "-w", help=_("local processes (default: one per CPU)"))] = None,
    ray: Annotated[Optional[str], typer.Option(help=_("run on Ray: auto (this machine's cluster), local (start one here) or a cluster address"))] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=_("no progress display"))] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help=_("check the study and show its plan (games and time), play nothing"))] = False,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from tileworks.cli.progress import Progress
    from tileworks.arena.runners import WorkerLost
    from tileworks.lab.run import run_study
    from tileworks.lab.study import StudyError, load_study

    console = Console()
    # Ctrl-C stops the run with the games so far saved, also where a shell started it in the
    # background (which starts it with SIGINT ignored)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        study = load_study(file)
        count = workers or os.cpu_count() or 1
        if count < 1:
            raise StudyError(_("--workers must be at least 1"))
        if dry_run:
            _show_plan(console, study, count, out)
            return
        if quiet:
            summary = run_study(study, out, workers=count, ray=ray)
        else:
            columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.fields[rate]} " + _("games/s")), TimeElapsedColumn(), TextColumn("/"), TimeRemainingColumn())
            with Progress(*columns, console=console) as bar:
                task = bar.add_task(study.title or study.game, total=None, rate="…")

                def show(progress):
                    cell = _("cell {number}/{cells}", number=progress.cell + 1, cells=progress.cells)
                    bar.update(task, total=progress.total, completed=progress.done,
                               description=f"{cell}: {progress.cell_label}", rate=f"{progress.rate:.1f}")

                summary = run_study(study, out, workers=count, ray=ray, on_progress=show)
    except (StudyError, ValueError, WorkerLost) as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        console.print(_("Interrupted: the games finished so far are saved in {out}; run the same command again "
                        "to continue.", out=out))
        raise typer.Exit(130) from None
    if not quiet:
        console.print(_("{games} games in {cells} cells ({played} played now, {resumed} already done) on {where}, "
                        "{seconds:.0f} s. Results in {out}; next: tileworks study report {out}",
                        games=summary["games"], cells=summary["cells"], played=summary["played"],
                        resumed=summary["resumed"], where=summary["where"], seconds=summary["seconds"], out=out))


@app.command("plan", help=_("Check a study and estimate its games and time on this machine, by timing a few games of "
                             "each cell; nothing is stored."))
def plan(
    file: Annotated[Path, typer.Argument(help=_("the study file (TOML)"))],
    workers: Annotated[Optional[int], typer.Option("--workers", "-w", help=_("local processes (default: one per CPU)"))] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help=_("count only the games this results folder does not hold yet"))] = None,
) -> None:
    from tileworks.lab.study import StudyError, load_study

    try:
        count = workers or os.cpu_count() or 1
        if count < 1:
            raise StudyError(_("--workers must be at least 1"))
        _show_plan(Console(), load_study(file), count, out)
    except (StudyError, ValueError) as exc:
        _fail(str(exc))


def _show_plan(console: Console, study, workers: int, out: Optional[Path]) -> None:
    from rich.table import Table

    from tileworks.lab.plan import describe_time, plan_rows, plan_study

    with console.status(_("Timing a few games of each cell…")):
        found = plan_study(study, workers=workers, out=out)
    table = Table(title=study.title or study.game)
    for name, key in ((pgettext("study", "cell"), "cell"), (_("cell key"), "name"), (_("games to play"), "games"),
                      (_("a game"), "a game"), (_("time"), "time")):
        table.add_column(name, justify="right" if key != "name" else "left")
    for row in plan_rows(found):
        table.add_row(str(row["cell"]), row["name"], str(row["games"]), row["a game"], row["time"])
    console.print(table)
    console.print(_("{games} games to play ({already} already done) on {workers} processes: about {time} on this "
                    "machine, timed from a few games of each cell (a cluster divides it by its cores).",
                    games=found.games, already=found.already, workers=workers, time=describe_time(found.seconds)))
    if study.precision is not None:
        console.print(_("The study stops each cell once its main interval is within ±{precision}: these are about the "
                        "games an even cell plays; a lopsided cell stops sooner.", precision=study.precision))


@app.command("report", help=_("Measure a study's games and write an HTML report with figures (PNG and SVG)."))
def report(
    out: Annotated[Path, typer.Argument(help=_("the study's results folder (the --out of study run)"))],
    to: Annotated[Optional[Path], typer.Option("--to", help=_("folder for the report (default: OUT/report)"))] = None,
) -> None:
    from tileworks.lab.report import write_report
    from tileworks.lab.study import StudyError

    try:
        page = write_report(out, to, language=current_language())
    except StudyError as exc:
        _fail(str(exc))
    Console().print(_("Report written to {path}", path=page))


@app.command("replay", help=_("Play one game of a study again from its seed and save its record (for tileworks replay)."))
def replay(
    out: Annotated[Path, typer.Argument(help=_("the study's results folder"))],
    cell: Annotated[int, typer.Option(help=_("the cell's number (the cell column)"))],
    game: Annotated[int, typer.Option(help=_("the game's index in its cell (the game_index column)"))],
    record: Annotated[Path, typer.Option(help=_("write the game record to this file"))],
) -> None:
    from tileworks.lab.run import replay_game
    from tileworks.lab.study import StudyError

    try:
        replay_game(out, cell, game, record)
    except StudyError as exc:
        _fail(str(exc))
    Console().print(_("Game {game} of cell {cell} replayed to the same result; record in {path}",
                      game=game, cell=cell, path=record))
