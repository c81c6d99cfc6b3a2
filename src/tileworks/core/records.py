"""Game records: a versioned JSON file holding everything needed to replay a game.

The action list is the truth; every action is stored as its int and its
notation, with the seat that made it (``-1`` for chance). Loading replays
the actions from the start and checks each one, so a corrupt, truncated or
tampered record fails with a message that says what and where, and nothing
half-loaded is ever returned.

Format (version 1)::

    {
      "format": "tileworks-record", "version": 1,
      "game": "kiln", "options": {...every option, defaults included...},
      "players": ["human", "random"],            # who sat in each seat
      "actions": [{"player": -1, "action": 2, "move": "green"}, ...],
      "result": null | {"returns": [...], "scores": [...]},
      "created": "2026-11-20T12:00:00+00:00",  # optional
      "names": [{"name": "Kim", "guest": true}, null],  # optional: who sat where
      "outcome": {"ended": "end" | "time" | "abandoned",  # optional: how a served game ended
                  "ranks": [2, 1] | null, "out_of_time": [0]}
    }

``result`` is ``null`` for a game saved before its rules ended it: one
still going, or one a server ended early (``outcome``): when the clocks of
all but one seat ran out, or abandoned. ``outcome.ranks`` is the final
placing (1 first; a seat out of time last, whatever its score).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tileworks.core import jsontext
from tileworks.core.errors import RecordError
from tileworks.core.game import Game, State
from tileworks.core.registry import load_game

FORMAT = "tileworks-record"
VERSION = 1


@dataclass
class GameRecord:
    """A loaded, fully checked record."""

    game: Game
    players: list[str]
    actions: list[int]
    moves: list[str]
    movers: list[int]
    created: str | None = None
    #: each seat's shown name, if the record has them: {"name", "guest"} or None
    names: list[dict[str, Any] | None] | None = None
    #: how a served game ended, if the record says: {"ended", "ranks", "out_of_time"}
    outcome: dict[str, Any] | None = None

    def states(self) -> list[State]:
        """The state before the first action and after each action."""
        state = self.game.new_initial_state()
        out = [state.clone()]
        for action in self.actions:
            state.apply_action(action)
            out.append(state.clone())
        return out

    def final_state(self) -> State:
        state = self.game.new_initial_state()
        for action in self.actions:
            state.apply_action(action)
        return state


def make_record(state: State, players: list[str] | None = None) -> dict[str, Any]:
    """The record of the game that led to ``state`` (finished or not)."""
    game = state.game()
    players = list(players) if players is not None else [f"P{i + 1}" for i in range(game.num_players())]
    if len(players) != game.num_players():
        raise ValueError(f"expected {game.num_players()} player names, got {len(players)}")
    replay = game.new_initial_state()
    actions = []
    for action in state.history():
        actions.append(
            {"player": replay.current_player(), "action": action, "move": replay.action_to_string(action)}
        )
        replay.apply_action(action)
    result = None
    if state.is_terminal():
        result = {"returns": state.returns(), "scores": state.scores()}
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "options": game.json_options(),
        "players": players,
        "actions": actions,
        "result": result,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def save_record(state: State, path: str | Path, players: list[str] | None = None) -> Path:
    """Write the record of ``state``'s game to ``path`` (atomically)."""
    path = Path(path)
    data = make_record(state, players)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load_record(source: str | Path | dict[str, Any]) -> GameRecord:
    """Load and check a record from a path, a JSON string or a parsed dict."""
    data = _parse(source)
    if not isinstance(data, dict):
        raise RecordError("record: expected a JSON object at the top level")
    if data.get("format") != FORMAT:
        raise RecordError(f"record: field 'format' must be {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise RecordError(
            f"record: version {data.get('version')!r} is not supported (this tileworks reads version {VERSION})"
        )
    for name, kind in (("game", str), ("options", dict), ("players", list), ("actions", list)):
        if not isinstance(data.get(name), kind):
            raise RecordError(f"record: field {name!r} is missing or not a {kind.__name__}")
    try:
        game = load_game(data["game"], **data["options"])
    except ValueError as exc:
        raise RecordError(f"record: field 'options': {exc}") from None
    players = data["players"]
    if len(players) != game.num_players() or not all(isinstance(p, str) for p in players):
        raise RecordError(f"record: field 'players' must list {game.num_players()} names")

    state = game.new_initial_state()
    actions, moves, movers = [], [], []
    for i, entry in enumerate(data["actions"]):
        where = f"record: action {i + 1}"
        if not isinstance(entry, dict) or set(entry) != {"player", "action", "move"}:
            raise RecordError(f"{where}: expected an object with 'player', 'action' and 'move'")
        action, move, player = entry["action"], entry["move"], entry["player"]
        if state.is_terminal():
            raise RecordError(f"{where}: the game was already over after action {i}")
        if player != state.current_player():
            raise RecordError(f"{where}: made by player {player!r}, but it was player {state.current_player()}'s turn")
        if type(action) is not int or not isinstance(move, str):
            raise RecordError(f"{where}: 'action' must be an integer and 'move' text")
        if action not in state.legal_actions():
            raise RecordError(f"{where} ({move!r}): {state.why_illegal(action)}")
        expected = state.action_to_string(action)
        if expected != move:
            raise RecordError(f"{where}: action {action} is {expected!r} here, but the record says {move!r}")
        state.apply_action(action)
        actions.append(action)
        moves.append(move)
        movers.append(player)

    result = data.get("result")
    if result is None:
        if state.is_terminal():
            raise RecordError("record: the game is over but field 'result' is missing")
    else:
        if not state.is_terminal():
            raise RecordError(
                f"record: truncated: the result says the game ended but the actions stop after {len(actions)}, "
                f"while {state.decision()}"
            )
        if not isinstance(result, dict) or result.get("returns") != state.returns() or result.get(
            "scores"
        ) != state.scores():
            raise RecordError(
                f"record: field 'result' says {result!r}, but replaying gives "
                f"returns {state.returns()} and scores {state.scores()}"
            )
    created = data.get("created")
    return GameRecord(game, list(players), actions, moves, movers, created if isinstance(created, str) else None,
                      _names(data.get("names"), len(players)), _outcome(data.get("outcome"), state, len(players)))


ENDINGS = ("end", "time", "abandoned")


def _names(names: Any, seats: int) -> list[dict[str, Any] | None] | None:
    if names is None:
        return None
    if not isinstance(names, list) or len(names) != seats or not all(
            n is None or (isinstance(n, dict) and set(n) == {"name", "guest"} and isinstance(n["name"], str)
                          and isinstance(n["guest"], bool)) for n in names):
        raise RecordError(f"record: field 'names' must list {seats} entries, each null or an object with 'name' and 'guest'")
    return names


def _outcome(outcome: Any, state: State, seats: int) -> dict[str, Any] | None:
    """A checked ``outcome``: how the game ended agrees with where its actions stop."""
    if outcome is None:
        return None
    if not isinstance(outcome, dict) or outcome.get("ended") not in ENDINGS:
        raise RecordError(f"record: field 'outcome' must say how the game ended: one of {', '.join(ENDINGS)}")
    ranks, late = outcome.get("ranks"), outcome.get("out_of_time", [])
    if ranks is not None and not (isinstance(ranks, list) and len(ranks) == seats
                                  and all(type(r) is int and 1 <= r <= seats for r in ranks)):
        raise RecordError(f"record: field 'outcome': 'ranks' must give {seats} places from 1 to {seats}")
    if not isinstance(late, list) or not all(type(s) is int and 0 <= s < seats for s in late):
        raise RecordError("record: field 'outcome': 'out_of_time' must list seats")
    if (outcome["ended"] == "end") != state.is_terminal():
        raise RecordError(f"record: field 'outcome' says the game ended by {outcome['ended']!r}, "
                          f"but the actions {'reach' if state.is_terminal() else 'stop before'} its end")
    return {"ended": outcome["ended"], "ranks": ranks, "out_of_time": late}


def is_record(source: str | Path | dict[str, Any]) -> bool:
    """Whether ``source`` holds a game record (it names the record format),
    rather than a saved position (``State.to_json()``)."""
    data = _parse(source)
    return isinstance(data, dict) and "format" in data


def load_position(source: str | Path | dict[str, Any]) -> State:
    """A position saved with ``State.to_json()`` (from a path, a JSON string
    or a parsed dict), e.g. one batch element of a JAX state written by
    ``TileworksState.save_position``; every field is checked.

    >>> import tileworks
    >>> state = tileworks.load_game("tuileries").new_initial_state()
    >>> load_position(state.to_json()) == state
    True
    >>> load_position({"game": "chess", "options": {}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tileworks.core.errors.RecordError: position: unknown game 'chess'; known games: azul, ...
    """
    data = _parse(source)
    if not isinstance(data, dict):
        raise RecordError("position: expected a JSON object at the top level")
    if not isinstance(data.get("game"), str) or not isinstance(data.get("options"), dict):
        raise RecordError("position: fields 'game' (a name) and 'options' (an object) are required")
    try:
        game = load_game(data["game"], **data["options"])
    except ValueError as exc:
        raise RecordError(f"position: {exc}") from None
    return game.state_from_json(data)


def _parse(source: str | Path | dict[str, Any]) -> Any:
    if isinstance(source, dict):
        return source
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read record {str(path)!r}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError(f"record {str(path)!r} is not UTF-8 text") from None
    else:
        text = source
    try:
        return jsontext.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except jsontext.TooDeepError as exc:
        raise RecordError(f"record: {exc}") from None
