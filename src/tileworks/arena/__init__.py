"""The arena: many games between agents, in parallel, with statistics and ratings.

Generic: it plays any registered game through the protocol. Game ``i`` seats
agent ``(s + i) % n`` in seat ``s``, so each agent plays each seat equally
often over a multiple of ``n`` games; its chance and its agents are seeded
from the run's seed and ``i``, so a run is reproducible and a game can be
replayed alone. Every finished game is saved as a record in ``OUT/games``
and as a line of the run's ledger, ``OUT/results.jsonl`` (the game's index,
seats, returns and scores, each seat's thinking time, with the run's game,
options and seed, and what its learned agents played with); running again
with the same folder skips the games either holds, so an interrupted run
resumes where it stopped.
The ledger is small enough to keep under version control, so a run of many
hours can go on from one machine or session to the next without its
records. Games run in local processes or as Ray tasks
(:mod:`tileworks.arena.runners`), with the same results.
"""

from __future__ import annotations

import functools
import json
import math
import os
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import tileworks
from tileworks.agents import check_plays, check_reproducible, make
from tileworks.arena.playing import play_seeded
from tileworks.arena.runners import make_runner
from tileworks.core.records import save_record


@dataclass
class RunConfig:
    """What a run plays, an arena's or a ladder's: ``games`` of ``game`` (with
    the game ``options``) between ``agents``, their records under ``out``."""

    game: str
    agents: list[str]
    games: int
    out: Path
    seed: int = 0
    workers: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    #: a Ray cluster to run on (see :class:`~tileworks.arena.runners.RayRunner`); None: local processes
    ray: str | None = None


@dataclass
class ArenaConfig(RunConfig):
    """An arena's run: one agent a seat, seats rotating from game to game; ``players`` follows the agents."""

    def __post_init__(self) -> None:
        if len(self.agents) < 2:
            raise ValueError("an arena needs at least two agents (one per seat)")
        for spec in self.agents:
            check_reproducible(spec)
        if self.games < 1 or self.workers < 1:
            raise ValueError("--games and --workers must be at least 1")
        players = self.options.get("players", len(self.agents))
        if players != len(self.agents):
            raise ValueError(f"{len(self.agents)} agents need players={len(self.agents)}, not {players}")
        self.options = {**self.options, "players": len(self.agents)}
        game = tileworks.load_game(self.game, **self.options)  # validates game and options now
        for spec in dict.fromkeys(self.agents):
            check_plays(spec, game)


def seating(config: RunConfig, index: int) -> list[str]:
    """The agent spec in each seat of game ``index`` (rotated by the index)."""
    n = len(config.agents)
    return [config.agents[(seat + index) % n] for seat in range(n)]


def play_game(config: ArenaConfig, index: int) -> dict[str, Any]:
    """Play game ``index`` and save its record; returns its result."""
    game = tileworks.load_game(config.game, **config.options)
    specs = seating(config, index)
    played = play_seeded(game, specs, seed=config.seed * 1_000_003 + index)
    state = played.state
    path = record_path(config.out, index)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_record(state, path, specs)
    return {"index": index, "seats": specs, "returns": state.returns(), "scores": state.scores(),
            "decisions": played.decisions, "seconds": [round(s, 6) for s in played.seconds], "timed": played.timed}


def _play_job(job: tuple[ArenaConfig, int]) -> dict[str, Any]:
    return play_game(*job)


def record_path(out: Path, index: int) -> Path:
    return Path(out) / "games" / f"game-{index:05d}.json"


def finished_result(out: Path, index: int) -> dict[str, Any] | None:
    """The result of a game whose record is saved, or None (missing or unreadable)."""
    path = record_path(out, index)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        result = data["result"]
        return {
            "index": index,
            "seats": data["players"],
            "returns": result["returns"],
            "scores": result["scores"],
            "decisions": sum(1 for a in data["actions"] if a["player"] >= 0),
        }
    except (OSError, ValueError, KeyError, TypeError):
        return None


#: the fields of a result that a ledger line holds besides the run's identity
RESULT_FIELDS = ("index", "seats", "returns", "scores", "decisions")
#: each seat's thinking time over its decisions that were a choice, and their number: noted since
#: 2026-12-03, so older lines (and a result read back from a record) lack them
TIME_FIELDS = ("seconds", "timed")


def result_of(line: dict[str, Any]) -> dict[str, Any]:
    """A ledger line's result: its result fields, and its time fields where it has them."""
    return {key: line[key] for key in RESULT_FIELDS + TIME_FIELDS if key in line}


def times_a_move(results: list[dict[str, Any]]) -> dict[str, tuple[float | None, int]]:
    """Each agent's mean seconds over its timed decisions in the ``results``
    that noted them, and the number of those games; an agent in none of them
    is left out, and its mean is None where its games timed no decision.

    >>> times_a_move([{"seats": ["a", "b"], "seconds": [3.0, 1.0], "timed": [2, 2]}, {"seats": ["b", "a"]}])
    {'a': (1.5, 1), 'b': (0.5, 1)}
    """
    seconds: dict[str, float] = {}
    timed: dict[str, int] = {}
    games: dict[str, int] = {}
    for result in (result for result in results if "seconds" in result):
        for name, spent, decisions in zip(result["seats"], result["seconds"], result["timed"], strict=True):
            seconds[name] = seconds.get(name, 0.0) + spent
            timed[name] = timed.get(name, 0) + decisions
        for name in dict.fromkeys(result["seats"]):  # a game counts once for an agent in two seats
            games[name] = games.get(name, 0) + 1
    return {name: (seconds[name] / timed[name] if timed[name] else None, count) for name, count in games.items()}


def ledger_path(out: Path) -> Path:
    return Path(out) / "results.jsonl"


def run_identity(config: RunConfig) -> dict[str, Any]:
    """What a ledger line says of its run: the game, the options and the seed
    (a game's index, seats and seed fix it; the number of games does not)."""
    return {"game": config.game, "options": json.loads(json.dumps(config.options)), "seed": config.seed}


def played_with(config: RunConfig) -> dict[str, str]:
    """What each of the run's agents plays with beyond its spec (a shipped
    network and its settings; :meth:`~tileworks.agents.Agent.plays_with`), by
    spec, for those that play with something."""
    return dict(_played_with(config.game, json.dumps(config.options, sort_keys=True), tuple(config.agents)))


@functools.cache
def _played_with(game_name: str, options: str, specs: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    game = tileworks.load_game(game_name, **json.loads(options))
    found = ((spec, make(spec).plays_with(game)) for spec in dict.fromkeys(specs))
    return tuple((spec, line) for spec, line in found if line is not None)


def read_ledger(out: Path) -> list[dict[str, Any]]:
    """The ledger's complete lines; one cut off while being written (or
    lacking a field) is left out, and its game is played again."""
    try:
        text = ledger_path(out).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    lines = []
    for line in text.splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and all(key in data for key in RESULT_FIELDS):
            lines.append(data)
    return lines


def note_result(config: RunConfig, result: dict[str, Any]) -> None:
    """Add a finished game to the run's ledger (one JSON line)."""
    path = ledger_path(config.out)
    noted = {**run_identity(config), **result_of(result)}
    if with_what := played_with(config):
        noted["played_with"] = with_what
    line = json.dumps(noted)
    with path.open("a+b") as ledger:  # appends go to the end wherever it has read
        if ledger.seek(0, os.SEEK_END):
            ledger.seek(-1, os.SEEK_END)
            if ledger.read(1) != b"\n":
                ledger.write(b"\n")  # after a line cut off by a kill
        ledger.write(line.encode("utf-8") + b"\n")


def saved_results(config: ArenaConfig) -> dict[int, dict[str, Any]]:
    """The games of this run that are already played, by index: the ledger's,
    and any whose record the ledger lacks (added to it).

    Raises ValueError, naming the folder, where it holds another run's games
    (another game, options, seed or agents, or agents of the same specs that
    played with another network or its settings): mixing them would count
    games this run did not play. A line written before the ledger noted
    ``played_with`` is not checked for it.
    """
    identity, with_what = run_identity(config), played_with(config)
    found: dict[int, dict[str, Any]] = {}
    for line in read_ledger(config.out):  # each line has the result's fields
        index = line["index"]
        if not isinstance(index, int) or not 0 <= index < config.games:
            continue
        saved = {key: line.get(key) for key in identity}
        if saved != identity or line["seats"] != seating(config, index):
            raise ValueError(_another_run(config, index, {**saved, "seats": line["seats"]}))
        if "played_with" in line and line["played_with"] != with_what:
            raise ValueError(f"{config.out} holds game {index} played with {_described_with(line['played_with'])}, "
                             f"but this run's agents play with {_described_with(with_what)}: a network or its "
                             "settings changed since, so these are other agents under the same specs; give the run "
                             "another --out")
        found[index] = result_of(line)
    for index in range(config.games):
        if index not in found and (result := finished_result(config.out, index)) is not None:
            if result["seats"] != seating(config, index):
                raise ValueError(_another_run(config, index, {"seats": result["seats"]}))
            note_result(config, result)
            found[index] = result
    return found


def _described_with(with_what: Any) -> str:
    if not isinstance(with_what, dict) or not with_what:
        return "nothing beyond their specs"
    return "; ".join(f"{spec}: {line}" for spec, line in with_what.items())


def _another_run(config: ArenaConfig, index: int, saved: dict[str, Any]) -> str:
    def described(run: dict[str, Any]) -> str:
        return ", ".join(f"{key} {json.dumps(value)}" for key, value in run.items())

    ours = {key: value for key, value in {**run_identity(config), "seats": seating(config, index)}.items()
            if key in saved}
    return (f"{config.out} holds game {index} of another run ({described(saved)}), not this run's "
            f"({described(ours)}); give the run another --out")


def run(config: ArenaConfig, progress: Callable[[dict[str, Any], list[dict[str, Any]]], None] | None = None) -> dict[str, Any]:
    """Play every game not yet saved, then summarise all of them.

    ``progress(result, results_so_far)`` is called after each game.
    Returns the summary (also written to ``OUT/summary.json``).
    """
    Path(config.out).mkdir(parents=True, exist_ok=True)
    done = saved_results(config)
    results = list(done.values())
    todo = [i for i in range(config.games) if i not in done]
    resumed = len(results)
    runner = make_runner(config.workers, config.ray)
    try:
        for result in runner.results(_play_job, [(config, index) for index in todo]):
            note_result(config, result)
            results.append(result)
            if progress:
                progress(result, results)
    finally:
        runner.close()
    results.sort(key=lambda r: r["index"])
    summary = summarise(config, results)
    summary["resumed"] = resumed
    if with_what := played_with(config):
        summary["played_with"] = with_what
    summary["played"] = len(todo)
    (Path(config.out) / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


def standing(out: Path) -> dict[str, Any]:
    """The summary of the games in a run's ledger so far, read from the folder
    alone; it plays nothing and writes nothing, so it may be read while the
    run plays on. The run's agents follow from the seating of its games.

    ``indices`` lists the games held, which need not run from 0 without a gap:
    with several workers, games finish out of order.

    Raises ValueError, naming the folder, where it has no ledger or holds the
    games of more than one run.
    """
    config, lines = _held_run(out)
    summary = summarise(config, [result_of(line) for _, line in sorted(lines.items())])
    summary["indices"] = sorted(lines)
    played = _noted_with(lines)
    if played:
        summary["played_with"] = played
    return summary


def _noted_with(lines: dict[int, dict[str, Any]]) -> dict[str, str]:
    """What a run's learned agents played with, as its ledger notes it (one
    run's lines all note the same); empty where no line notes it."""
    return next((line["played_with"] for _, line in sorted(lines.items()) if "played_with" in line), {})


def _held_run(out: Path) -> tuple[RunConfig, dict[int, dict[str, Any]]]:
    """The run a folder's ledger holds (its agents from the seating of its
    games) and its lines by game index, checked to be of one run (see :func:`standing`)."""
    lines = {line["index"]: line for line in read_ledger(out)  # a game noted twice counts once
             if isinstance(line["index"], int) and line["index"] >= 0 and isinstance(line["seats"], list) and line["seats"]}
    if not lines:
        pairs = sorted(path.parent.name for path in Path(out).glob(f"*/{ledger_path(Path()).name}"))
        ladder = f" (a ladder's pairs each have their own: {', '.join(pairs)})" if pairs else ""
        raise ValueError(f"{out} holds no finished game: no lines in {ledger_path(out)}{ladder}")
    first = lines[min(lines)]
    n = len(first["seats"])
    agents = [first["seats"][(k - first["index"]) % n] for k in range(n)]
    config = RunConfig(game=first.get("game"), agents=agents, games=len(lines), out=Path(out), seed=first.get("seed"),
                       options=first.get("options") or {})
    identity = run_identity(config)  # what every line of one run says alike
    noted_with = [line for _, line in sorted(lines.items()) if "played_with" in line]
    for index, line in sorted(lines.items()):
        if {key: line.get(key) for key in identity} != identity or line["seats"] != seating(config, index):
            raise ValueError(f"{out} holds games of more than one run: game {index} differs from game "
                             f"{first['index']} in its game, options, seed or seating")
        if "played_with" in line and line["played_with"] != noted_with[0]["played_with"]:
            raise ValueError(f"{out} holds games of more than one run: game {index} was played with "
                             f"{_described_with(line['played_with'])}, game {noted_with[0]['index']} with "
                             f"{_described_with(noted_with[0]['played_with'])}")
    return config, lines


def paired(out: Path, other: Path) -> dict[str, Any]:
    """Two runs on the same deals compared game by game: the games both
    ledgers hold, where the same index, game, options and seed give the same
    seating and the same seeded chance, so the ``k``-th agent of one sits
    where the other run's ``k``-th sits. Two rows against the same opponent,
    one with a new network, are told apart with fewer games this way than
    by their separate intervals, as the luck of a deal falls on both.

    For each agent position, with this run's agent and the other's (and
    what each played with, where the ledgers note it): the games it did
    ``better``, the ``same`` and ``worse`` (by its return: a shared win is
    between), the mean difference of its returns with a 95% interval
    (normal), and the exact two-sided sign test's p-value on the games
    that differ. Raises ValueError, naming both folders, where the
    runs are not on the same deals or share no game.
    """
    mine, my_lines = _held_run(out)
    theirs, their_lines = _held_run(other)
    here, there = run_identity(mine), run_identity(theirs)  # the game, its options and the seed fix the deals
    for what in here:
        if here[what] != there[what]:
            raise ValueError(f"{out} and {other} are not on the same deals: {what} {here[what]} against {there[what]}")
    common = sorted(set(my_lines) & set(their_lines))
    if not common:
        raise ValueError(f"{out} and {other} share no game: their ledgers hold {len(my_lines)} and "
                         f"{len(their_lines)} games, none of the same number")
    n, agents = len(mine.agents), []
    my_with, their_with = _noted_with(my_lines), _noted_with(their_lines)
    for k in range(n):
        differences = [my_lines[i]["returns"][(k - i) % n] - their_lines[i]["returns"][(k - i) % n] for i in common]
        better, worse = sum(d > 0 for d in differences), sum(d < 0 for d in differences)
        mean = statistics.fmean(differences)
        spread = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else 2.0
        row = {"agent": mine.agents[k], "other": theirs.agents[k], "better": better,
               "same": len(differences) - better - worse, "worse": worse, "difference": mean,
               "difference_95": [max(-1.0, mean - spread), min(1.0, mean + spread)],
               "sign_test_p": sign_test(better, worse)}
        if mine.agents[k] in my_with:
            row["played_with"] = my_with[mine.agents[k]]
        if theirs.agents[k] in their_with:
            row["other_played_with"] = their_with[theirs.agents[k]]
        agents.append(row)
    return {"with": str(other), "games": len(common), "indices": common, "agents": agents}


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided sign test's p-value: how likely a split at least
    as uneven as ``better`` to ``worse`` is where each is as likely as the other.

    >>> round(sign_test(14, 8), 3), sign_test(5, 5), round(sign_test(10, 0), 4)
    (0.286, 1.0, 0.002)
    """
    n, fewer = better + worse, min(better, worse)
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(fewer + 1)) / 2 ** n)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (shared wins count fractionally).

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return (max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator))


def summarise(config: RunConfig, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per agent: wins with a 95% interval, scores, per-seat win rates, an
    openskill rating (games rated in index order, ranked by their returns)
    and its time a move: the mean over its timed decisions (those that were a
    choice) in the games that noted them, ``timed_games`` of them; None where
    none did."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    names = list(dict.fromkeys(config.agents))
    ratings = {name: model.rating(name=name) for name in names}
    per: dict[str, dict[str, Any]] = {
        name: {"games": 0, "wins": 0.0, "scores": [], "seat_games": {}, "seat_wins": {}} for name in names
    }
    for result in results:
        for seat, name in enumerate(result["seats"]):
            entry = per[name]
            entry["games"] += 1
            entry["wins"] += result["returns"][seat]
            entry["scores"].append(result["scores"][seat])
            entry["seat_games"][seat] = entry["seat_games"].get(seat, 0) + 1
            entry["seat_wins"][seat] = entry["seat_wins"].get(seat, 0.0) + result["returns"][seat]
        if len(set(result["seats"])) == len(result["seats"]):
            teams = [[ratings[name]] for name in result["seats"]]
            ranks = [-r for r in result["returns"]]  # lower rank is better
            for name, (rated,) in zip(result["seats"], model.rate(teams, ranks=ranks), strict=True):
                ratings[name] = rated
    times = times_a_move(results)
    agents = []
    for name in names:
        entry = per[name]
        seconds_a_move, timed_games = times.get(name, (None, 0))
        games = entry["games"]
        low, high = wilson(entry["wins"], games)
        scores = entry["scores"]
        agents.append({
            "agent": name,
            "games": games,
            "wins": entry["wins"],
            "win_rate": entry["wins"] / games if games else 0.0,
            "win_rate_95": [low, high],
            "mean_score": statistics.fmean(scores) if scores else 0.0,
            "score_sd": statistics.pstdev(scores) if len(scores) > 1 else 0.0,
            "seat_win_rates": {
                str(seat + 1): entry["seat_wins"][seat] / entry["seat_games"][seat] for seat in sorted(entry["seat_games"])
            },
            "rating": {"mu": ratings[name].mu, "sigma": ratings[name].sigma, "ordinal": ratings[name].ordinal()},
            "seconds_a_move": seconds_a_move,
            "timed_games": timed_games,
        })
    lengths = [r["decisions"] for r in results]
    return {
        **run_identity(config),  # the game, its options (as JSON) and the seed
        "agents": agents,
        "games": len(results),
        "mean_decisions": statistics.fmean(lengths) if lengths else 0.0,
    }
