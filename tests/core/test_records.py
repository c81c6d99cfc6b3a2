"""Game records: save, load, replay; bad records fail clearly and never half-load."""

from __future__ import annotations

import json
import random

import pytest

import tileworks
from tileworks import RecordError
from tileworks.core import sample_chance
from tileworks.core.records import load_record, make_record, save_record


def random_game(seed=0, stop_after=None, **options):
    game = tileworks.load_game("kiln", **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (stop_after is None or len(state.history()) < stop_after):
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


@pytest.fixture(scope="module")
def finished():
    return random_game(seed=4, goal=8)


def test_a_saved_record_loads_and_replays_to_the_same_state(tmp_path, finished):
    path = save_record(finished, tmp_path / "game.json", ["human", "random"])
    record = load_record(path)
    assert record.players == ["human", "random"]
    assert record.final_state() == finished
    assert record.states()[-1] == finished
    data = json.loads(path.read_text())
    assert data["format"] == "tileworks-record" and data["version"] == 1
    assert data["result"] == {"returns": finished.returns(), "scores": finished.scores()}
    assert data["actions"][0] == {"player": -1, "action": finished.history()[0],
                                  "move": ["red", "blue", "green", "yellow"][finished.history()[0]]}


def test_an_unfinished_game_records_no_result():
    state = random_game(seed=1, stop_after=60)
    data = make_record(state)
    assert data["result"] is None
    assert load_record(data).final_state() == state


def tamper(finished, change):
    data = json.loads(json.dumps(make_record(finished)))
    change(data)
    return data


def player_action_index(data):
    return next(i for i, a in enumerate(data["actions"]) if a["player"] >= 0)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(format="chess-pgn"), r"field 'format'"),
        (lambda d: d.update(version=99), r"version 99 is not supported"),
        (lambda d: d.pop("actions"), r"field 'actions' is missing"),
        (lambda d: d["options"].update(goal=500), r"field 'options'.*'goal'"),
        (lambda d: d.update(players=["solo"]), r"field 'players' must list 2 names"),
        (lambda d: d["actions"][player_action_index(d)].update(action=999), r"action \d+ .*not legal"),
        (lambda d: d["actions"][player_action_index(d)].update(move="zz9"), r"action \d+: action \d+ is '.+' here, but the record says 'zz9'"),
        (lambda d: d["actions"][player_action_index(d)].update(player=1 - d["actions"][player_action_index(d)]["player"]), r"made by player"),
        (lambda d: d["actions"].__setitem__(0, "red"), r"action 1: expected an object"),
        (lambda d: d.update(actions=d["actions"][:-5]), r"truncated"),
        (lambda d: d["result"].update(scores=[99, 0]), r"field 'result'"),
        (lambda d: d.update(result=None), r"'result' is missing"),
        (lambda d: d["actions"].append(dict(d["actions"][-1])), r"already over"),
    ],
)
def test_tampered_records_fail_with_a_message_saying_where(finished, change, message):
    with pytest.raises(RecordError, match=message):
        load_record(tamper(finished, change))


def test_corrupt_json_reports_line_and_column(tmp_path, finished):
    path = tmp_path / "broken.json"
    save_record(finished, path)
    path.write_text(path.read_text()[:200])
    with pytest.raises(RecordError, match=r"not valid JSON: .* at line \d+, column \d+"):
        load_record(path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(RecordError, match="cannot read record"):
        load_record(tmp_path / "nope.json")


def test_state_json_rejects_tampered_positions(finished):
    game = finished.game()
    data = finished.to_json()
    data["state"]["kiln"][0] = "RRRRRR"
    with pytest.raises(RecordError, match="kiln"):
        game.state_from_json(data)
    data = finished.to_json()
    data["game"] = "azul"
    with pytest.raises(RecordError, match="azul"):
        game.state_from_json(data)
    with pytest.raises(RecordError, match="not valid JSON"):
        game.state_from_json("{nope")


@pytest.mark.parametrize("depth", [65, 100_000])
def test_records_and_positions_nested_past_the_limit_are_refused_cleanly(tmp_path, finished, depth):
    """A record nested 100,000 deep (past the JSON parser's own stack) is
    refused like any malformed record, and so is one just past the limit."""
    deep = "[" * depth + "]" * depth
    path = tmp_path / "deep.json"
    path.write_text('{"format": "tileworks-record", "version": 1, "game": "kiln", "options": ' + deep + "}")
    with pytest.raises(RecordError, match="record: JSON nested more than 64 levels deep"):
        load_record(path)
    with pytest.raises(RecordError, match="state: JSON nested more than 64 levels deep"):
        finished.game().state_from_json('{"game": "kiln", "x": ' + deep + "}")


def test_a_served_record_says_how_the_game_ended_and_who_sat_where(finished):
    data = make_record(finished, ["human", "human"])
    data["names"] = [{"name": "Kim", "guest": True}, {"name": "alice", "guest": False}]
    data["outcome"] = {"ended": "end", "ranks": [2, 1], "out_of_time": [0]}
    record = load_record(data)
    assert record.outcome == {"ended": "end", "ranks": [2, 1], "out_of_time": [0]}
    assert record.names[0] == {"name": "Kim", "guest": True}
    early = make_record(random_game(seed=4, goal=8, stop_after=10), ["human", "human"])
    early["outcome"] = {"ended": "time", "ranks": [1, 2], "out_of_time": [1]}
    assert load_record(early).outcome["ended"] == "time"  # a clock ended it before the rules did


@pytest.mark.parametrize("outcome, message", [
    ({"ended": "time", "ranks": [1, 2]}, r"ended by 'time', but the actions reach its end"),
    ({"ended": "resigned"}, r"one of end, time, abandoned"),
    ({"ended": "end", "ranks": [1]}, r"'ranks' must give 2 places"),
    ({"ended": "end", "ranks": [1, 2], "out_of_time": [5]}, r"'out_of_time' must list seats"),
])
def test_an_outcome_that_disagrees_with_the_actions_is_refused(finished, outcome, message):
    data = make_record(finished, ["human", "human"])
    data["outcome"] = outcome
    with pytest.raises(RecordError, match=message):
        load_record(data)
