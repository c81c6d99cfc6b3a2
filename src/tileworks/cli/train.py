"""``tileworks train``: train a network by self-play (needs ``tileworks[jax]``)."""

from __future__ import annotations

import json
import shlex
import signal
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.text import Text

from tileworks.cli.errors import fail
from tileworks.core.i18n import _


def train(
    game: Annotated[str, typer.Argument(help=_("the game to train a network for"))],
    out: Annotated[Path, typer.Option("--out", help=_("folder of the run: checkpoints, network, report (run again to resume)"))],
    option: Annotated[Optional[list[str]], typer.Option("-o", "--option", help=_("game option KEY=VALUE (repeatable)"))] = None,
    iterations: Annotated[int, typer.Option(help=_("iterations to reach (a resumed run may be given more)"))] = 100,
    seed: Annotated[int, typer.Option(help=_("seed of the whole run: the same seed trains the same network"))] = 0,
    games: Annotated[int, typer.Option(help=_("self-play games played side by side"))] = 128,
    steps: Annotated[int, typer.Option(help=_("decisions each game plays per iteration"))] = 32,
    simulations: Annotated[int, typer.Option(help=_("simulations of the Gumbel search at each decision"))] = 16,
    network: Annotated[Optional[str], typer.Option(help=_("kind of network: board (convolutions, the default where the game has a board layout) or flat"))] = None,
    hidden: Annotated[Optional[int], typer.Option(help=_("width of the network (default 256; 32 channels a cell for a board network)"))] = None,
    slots: Annotated[Optional[int], typer.Option(help=_("candidate actions a search node keeps (default: all, or the likeliest 512 where a game has over 4,096 action ids)"))] = None,
    blocks: Annotated[int, typer.Option(help=_("residual blocks of the network"))] = 2,
    learning_rate: Annotated[float, typer.Option(help=_("Adam's learning rate"))] = 1e-3,
    batch: Annotated[int, typer.Option(help=_("positions per optimiser step"))] = 512,
    imitate: Annotated[str, typer.Option(help=_("start a new run by learning this agent's choices (e.g. greedy) before self-play"))] = "",
    imitate_games: Annotated[int, typer.Option(help=_("games between copies of the imitated agent"))] = 1000,
    imitate_epochs: Annotated[int, typer.Option(help=_("most passes over the imitated agent's decisions; the run keeps the one that does best on games it did not learn from"))] = 12,
    anchor: Annotated[float, typer.Option(help=_("after imitating, learn each iteration from this many of the imitated agent's decisions for each of self-play's (0: none)"))] = 0.0,
    standardise: Annotated[bool, typer.Option("--standardise", help=_("a resumed board run that reads the numbers off its board as they are (started before 2026-12-07): standardise them on the imitated agent's decisions, keeping what the network plays, then go on"))] = False,
    checkpoint_every: Annotated[int, typer.Option(help=_("iterations between checkpoints"))] = 5,
    eval_every: Annotated[int, typer.Option(help=_("iterations between evaluations"))] = 10,
    eval_games: Annotated[int, typer.Option(help=_("games against each opponent at each evaluation"))] = 20,
    opponents: Annotated[str, typer.Option(help=_("agents the network is evaluated against, comma-separated"))] = "random,greedy",
    evaluate: Annotated[bool, typer.Option("--evaluate", help=_("train nothing: play the run's network as it stands against each of --opponents, --eval-games games each, and add the results to its report (the run's own settings are read from --out)"))] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=_("no progress display"))] = False,
) -> None:
    """Train a policy-and-value network by self-play (Gumbel AlphaZero) on the game's JAX engine."""
    console = Console()
    try:
        import jax  # noqa: F401
    except ImportError:
        fail(_("tileworks train needs the JAX extra: pip install 'tileworks[jax]'"))
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from tileworks.cli.progress import Progress
    from tileworks.agents import split_specs
    from tileworks.cli.main import parse_options
    from tileworks.learn.train import TrainConfig, Trainer

    if evaluate:
        evaluate_run(console, game, out, list(dict.fromkeys(split_specs(opponents))), eval_games, quiet)
        return
    try:
        config = TrainConfig(game, parse_options(game, option or []), seed=seed, games=games, steps=steps,
                             simulations=simulations, considered=min(16, simulations), network=network, hidden=hidden, slots=slots, blocks=blocks,
                             learning_rate=learning_rate, batch=min(batch, games * steps), iterations=iterations,
                             imitate=imitate, imitate_games=imitate_games, imitate_epochs=imitate_epochs, anchor=anchor,
                             checkpoint_every=checkpoint_every, eval_every=eval_every, eval_games=eval_games,
                             opponents=tuple(split_specs(opponents)))
        if standardise:
            config.refuse_standardising()
        trainer = Trainer(config, out, command=shlex.join(["tileworks"] + sys.argv[1:]))
    except ValueError as exc:
        fail(str(exc))
    # SIGTERM (a scheduler's stop, kill) and SIGINT (Ctrl-C, even where a shell started the run in
    # the background, ignoring it) stop the run after the iteration under way, which is checkpointed;
    # a second stops it at once. (An exception raised by the handler itself could land in a
    # finaliser, which would swallow it, and the run would go on.)
    def stop(_signal: int, _frame: object) -> None:
        if trainer.stop_requested:
            raise KeyboardInterrupt
        trainer.stop_requested = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    if trainer.iteration:
        console.print(_("Resuming {out} at iteration {iteration} of {iterations}.", out=out,
                        iteration=trainer.iteration, iterations=config.iterations))
    try:
        if standardise and trainer.standardise():
            console.print(_("Standardised the numbers off the board at iteration {iteration}: the network "
                            "plays as it did, and learns from here on their scale.", iteration=trainer.iteration))
        if quiet:
            trainer.run()
        else:
            columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.fields[status]}"), TimeElapsedColumn(), TextColumn("/"), TimeRemainingColumn())
            with Progress(*columns, console=console) as bar:
                task = bar.add_task(_("training {game}", game=game), total=config.iterations,
                                    completed=trainer.iteration, status="")
                last_evaluation: dict[str, float] = {}

                def show(progress):
                    last_evaluation.update(progress.evaluation)
                    scores = "  ".join(f"{name} {score:.2f}" for name, score in last_evaluation.items())
                    status = _("{decisions} decisions, {games} games; loss: policy {policy:.3f}, value {value:.3f}",
                               decisions=f"{progress.decisions:,}", games=f"{progress.games_finished:,}",
                               policy=progress.policy_loss, value=progress.value_loss)
                    bar.update(task, completed=progress.iteration,
                               status=status + (("  " + _("score against: {scores}", scores=scores)) if scores else ""))

                trainer.run(show)
    except KeyboardInterrupt:
        console.print(_("Interrupted: checkpoint at iteration {iteration} in {out}; run the same command again "
                        "to continue.", iteration=trainer.iteration, out=out))
        raise typer.Exit(130) from None
    console.print(_("Trained to iteration {iteration}: the network is {path}, the report {report}.",
                    iteration=trainer.iteration, path=out / "network.npz", report=out / "report.md"))


def evaluate_run(console: Console, game: str, out: Path, opponents: list[str], games: int, quiet: bool) -> None:
    """``tileworks train GAME --out DIR --evaluate``: the run's network as it
    stands against each opponent it has not met at this iteration, logged
    in its metrics and drawn in its report, as the evaluations made while
    it trained are (a sitting on a GPU trains without them)."""
    from tileworks.agents import make
    from tileworks.learn.report import write_report
    from tileworks.learn.train import TrainConfig, Trainer

    saved, network = out / "config.json", out / "network.json"
    if not (saved.exists() and (out / "checkpoint.npz").exists()):
        fail(_("{out} holds no run to evaluate (no config.json and checkpoint.npz): train one there first", out=out))
    if games < 1:
        fail(_("--evaluate plays --eval-games games against each opponent: give at least 1"))
    try:
        for opponent in opponents:
            make(opponent)  # an unknown agent is refused before anything is played
        config = TrainConfig.from_json(json.loads(saved.read_text(encoding="utf-8")))
        if config.game != game:
            raise ValueError(_("{out} holds a run of {theirs}, not of {game}", out=out, theirs=config.game, game=game))
        command = json.loads(network.read_text(encoding="utf-8")).get("command", "") if network.exists() else ""
        trainer = Trainer(config, out, command=command)
    except ValueError as exc:
        fail(str(exc))
    done = trainer.evaluated()
    for opponent in opponents:
        if opponent in done:
            console.print(_("Already evaluated against {opponent} at iteration {iteration} (see {report}).",
                            opponent=opponent, iteration=trainer.iteration, report=out / "report.md"), emoji=False)
    todo = [opponent for opponent in opponents if opponent not in done]
    playing = _("net against {opponents}: {games} games each", opponents=", ".join(todo), games=games)
    with nullcontext() if quiet or not todo else console.status(Text(playing)):
        results = trainer.evaluate(todo, games)
    for opponent, result in results.items():
        console.print(_("Iteration {iteration} against {opponent}: {score:.3f} (95% {low:.3f}–{high:.3f}) over "
                        "{games} games.", iteration=trainer.iteration, opponent=opponent, score=result.score,
                        low=result.low, high=result.high, games=result.games), emoji=False)
    write_report(out)
    console.print(_("The report is {report}.", report=out / "report.md"))
