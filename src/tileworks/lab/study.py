"""Study files: what a balance study plays, read from TOML and checked whole.

A study names one game, fixed options, a grid of options (each axis a list
of values; the study plays every combination), one or more line-ups of
agents, the number of games in each cell and a seed::

    [study]
    title = "KILN: heating up"
    game = "kiln"
    games = 200              # games per cell
    seed = 1
    measures = ["balance", "catch_up"]   # default: every measure
    baseline = {heat_tokens = []}        # the cell others are compared with (default: each axis's first value)
    paired = true            # every cell plays the same chance seeds (paired comparisons)
    adjust = "holm"          # multiple tests: "holm" (default) or "bh"
    precision = 0.03         # play each cell until its main interval is within 0.03 (games: the cap)

    [options]                # the same in every cell
    goal = 17

    [grid]                   # one cell per combination (and per line-up)
    heat_tokens = [[], [5, 8, 14, 17, 19, 23, 26]]
    # goal = {from = 10, to = 30, step = 2}   # a numeric sweep, fitted with response curves

    [sweep]                  # ask again at each strength: a line-up of each agent in every seat,
    agents = ["greedy", "mcts:easy", "mcts:medium"]   # and the weakest against the strongest
    games = {greedy = 1000, "mcts:easy" = 100}       # optional: games a cell, one number or by agent

    [[lineups]]
    name = "greedy against mcts:easy"
    agents = ["greedy", "mcts:easy"]
    weaker = "greedy"        # for the catch-up measure
    games = 100              # this line-up's games per cell (default: the study's)

A line-up of one agent fills every seat. Every problem is found before
anything is played, and named with its line:

>>> load_study_text('[study]\\ngame = "kiln"\\ngames = 10\\n[[lineups]]\\nagents = ["greedy", "wizard"]\\n')
Traceback (most recent call last):
...
tileworks.lab.study.StudyError: study line 5: unknown agent 'wizard' in spec 'wizard'; valid specs: alpha, greedy, mcts, net, random
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tileworks
from tileworks.agents import check_plays, check_reproducible
from tileworks.core.registry import game_info

#: every measure a study may ask for (see tileworks.lab.measures)
MEASURES = ("balance", "agents", "scores", "margin", "duration", "drawishness", "tiebreak", "lead_change",
            "comeback", "catch_up", "complexity")

_KEYS = {
    "study": {"title", "game", "games", "seed", "measures", "baseline", "paired", "adjust", "precision"},
    "options": None,  # any option of the game
    "grid": None,
    "lineups": {"name", "agents", "weaker", "games"},
    "sweep": {"agents", "games"},
}


class StudyError(ValueError):
    """A study file that cannot be run; the message names the line."""


@dataclass(frozen=True)
class Lineup:
    """Agents seated in a cell: one spec per seat, or one spec for every seat."""

    name: str
    agents: tuple[str, ...]
    weaker: str | None = None
    games: int | None = None  # games per cell for this line-up (None: the study's)

    def seats(self, players: int, index: int) -> list[str]:
        """The spec in each seat of game ``index``: seats rotate with the index,
        so each agent sits in each seat equally often over ``players`` games."""
        if len(self.agents) == 1:
            return [self.agents[0]] * players
        return [self.agents[(seat + index) % players] for seat in range(players)]


@dataclass(frozen=True)
class Cell:
    """One option set with one line-up: ``games`` games, seeded by index."""

    number: int
    options: dict[str, Any]
    axes: dict[str, Any]  # the grid's values for this cell
    lineup: Lineup

    @property
    def key(self) -> str:
        """A stable name for the cell: its grid values and its line-up."""
        values = ",".join(f"{name}={_shown(value)}" for name, value in self.axes.items())
        return f"{values or 'base'} | {self.lineup.name}"

    @property
    def label(self) -> str:
        """A short label for tables and figures."""
        values = ", ".join(f"{name}={_shown(value)}" for name, value in self.axes.items())
        return values or self.lineup.name

    @property
    def players(self) -> int:
        return int(self.options["players"])

    def games(self, study: Study) -> int:
        """How many games this cell plays."""
        return self.lineup.games or study.games


@dataclass
class Study:
    """A checked study (see the module docs)."""

    game: str
    games: int
    seed: int
    lineups: list[Lineup]
    options: dict[str, Any] = field(default_factory=dict)
    grid: dict[str, list[Any]] = field(default_factory=dict)
    measures: tuple[str, ...] = MEASURES
    title: str = ""
    source: str = ""
    baseline: dict[str, Any] = field(default_factory=dict)  # grid values (and "lineup") of the baseline cell
    paired: bool = False  # every cell plays the same chance seeds
    adjust: str = "holm"  # how the tests are adjusted: "holm" or "bh"
    sweeps: tuple[str, ...] = ()  # numeric grid axes, written {from, to, step}: fitted with response curves
    precision: float | None = None  # stop each cell once its main interval is this narrow (games: the cap)
    strengths: tuple[str, ...] = ()  # a strength sweep's agents, weakest first ([sweep] agents)

    def __post_init__(self) -> None:
        # a line-up that names a weaker agent (a strength sweep's weakest against strongest among them)
        # is there to be measured: its catch-up measure is the upset rate
        if "catch_up" not in self.measures and any(lineup.weaker for lineup in self.lineups):
            self.measures = (*self.measures, "catch_up")

    def cells(self) -> list[Cell]:
        """Every cell: the grid's product (last axis fastest) for each line-up."""
        names = list(self.grid)
        cells: list[Cell] = []
        for lineup in self.lineups:
            for values in itertools.product(*(self.grid[name] for name in names)):
                axes = dict(zip(names, values, strict=True))
                options = {**self.options, **axes}
                if "players" not in options:
                    options["players"] = len(lineup.agents) if len(lineup.agents) > 1 else game_info(self.game).options.defaults()["players"]
                cells.append(Cell(len(cells), options, axes, lineup))
        return cells

    def game_seed(self, cell: Cell, index: int) -> int:
        """The seed of game ``index`` of ``cell``: from the study's seed and the
        cell's key, so adding a value to an axis changes no other cell's games.
        In a paired study every cell's game ``index`` has the same seed (the
        same chance: bag draws, deals, first player), so cells compare game by game."""
        where = "paired" if self.paired else cell.key
        digest = hashlib.sha256(f"{self.seed}/{where}/{index}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 2

    def baseline_of(self) -> dict[int, int]:
        """Each cell's baseline cell: the baseline's grid values with the
        cell's own line-up, or the line-up the baseline names. A baseline that
        names some axes keeps the cell's own values on the others (grey
        against standard at each player count); with none named, every axis
        takes its first value."""
        cells = self.cells()
        named = any(name in self.baseline for name in self.grid)
        found: dict[int, int] = {}
        for cell in cells:
            wanted = {name: self.baseline.get(name, cell.axes[name] if named else values[0])
                      for name, values in self.grid.items()}
            lineup = self.baseline.get("lineup", cell.lineup.name)
            for other in cells:
                if other.lineup.name == lineup and all(_shown(other.axes[k]) == _shown(v) for k, v in wanted.items()):
                    found[cell.number] = other.number
                    break
        return found

    def fingerprint(self) -> str:
        """What fixes the games played (all but the number of games, which may
        grow between runs into the same folder)."""
        fixed = {"game": self.game, "seed": self.seed, "cells": [c.key for c in self.cells()],
                 "options": [_jsonable(c.options) for c in self.cells()],
                 "agents": [list(c.lineup.agents) for c in self.cells()]}
        if self.paired:  # other seeds (unpaired studies keep the fingerprints they had)
            fixed["paired"] = True
        return hashlib.sha256(json.dumps(fixed, sort_keys=True).encode()).hexdigest()[:16]

    def describe(self) -> dict[str, Any]:
        """The study as plain data (saved beside its results)."""
        return {"title": self.title, "game": self.game, "games": self.games, "seed": self.seed,
                "options": _jsonable(self.options), "grid": {k: [_jsonable(v) for v in vs] for k, vs in self.grid.items()},
                "lineups": [{"name": l.name, "agents": list(l.agents), "weaker": l.weaker, "games": l.games or self.games}
                            for l in self.lineups],
                "measures": list(self.measures), "baseline": _jsonable(self.baseline), "paired": self.paired,
                "adjust": self.adjust, "sweeps": list(self.sweeps), "precision": self.precision,
                "strengths": list(self.strengths),
                "fingerprint": self.fingerprint()}


def study_from_description(described: dict[str, Any]) -> Study:
    """The study saved in a results folder's ``study.json``."""
    lineups = [Lineup(entry["name"], tuple(entry["agents"]), entry.get("weaker"), entry.get("games"))
               for entry in described["lineups"]]
    return Study(game=described["game"], games=described["games"], seed=described["seed"], lineups=lineups,
                 options=described.get("options", {}), grid=described.get("grid", {}),
                 measures=tuple(described.get("measures", MEASURES)), title=described.get("title", ""),
                 baseline=described.get("baseline", {}), paired=described.get("paired", False),
                 adjust=described.get("adjust", "holm"), sweeps=tuple(described.get("sweeps", ())),
                 precision=described.get("precision"), strengths=tuple(described.get("strengths", ())))


def load_study(path: str | Path) -> Study:
    """Read and check a study file; raises :class:`StudyError` naming the line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StudyError(f"cannot read study file {str(path)!r}: {exc.strerror}") from None
    return load_study_text(text, name=path.name)


def load_study_text(text: str, name: str = "study") -> Study:
    """Read and check a study from TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"{name}: not valid TOML: {exc}") from None
    return _Checker(text, name, data).study()


class _Checker:
    """Checks a parsed study file, naming the line of each problem."""

    def __init__(self, text: str, name: str, data: dict[str, Any]):
        self.lines = text.splitlines()
        self.name = name
        self.data = data

    def fail(self, message: str, table: str | None = None, key: str | None = None, entry: int = 0) -> StudyError:
        line = self.line_of(table, key, entry)
        where = f"{self.name} line {line}" if line else self.name
        return StudyError(f"{where}: {message}")

    def games_count(self, count: Any, table: str, entry: int = 0) -> None:
        """Refuses a games count (per cell) that is not a whole number of at least 1."""
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise self.fail(f"games (per cell) must be a whole number of at least 1, not {count!r}", table, "games", entry)

    def line_of(self, table: str | None, key: str | None, entry: int = 0) -> int | None:
        """The line of ``key`` in ``[table]`` (the ``entry``-th ``[[table]]``),
        or of the table's header when ``key`` is None."""
        current, seen, header = None, -1, None
        for number, line in enumerate(self.lines, 1):
            stripped = line.strip()
            if match := re.match(r"^\[\[\s*([\w.-]+)\s*\]\]", stripped):
                current = match.group(1)
                if current == table:
                    seen += 1
                    if seen == entry:
                        header = number
                continue
            if match := re.match(r"^\[\s*([\w.-]+)\s*\]", stripped):
                current = match.group(1)
                if current == table:
                    header = number
                continue
            if key is not None and current == table and (table != "lineups" or seen == entry):
                if re.match(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", line):
                    return number
        return header

    def study(self) -> Study:
        data = self.data
        for table in data:
            if table not in _KEYS:
                raise self.fail(f"unknown table [{table}]; a study has [study], [options], [grid], [[lineups]] and [sweep]",
                                table)
        head = self.table("study")
        for key in head:
            if key not in _KEYS["study"]:
                raise self.fail(f"unknown key {key!r} in [study]; keys are: {', '.join(sorted(_KEYS['study']))}",
                                "study", key)
        game = head.get("game")
        if game is None:
            raise self.fail("the study names no game: add game = \"NAME\" to [study]", "study")
        games = {entry["name"]: entry for entry in tileworks.list_games()}
        if game not in games:
            raise self.fail(f"unknown game {game!r}; games: {', '.join(sorted(games))}", "study", "game")
        count = head.get("games")
        self.games_count(count, "study")
        seed = head.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise self.fail(f"seed must be a whole number of at least 0, not {seed!r}", "study", "seed")
        measures = head.get("measures", list(MEASURES))
        if not isinstance(measures, list) or not measures:
            raise self.fail("measures must be a list of measure names", "study", "measures")
        for measure in measures:
            if measure not in MEASURES:
                raise self.fail(f"unknown measure {measure!r}; measures: {', '.join(MEASURES)}", "study", "measures")
        title = head.get("title", "")
        if not isinstance(title, str):
            raise self.fail("title must be a string", "study", "title")

        by_name = {option.name: option for option in game_info(game).options.options}
        options = {key: self.option(by_name, game, "options", key, value) for key, value in self.table("options").items()}
        grid: dict[str, list[Any]] = {}
        sweeps: list[str] = []
        for axis, values in self.table("grid").items():
            if axis in options:
                raise self.fail(f"grid axis {axis!r} is also set in [options]; keep it in one place", "grid", axis)
            if isinstance(values, dict):
                values = self.sweep(axis, values)
                sweeps.append(axis)
            if not isinstance(values, list) or not values:
                raise self.fail(f"grid axis {axis!r} must be a non-empty list of values, or a numeric sweep "
                                "{from = A, to = B, step = S}", "grid", axis)
            checked = [self.option(by_name, game, "grid", axis, value) for value in values]
            if len(set(map(_shown, checked))) < len(checked):
                raise self.fail(f"grid axis {axis!r} lists a value twice", "grid", axis)
            grid[axis] = checked
        strengths = self.strengths()
        lineups = self.lineups(game, options, grid, required=not strengths)
        lineups += self.sweep_lineups(strengths, options, grid, {lineup.name for lineup in lineups})
        paired = head.get("paired", False)
        if not isinstance(paired, bool):
            raise self.fail(f"paired must be true or false, not {paired!r}", "study", "paired")
        adjust = head.get("adjust", "holm")
        if adjust not in ("holm", "bh"):
            raise self.fail(f"adjust must be \"holm\" (Holm's method) or \"bh\" (Benjamini–Hochberg), not {adjust!r}",
                            "study", "adjust")
        baseline = self.baseline(head.get("baseline", {}), by_name, game, grid, lineups)
        precision = head.get("precision")
        if precision is not None and (isinstance(precision, bool) or not isinstance(precision, (int, float))
                                      or not 0.005 <= precision <= 0.25):
            raise self.fail(f"precision is the half-width of each cell's main interval, from 0.005 to 0.25, "
                            f"not {precision!r}", "study", "precision")
        study = Study(game=game, games=count, seed=seed, lineups=lineups, options=options, grid=grid,
                      measures=tuple(measures), title=title, source=self.name, baseline=baseline, paired=paired,
                      adjust=adjust, sweeps=tuple(sweeps), precision=None if precision is None else float(precision),
                      strengths=tuple(strengths))
        self.check_cells(study)
        return study

    def sweep(self, axis: str, given: dict[str, Any]) -> list[Any]:
        """A numeric axis written as ``{from = 10, to = 30, step = 2}``: its values, ends included."""
        if set(given) != {"from", "to", "step"}:
            raise self.fail(f"grid axis {axis!r}: a sweep is written {{from = A, to = B, step = S}}", "grid", axis)
        start, stop, step = given["from"], given["to"], given["step"]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, stop, step)):
            raise self.fail(f"grid axis {axis!r}: a sweep's from, to and step must be whole numbers", "grid", axis)
        if step < 1 or stop < start:
            raise self.fail(f"grid axis {axis!r}: a sweep needs step >= 1 and from <= to", "grid", axis)
        values = list(range(start, stop + 1, step))
        if len(values) > 200:
            raise self.fail(f"grid axis {axis!r}: the sweep makes {len(values)} values; at most 200", "grid", axis)
        return values

    def baseline(self, given: Any, by_name: dict[str, Any], game: str, grid: dict[str, list[Any]],
                 lineups: list[Lineup]) -> dict[str, Any]:
        """The baseline cell: a value of some grid axes, and perhaps a line-up."""
        if not isinstance(given, dict):
            raise self.fail("baseline must be a table of grid values, e.g. baseline = {variant = \"grey\"}, "
                            "and may name a line-up: {lineup = \"NAME\"}", "study", "baseline")
        chosen: dict[str, Any] = {}
        for key, value in given.items():
            if key == "lineup":
                if value not in [lineup.name for lineup in lineups]:
                    raise self.fail(f"baseline names line-up {value!r}, which the study does not have; line-ups: "
                                    f"{', '.join(lineup.name for lineup in lineups)}", "study", "baseline")
                chosen[key] = value
                continue
            if key not in grid:
                raise self.fail(f"baseline names {key!r}, which is no grid axis"
                                + (f"; axes: {', '.join(grid)}" if grid else " (the study has no grid)"),
                                "study", "baseline")
            try:
                checked = by_name[key].validate(value)
            except ValueError as exc:
                raise self.fail(f"baseline: {exc}", "study", "baseline") from None
            if _shown(checked) not in [_shown(v) for v in grid[key]]:
                raise self.fail(f"baseline {key} = {_shown(checked)} is not one of the grid's values "
                                f"({', '.join(_shown(v) for v in grid[key])})", "study", "baseline")
            chosen[key] = checked
        return chosen

    def table(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(f"{name} must be a table ([{name}])", name)
        return value

    def option(self, by_name: dict[str, Any], game: str, table: str, key: str, value: Any) -> Any:
        if key not in by_name:
            raise self.fail(f"unknown option {key!r} for {game}; options are: {', '.join(sorted(by_name))}", table, key)
        try:
            return by_name[key].validate(value)
        except ValueError as exc:
            raise self.fail(str(exc), table, key) from None

    def strengths(self) -> list[str]:
        """``[sweep] agents``: the strengths the question is asked again at, weakest first."""
        sweep = self.table("sweep")
        for key in sweep:
            if key not in _KEYS["sweep"]:
                raise self.fail(f"unknown key {key!r} in [sweep]; keys are: agents, games", "sweep", key)
        if not sweep:
            return []
        agents = sweep.get("agents")
        if not isinstance(agents, list) or len(agents) < 2 or not all(isinstance(a, str) for a in agents) \
                or len(set(agents)) < len(agents):
            raise self.fail("[sweep] agents must list two or more different agent specs, weakest first, "
                            "e.g. [\"greedy\", \"mcts:easy\", \"mcts:medium\"]", "sweep", "agents")
        for spec in agents:
            try:
                check_reproducible(spec)
            except ValueError as exc:
                raise self.fail(str(exc), "sweep", "agents") from None
        return agents

    def sweep_lineups(self, strengths: list[str], options: dict[str, Any], grid: dict[str, list[Any]],
                      taken: set[str]) -> list[Lineup]:
        """A strength sweep's line-ups: every seat one strength, for each
        strength; and the weakest against the strongest (the upset rate),
        where the study has one player count."""
        if not strengths:
            return []
        games = self.sweep_games(strengths)
        made = [Lineup(f"all {spec}", (spec,), games=games[spec]) for spec in strengths]
        counts = set(grid.get("players", [options.get("players")]))
        if len(counts) == 1 and None not in counts:
            players = counts.pop()
            weakest, strongest = strengths[0], strengths[-1]
            made.append(Lineup(f"{weakest} against {strongest}", (weakest,) * (players - 1) + (strongest,),
                               weaker=weakest, games=games[strongest]))
        for lineup in made:
            if lineup.name in taken:
                raise self.fail(f"[sweep] makes a line-up named {lineup.name!r}, and [[lineups]] has one already",
                                "sweep", "agents")
        return made

    def sweep_games(self, strengths: list[str]) -> dict[str, int | None]:
        """``[sweep] games``: one count for every strength's cells, or a table
        by agent (``{greedy = 1200, "mcts:easy" = 60}``); ``None`` where the
        study's ``games`` applies. Weakest against strongest plays the
        strongest's count."""
        games = self.table("sweep").get("games")
        counts = games if isinstance(games, dict) else dict.fromkeys(strengths, games)
        for spec, count in counts.items():
            if spec not in strengths:
                raise self.fail(f"[sweep] games names {spec!r}, which is not one of the sweep's agents "
                                f"({', '.join(strengths)})", "sweep", "games")
            if count is not None:
                self.games_count(count, "sweep")
        return {spec: counts.get(spec) for spec in strengths}

    def lineups(self, game: str, options: dict[str, Any], grid: dict[str, list[Any]],
                required: bool = True) -> list[Lineup]:
        entries = self.data.get("lineups")
        if not required and entries is None:
            return []
        if not isinstance(entries, list) or not entries:
            raise self.fail("the study has no line-up: add [[lineups]] with agents = [...], or a [sweep] of agents", None)
        lineups: list[Lineup] = []
        for number, entry in enumerate(entries):
            for key in entry:
                if key not in _KEYS["lineups"]:
                    raise self.fail(f"unknown key {key!r} in [[lineups]]; keys are: "
                                    f"{', '.join(sorted(_KEYS['lineups']))}", "lineups", key, number)
            agents = entry.get("agents")
            if not isinstance(agents, list) or not agents or not all(isinstance(a, str) for a in agents):
                raise self.fail("agents must be a non-empty list of agent specs, e.g. [\"greedy\", \"mcts:easy\"]",
                                "lineups", "agents" if "agents" in entry else None, number)
            for spec in agents:
                try:
                    check_reproducible(spec)
                except ValueError as exc:
                    raise self.fail(str(exc), "lineups", "agents", number) from None
            name = entry.get("name", " · ".join(agents) if len(agents) > 1 else f"all {agents[0]}")
            if not isinstance(name, str) or not name.strip():
                raise self.fail("a line-up's name must be a non-empty string", "lineups", "name", number)
            if name in {lineup.name for lineup in lineups}:
                raise self.fail(f"two line-ups are named {name!r}", "lineups", "name", number)
            weaker = entry.get("weaker")
            if weaker is not None and (weaker not in agents or len(set(agents)) < 2):
                raise self.fail(f"weaker = {weaker!r} must name one of the line-up's different agents "
                                f"({', '.join(dict.fromkeys(agents))})", "lineups", "weaker", number)
            if len(agents) > 1:
                counts = set(grid.get("players", [options.get("players", len(agents))]))
                if counts != {len(agents)}:
                    raise self.fail(f"line-up {name!r} seats {len(agents)} agents, but the study plays "
                                    f"players = {', '.join(map(str, sorted(counts)))}; give one agent for every seat "
                                    "or exactly one per seat", "lineups", "agents", number)
            games = entry.get("games")
            if games is not None:
                self.games_count(games, "lineups", number)
            lineups.append(Lineup(name, tuple(agents), weaker, games))
        return lineups

    def check_cells(self, study: Study) -> None:
        """Every cell must make a valid game, and rotate its seats evenly."""
        for cell in study.cells():
            try:
                game = tileworks.load_game(study.game, **cell.options)
            except ValueError as exc:
                raise self.fail(f"the cell {cell.key!r} makes no valid game: {exc}", "grid" if study.grid else "options") from None
            for spec in dict.fromkeys(cell.lineup.agents):
                try:
                    check_plays(spec, game)
                except ValueError as exc:
                    raise self.fail(f"the cell {cell.key!r}: {spec} cannot play it: {exc}", "lineups", "agents",
                                    study.lineups.index(cell.lineup)) from None
            games = cell.games(study)
            if len(set(cell.lineup.agents)) > 1 and games % cell.players:
                where = ("lineups", "games", study.lineups.index(cell.lineup)) if cell.lineup.games else ("study", "games")
                raise self.fail(f"games = {games} is not a multiple of {cell.players} players, so the agents "
                                f"of line-up {cell.lineup.name!r} would not sit in each seat equally often", *where)


def _shown(value: Any) -> str:
    """An option value as written in a cell's key: ``[5, 8]`` -> ``5+8``."""
    if isinstance(value, (tuple, list)):
        return "+".join(map(str, value)) if value else "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return list(value)
    return value
