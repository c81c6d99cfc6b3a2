"""``tileworks`` command line: games, play, replay."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

import tileworks
from tileworks.agents import check_plays, split_specs
from tileworks.agents.learned import networks_of, standing, weakest_loss
from tileworks.cli.errors import fail
from tileworks.cli.play import HUMAN, TerminalGame, parse_seats
from tileworks.cli.replay import print_record, step_through
from tileworks.cli.study import app as study_app
from tileworks.cli.train import train as train_command
from tileworks.core import SPECTATOR, RecordError
from tileworks.core.i18n import LANGUAGES, _, language, system_language
from tileworks.core.records import is_record, load_position, load_record
from tileworks.core.registry import game_info
from tileworks.core.text import runs_of

# help texts are translated as the commands are defined, in the terminal's language
_defining = language(system_language())
_defining.__enter__()

app = typer.Typer(
    help=_("tileworks: tile-laying board games in the terminal."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(study_app, name="study")
app.command("train", help=escape(_("Train a network for a game by self-play on its JAX engine (Gumbel AlphaZero); "
                                   "resumable, with a report. Needs tileworks[jax].")))(train_command)


LANG_HELP = _("language: en or ja (default: from TILEWORKS_LANG or LANG)")


@app.callback()
def choose_language(
    ctx: typer.Context,
    lang: Annotated[Optional[str], typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    speak(ctx, lang)


def speak(ctx: typer.Context, lang: str | None) -> None:
    """Speak ``lang`` for the rest of this command (None: as chosen before)."""
    if lang is not None:
        if lang not in LANGUAGES:
            _fail(_("unknown language {lang}; languages: {languages}", lang=repr(lang), languages=", ".join(LANGUAGES)))
        ctx.with_resource(language(lang))  # for this command only


_fail = fail


def parse_options(game: str, pairs: list[str]) -> dict[str, object]:
    """``["goal=20", "erase_rule=on"]`` -> validated option values."""
    info = game_info(game)
    by_name = {o.name: o for o in info.options.options}
    values: dict[str, object] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep:
            raise ValueError(_("option {pair} must be written KEY=VALUE", pair=repr(pair)))
        if key not in by_name:
            raise ValueError(_("unknown option {key} for {game}; options are: {options}", key=repr(key), game=info.name,
                               options=", ".join(sorted(by_name))))
        values[key] = by_name[key].validate(_file_value(text.strip()))
    return values


def _file_value(text: str) -> str:
    """``@FILE`` on the command line stands for the file's contents (the
    engines and the server never read files named in an option)."""
    if not text.startswith("@"):
        return text
    path = Path(text[1:]).expanduser()
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(_("cannot read option file {path}: {error}", path=repr(str(path)), error=exc.strerror)) from None


@app.command(help=_("List the games with their player counts and options."))
def games() -> None:
    console = Console()
    for entry in tileworks.list_games():
        low, high = entry["players"]
        console.print(f"[bold]{entry['name']}[/bold]  {entry['title']}: {entry['summary']}  "
                      + _("({low}-{high} players)", low=low, high=high))
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
        for column in (_("option"), _("default"), _("allowed"), _("meaning")):
            table.add_column(column)
        for option in entry["options"]:
            default = option["default"]
            shown = ",".join(map(str, default)) or _("none") if isinstance(default, tuple) else str(default)
            table.add_row(option["name"], shown, option["allowed"], option["doc"])
        console.print(table)
        console.print("  " + _("computer players: random, greedy, mcts:beginner to mcts:expert"), highlight=False)
        for _path, about in networks_of(entry["name"]):
            # the options the network was trained with that its player count's defaults do not have (as JSON)
            defaults = tileworks.load_game(entry["name"], players=about["options"]["players"]).json_options()
            setup = ", ".join(f"{key}={value}" for key, value in about["options"].items() if key != "players" and
                              value != defaults.get(key))
            measured, losses = standing(about), weakest_loss(about)
            console.print("  " + _("trained network for {players} players{setup}: {standings}",
                                   players=about["options"]["players"], setup=f" ({setup})" if setup else "",
                                   standings="; ".join(_describe_standing(spec, spec in measured, measured.get(spec),
                                                                          losses.get(spec))
                                                       for spec in ("alpha", "net"))),
                          highlight=False)


def _describe_standing(spec: str, measured: bool, beaten: str | None, lost_to: str | None) -> str:
    """Where a learned agent stands, in a line of `tileworks games`."""
    if not measured:
        return _("{spec} (not measured yet)", spec=spec)
    if beaten == "mcts:expert":
        return _("{spec} (the top level: it beats mcts:expert)", spec=spec)
    if beaten is None:
        return _("{spec} (below {level}: it beat none of the levels it met)", spec=spec, level=lost_to)
    return _("{spec} (between {beaten} and the level above)", spec=spec, beaten=beaten)


@app.command(help=_("Play a game in the terminal."))
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help=_("game name (see `tileworks games`)"))],
    players: Annotated[str, typer.Option("--players", "-p", help=_("comma-separated seats: human, or a computer player: random, greedy, mcts:beginner to "
                                                                             "mcts:expert, or alpha and net where the game ships a trained network "
                                                                             "(see `tileworks games` for where they stand)"))] = "human,random",
    option: Annotated[list[str], typer.Option("--option", "-o", help=_("game option KEY=VALUE (repeatable)"))] = [],  # noqa: B006
    seed: Annotated[Optional[int], typer.Option(help=_("seed for chance and agents"))] = None,
    record: Annotated[Optional[Path], typer.Option(help=_("save the game record to this file"))] = None,
    lang: Annotated[Optional[str], typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    speak(ctx, lang)
    try:
        seats = parse_seats(players)
        values = parse_options(game, option)
        if "players" in values and values["players"] != len(seats):
            raise ValueError(_("--players names {count} seats but the option says players={players}",
                               count=len(seats), players=values["players"]))
        values["players"] = len(seats)
        loaded = tileworks.load_game(game, **values)
        for spec in dict.fromkeys(seats):
            if spec != HUMAN:
                check_plays(spec, loaded)
    except ValueError as exc:
        _fail(str(exc))
    from tileworks.agents.network import one_thread_for_products

    with one_thread_for_products():  # a computer seat reads its network one position at a time
        TerminalGame(loaded, seats, seed=seed, record=record).play()


@app.command(help=_("Step through a saved game record."))
def replay(
    file: Annotated[Path, typer.Argument(help=_("a game record (JSON)"))],
    interactive: Annotated[Optional[bool], typer.Option("--step/--all", help=_("step move by move, or print it all (default: step in a terminal)"))] = None,
) -> None:
    try:
        loaded = load_record(file)
    except RecordError as exc:
        _fail(str(exc))
    console = Console()
    if interactive is None:
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        step_through(loaded, console)
    else:
        print_record(loaded, console)


@app.command(help=_("Draw a position of a saved game, or a saved position, as text or SVG."))
def render(
    file: Annotated[Path, typer.Argument(help=_("a game record, or a position saved as JSON (State.to_json)"))],
    ply: Annotated[Optional[int], typer.Option(help=_("draw the position after this many actions (default: the last)"))] = None,
    svg: Annotated[bool, typer.Option("--svg/--text", help=_("an SVG picture, or plain text"))] = False,
    seat: Annotated[Optional[int], typer.Option(help=_("draw as this seat (1-based) sees it; default: a spectator"))] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help=_("write to this file instead of the terminal"))] = None,
) -> None:
    try:
        if is_record(file):
            loaded = load_record(file)
            count = len(loaded.actions)
            if ply is not None and not 0 <= ply <= count:
                raise ValueError(_("--ply must be between 0 and {count}, the record's number of actions", count=count))
            state = loaded.game.new_initial_state()
            for action in loaded.actions[:count if ply is None else ply]:
                state.apply_action(action)
        else:
            if ply is not None:
                raise ValueError(_("--ply steps through a game record; {file} holds one position", file=str(file)))
            state = load_position(file)
        players = state.game().num_players()
        if seat is not None and not 1 <= seat <= players:
            raise ValueError(_("--seat must be between 1 and {players}", players=players))
    except ValueError as exc:
        _fail(str(exc))
    viewer = SPECTATOR if seat is None else seat - 1
    drawing = state.svg(viewer) if svg else state.observation_string(viewer)
    if out is None:
        print(drawing)
    else:
        out.write_text(drawing + ("" if svg else "\n"), encoding="utf-8")


def _summary_table(summary: dict) -> Table:
    """An arena summary as a table: each agent's wins, interval, scores, seats and rating."""
    table = Table(title=_("{game}: {games} games, {decisions} decisions a game", game=summary["game"],
                          games=summary["games"], decisions=f"{summary['mean_decisions']:.1f}"))
    table.add_column(_("agent"), overflow="fold")  # a spec with its settings is read whole, wrapped
    timed = any(a.get("seconds_a_move") is not None for a in summary["agents"])  # ledgers before 2026-12-03: none
    for column in (_("wins"), _("win rate (95% CI)"), _("mean score ± sd"), _("win rate by seat"), _("rating μ ± σ"),
                   *([_("time a move")] if timed else [])):
        table.add_column(column)
    for a in summary["agents"]:
        low, high = a["win_rate_95"]
        seats = " ".join(f"{s}:{rate:.2f}" for s, rate in a["seat_win_rates"].items())
        table.add_row(
            a["agent"], f"{a['wins']:g}/{a['games']}", f"{a['win_rate']:.2f} ({low:.2f}–{high:.2f})",
            f"{a['mean_score']:.1f} ± {a['score_sd']:.1f}", seats,
            f"{a['rating']['mu']:.1f} ± {a['rating']['sigma']:.1f}",
            *([_time_a_move(a)] if timed else []),
        )
    return table


def _time_a_move(agent: dict[str, Any]) -> str:
    """An agent's mean time a move (over its choices), with the games it is from where the row says, or a dash
    where none noted it."""
    seconds = agent.get("seconds_a_move")
    if seconds is None:
        return "—"
    if "timed_games" not in agent:  # a ladder's ranking
        return duration(seconds)
    return _("{time} ({games} games)", time=duration(seconds), games=agent["timed_games"])


def duration(seconds: float) -> str:
    """A time a move in the unit that reads best.

    >>> [duration(s) for s in (4.987, 0.0304, 0.0000052)]
    ['4.99 s', '30.4 ms', '5.2 μs']
    """
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} μs"


def number_ranges(numbers: list[int]) -> str:
    """Numbers as runs, in order, as a reader writes them.

    >>> number_ranges([0, 1, 2, 3, 5, 7, 8])
    '0–3, 5, 7–8'
    """
    return ", ".join(f"{low}" if low == high else f"{low}–{high}" for low, high in runs_of(numbers))


@app.command(help=_("Play many games between agents; print wins, scores and ratings (resumable)."))
def arena(
    game: Annotated[str, typer.Argument(help=_("game name (see `tileworks games`)"))],
    agents: Annotated[str, typer.Option("--agents", "-a", help=_("comma-separated agent specs, one per seat"))],
    games: Annotated[int, typer.Option("--games", "-n", help=_("number of games"))] = 100,
    workers: Annotated[int, typer.Option("--workers", "-w", help=_("parallel processes"))] = 1,
    seed: Annotated[int, typer.Option(help=_("seed of the whole run"))] = 0,
    out: Annotated[Optional[Path], typer.Option(help=_("folder for records and summary.json (default arena-GAME)"))] = None,
    option: Annotated[list[str], typer.Option("--option", "-o", help=_("game option KEY=VALUE (repeatable)"))] = [],  # noqa: B006
    ray: Annotated[Optional[str], typer.Option(help=_("run on Ray: auto (this machine's cluster), local (start one here) or a cluster address"))] = None,
    record: Annotated[bool, typer.Option("--record", help=_("write the learned agent's result into the measured results of the network it played (the game's shipped one)"))] = False,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    from tileworks.cli.progress import Progress
    from tileworks.arena import ArenaConfig, run

    try:
        config = ArenaConfig(
            game=game, agents=split_specs(agents), games=games,
            out=out or Path(f"arena-{game}"), seed=seed, workers=workers, options=parse_options(game, option), ray=ray,
        )
        if record:
            from tileworks.agents.learned import recorded_pairing, shipped_network_path

            recorded_pairing(config.agents)
            shipped_network_path(tileworks.load_game(game, **config.options))
    except ValueError as exc:
        _fail(str(exc))
    console = Console()
    names = list(dict.fromkeys(config.agents))
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        TextColumn("{task.fields[standing]}"), console=console,
    ) as bar:
        task = bar.add_task(f"{game}", total=games, standing="")

        def progress(result, results):
            wins = {name: 0.0 for name in names}
            for r in results:
                for seat, name in enumerate(r["seats"]):
                    wins[name] += r["returns"][seat]
            bar.update(task, completed=len(results),
                       standing="  ".join(f"{name} {w:g}" for name, w in wins.items()))

        try:
            summary = run(config, progress)
        except ValueError as exc:  # e.g. --ray without Ray
            bar.stop()
            _fail(str(exc))
        bar.update(task, completed=games)
    console.print(_summary_table(summary))
    if summary["resumed"]:
        console.print(_("Resumed: {resumed} games were already played; {played} new.", resumed=summary["resumed"],
                        played=summary["played"]))
    _print_played_with(console, summary)
    console.print(_("Records, the ledger (results.jsonl) and summary.json in {path}", path=config.out))
    if record:
        import datetime

        from tileworks.agents.learned import record_result

        command = " ".join(["tileworks arena", game, *(f"-o {o}" for o in option), "--agents", ",".join(config.agents),
                            "--games", str(games), "--workers", str(workers), "--seed", str(seed),
                            *(["--ray", ray] if ray else [])])
        path = record_result(tileworks.load_game(game, **config.options), config.agents, summary, command,
                             datetime.date.today().isoformat())
        console.print(_("The result is written into {path}", path=path))


@app.command("standing", help=_("Print the standing of an arena run from its folder's ledger, while it plays or "
                                "after; plays nothing."))
def standing_command(
    out: Annotated[Path, typer.Argument(help=_("the run's folder (its --out)"))],
    against: Annotated[Optional[Path], typer.Option("--against", help=_("another run's folder on the same deals (game, options, seed): compare the two game by game"))] = None,
) -> None:
    from tileworks.arena import paired
    from tileworks.arena import standing as ledger_standing  # not learned.standing, a network's results

    try:
        summary = ledger_standing(out)
        compared = paired(out, against) if against is not None else None
    except ValueError as exc:
        _fail(str(exc))
    console = Console()
    console.print(_summary_table(summary))
    options = ", ".join(f"{key}={value}" for key, value in summary["options"].items())
    console.print(_("Games in the ledger: {indices} (seed {seed}; options {options})",
                    indices=number_ranges(summary["indices"]), seed=summary["seed"], options=options))
    _print_played_with(console, summary)
    if compared is not None:
        console.print(_paired_table(compared))


def _paired_table(compared: dict[str, Any]) -> Table:
    """Two runs on the same deals, game by game: each agent position's games better, the same and worse than
    in the other run, the mean difference of its returns and the sign test."""
    table = Table(title=_("Against {other}, game by game: {games} games on the same deals",
                          other=compared["with"], games=compared["games"]))
    for column in (_("agent"), _("in the other run"), _("better"), _("same"), _("worse"),
                   _("win rate difference (95% CI)"), _("sign test p")):
        table.add_column(column, overflow="fold")
    for a in compared["agents"]:
        low, high = a["difference_95"]
        table.add_row(_with_what(a["agent"], a.get("played_with")), _with_what(a["other"], a.get("other_played_with")),
                      str(a["better"]), str(a["same"]), str(a["worse"]),
                      f"{a['difference']:+.3f} ({low:+.2f} to {high:+.2f})", f"{a['sign_test_p']:.3f}")
    return table


def _with_what(spec: str, played_with: str | None) -> Text:
    """An agent's spec, with what it played with beneath where the ledger notes it (a spec may name
    two agents: a network replaced between two runs)."""
    return Text(spec if played_with is None else f"{spec}\n{played_with}")


def _print_played_with(console: Console, summary: dict[str, Any]) -> None:
    """The networks and settings the run's learned agents played with, a line each."""
    for spec, with_what in summary.get("played_with", {}).items():
        console.print(_("{agent} played with {what}", agent=spec, what=with_what))


@app.command(help=_("Play every agent against every other (two players), rate them all with openskill, and rank "
                    "them (resumable)."))
def ladder(
    game: Annotated[str, typer.Argument(help=_("game name (see `tileworks games`)"))],
    agents: Annotated[str, typer.Option("--agents", "-a", help=_("comma-separated agent specs, each once"))],
    games: Annotated[int, typer.Option("--games", "-n", help=_("games between each pair of agents"))] = 20,
    workers: Annotated[int, typer.Option("--workers", "-w", help=_("parallel processes"))] = 1,
    seed: Annotated[int, typer.Option(help=_("seed of the whole run"))] = 0,
    out: Annotated[Optional[Path], typer.Option(help=_("folder for each pair's records and ladder.json (default ladder-GAME)"))] = None,
    option: Annotated[list[str], typer.Option("--option", "-o", help=_("game option KEY=VALUE (repeatable)"))] = [],  # noqa: B006
    ray: Annotated[Optional[str], typer.Option(help=_("run on Ray: auto (this machine's cluster), local (start one here) or a cluster address"))] = None,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    from tileworks.cli.progress import Progress
    from tileworks.arena.ladder import LadderConfig, run_ladder

    try:
        config = LadderConfig(game=game, agents=split_specs(agents), games=games, out=out or Path(f"ladder-{game}"),
                              seed=seed, workers=workers, options=parse_options(game, option), ray=ray)
    except ValueError as exc:
        _fail(str(exc))
    console = Console()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console) as bar:
        task = bar.add_task(_("{game}: {pairs} pairs", game=game, pairs=len(config.matches)), total=None)
        try:
            summary = run_ladder(config, lambda done, total: bar.update(task, completed=done, total=total))
        except ValueError as exc:  # e.g. --ray without Ray
            bar.stop()
            _fail(str(exc))
    table = Table(title=_("{game}: {games} games, {per} between each pair", game=game, games=summary["games"],
                          per=games))
    timed = any(row["seconds_a_move"] is not None for row in summary["ranking"])
    for column in (_("rank"), _("agent"), _("rating μ ± σ"), _("ordinal (μ − 3σ)"), _("score"),
                   *([_("time a move")] if timed else [])):
        table.add_column(column)
    for rank, row in enumerate(summary["ranking"], 1):
        table.add_row(str(rank), row["agent"], f"{row['mu']:.1f} ± {row['sigma']:.1f}", f"{row['ordinal']:.1f}",
                      f"{row['score']:.2f}", *([_time_a_move(row)] if timed else []))
    console.print(table)
    pairs_table = Table(title=_("each pair: the first agent's score"))
    for column in (_("pair"), _("games"), _("score (95% CI)")):
        pairs_table.add_column(column)
    for row in summary["pairs"]:
        low, high = row["score_95"]
        pairs_table.add_row(" – ".join(row["agents"]), str(row["games"]), f"{row['score']:.2f} ({low:.2f}–{high:.2f})")
    console.print(pairs_table)
    if summary["resumed"]:
        console.print(_("Resumed: {resumed} games were already played; {played} new.", resumed=summary["resumed"],
                        played=summary["played"]))
    console.print(_("Records and ladder.json in {path}", path=config.out))


@app.command(help=_("Host games for browsers and scripts: HTTP and WebSocket API, durable storage, AI seats."))
def serve(
    host: Annotated[str, typer.Option(help=_("address to listen on"))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=_("port to listen on"))] = 8000,
    db: Annotated[Optional[str], typer.Option(help=_("SQLAlchemy database URL (default: SQLite in --data)"))] = None,
    data: Annotated[Path, typer.Option(help=_("folder for the default SQLite database"))] = Path("data"),
    ai_workers: Annotated[int, typer.Option(help=_("processes that search for AI seats"))] = 2,
    abandon_after: Annotated[float, typer.Option(
        min=0.0001, help=_("days without a move after which a game with no running clock ends as abandoned"))] = 7.0,
    workers: Annotated[int, typer.Option(
        min=1, max=64, help=_("server processes sharing the port and the database (more than 1 needs PostgreSQL)"))] = 1,
    password_memory: Annotated[Optional[int], typer.Option(
        min=1, help=_("MiB of memory argon2id hashes each password with (RFC 9106: 64 with 3 passes, "
                      "or 2048 with 1)"))] = None,
    password_passes: Annotated[Optional[int], typer.Option(
        min=1, help=_("argon2id's passes over that memory; accounts move to new settings at their next login"))] = None,
) -> None:
    from tileworks.server import create_app, transport
    from tileworks.server.app import MAX_FRAME, SETTINGS_VARIABLE
    from tileworks.server.store import connect, default_url

    url = db or default_url(data)
    settings = {"db_url": url, "ai_workers": ai_workers, "abandon_after": abandon_after * 24 * 3600}
    if password_memory is not None:  # else the server's default, RFC 9106's low-memory settings
        settings["password_memory_kib"] = password_memory * 1024
    if password_passes is not None:
        settings["password_passes"] = password_passes
    try:
        if workers > 1 and not url.startswith("postgresql"):
            raise ValueError(_("--workers {workers} needs a PostgreSQL database (--db postgresql+psycopg://...): "
                               "the processes hear of each other's moves through it", workers=workers))
        if workers == 1:
            application = create_app(**settings)
        else:
            application = None
            connect(url).dispose()  # the schema in place once, before the workers start
    except Exception as exc:  # e.g. an unreadable URL, a database that refuses
        _fail(_("cannot start the server: {error}", error=exc))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    Console(soft_wrap=True).print(_("tileworks is serving on {address} (database: {database}); Ctrl-C stops it",
                                    address=f"[bold]http://{shown}:{port}[/]", database=_safe_url(url)))
    if application is not None:
        transport.run(application, host=host, port=port, ws_max_size=MAX_FRAME)
    else:
        os.environ[SETTINGS_VARIABLE] = json.dumps(settings)  # each worker process reads it
        transport.run("tileworks.server.app:app_from_environment", host=host, port=port, ws_max_size=MAX_FRAME,
                      workers=workers)


def _safe_url(url: str) -> str:
    """A database URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


_defining.__exit__(None, None, None)


def main() -> None:
    with language(system_language()):
        app()


if __name__ == "__main__":  # pragma: no cover
    main()
