"""The terminal front end: games, play, replay."""

from __future__ import annotations

import io
import json

from rich.console import Console
from typer.testing import CliRunner

import tileworks
from tileworks.cli.main import app
from tileworks.cli.play import TerminalGame
from tileworks.cli.replay import step_through
from tileworks.core.records import load_record, make_record

runner = CliRunner()


def test_games_lists_kiln_with_its_options():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for word in ("kiln", "goal", "17", "heat_tokens", "erase_rule", "turn_limit", "advanced",
                 "azul", "tiebreak", "grey", "round_limit", "tiles", "tile_set",
                 "tuileries", "bonus_tile", "circles"):
        assert word in result.output
    output = "\n" + result.output
    azul = output[output.index("\nazul "):output.index("\ndominoes ")]
    assert "mcts:beginner to mcts:expert" in azul
    # Azul's alpha beat mcts:expert over 200 games at its default budget (2026-12-05): the top level
    assert ("trained network for 2 players: alpha (the top level: it beats mcts:expert); "
            "net (between mcts:easy and the level above)") in " ".join(azul.split())
    tiles = output[output.index("\ntiles "):output.index("\ntuileries ")]
    assert "mcts:expert" in tiles and "trained network for 2 players: alpha" in " ".join(tiles.split())
    # a network trained with the defaults names no options (options held as lists, such as
    # Tuileries' circles and KILN's heat tokens, are compared as the game's JSON gives them)
    kiln, tuileries = output[output.index("\nkiln "):output.index("\ntiles ")], output[output.index("\ntuileries "):]
    for listing in (kiln, tuileries):
        assert "trained network for 2 players: alpha" in " ".join(listing.split())
    # Tuileries' and Tiles' alpha (rollout leaves; Tiles' with the guide) beat mcts:medium over 200 games;
    # their net beat only random
    for listing in (tuileries, tiles):
        assert "alpha (between mcts:medium and the level above)" in " ".join(listing.split())
        assert "net (between random and the level above)" in " ".join(listing.split())
    # KILN's alpha beat mcts:hard over 200 games at its default budget (0.625, 2026-12-05); its net beat only random
    assert "alpha (between mcts:hard and the level above); net (between random and the level above)" in " ".join(
        kiln.split())


def test_two_random_seats_play_to_the_end_and_save_the_record(tmp_path):
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "kiln", "--players", "random,random", "--seed", "3",
                                 "-o", "goal=6", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    record = load_record(path)
    assert record.final_state().is_terminal()
    assert record.players == ["random", "random"]


def test_human_can_list_moves_be_told_off_and_quit(tmp_path):
    path = tmp_path / "stopped.json"
    result = runner.invoke(app, ["play", "kiln", "--seed", "5", "--record", str(path)],
                           input="?\nzz\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Legal moves:" in result.output
    assert "cannot read 'zz' as a move of KILN" in result.output
    assert "Game stopped." in result.output
    assert json.loads(path.read_text())["result"] is None


def test_end_of_input_stops_the_game_cleanly():
    result = runner.invoke(app, ["play", "kiln", "--seed", "5"], input="")
    assert result.exit_code == 0
    assert "Game stopped." in result.output


def test_a_human_plays_a_whole_game_in_notation():
    game = tileworks.load_game("kiln", goal=5)
    typed = []

    def first_legal(prompt: str) -> str:
        state = session.current
        move = state.action_to_string(state.legal_actions()[0])
        typed.append(move)
        return move

    session = TerminalGame(game, ["human", "random"], seed=2, console=Console(file=io.StringIO()), ask=first_legal)
    original = session._human_turn

    def track(state):
        session.current = state
        return original(state)

    session._human_turn = track
    final = session.play()
    assert final.is_terminal()
    assert typed and all(isinstance(m, str) for m in typed)


def test_bad_options_and_agents_are_rejected_with_the_allowed_values():
    result = runner.invoke(app, ["play", "kiln", "-o", "goal=lots"])
    assert result.exit_code == 2
    assert "goal" in result.output and "an integer from 1 to 100" in result.output
    result = runner.invoke(app, ["play", "kiln", "--players", "human,genius"])
    assert result.exit_code == 2 and "valid specs: alpha, greedy, mcts, net, random" in result.output
    result = runner.invoke(app, ["play", "kiln", "-o", "colour=red"])
    assert result.exit_code == 2 and "unknown option 'colour'" in result.output
    result = runner.invoke(app, ["play", "kiln", "--players", "random,random,random,random,random"])
    assert result.exit_code == 2 and "players" in result.output
    result = runner.invoke(app, ["play", "kiln", "--players", "human,net,random"])  # before the game starts
    assert result.exit_code == 2 and "no trained network for kiln with" in result.output
    result = runner.invoke(app, ["play", "azul", "--players", "human,alpha,random", "-o", "variant=grey"])
    assert result.exit_code == 2 and "no trained network for azul with" in result.output
    said = " ".join(result.output.split())
    assert '"variant": "grey"' in said and '"players": 3' in said and '"variant": "standard"' in said  # what it has


def test_replay_prints_the_moves_and_the_result(tmp_path):
    path = tmp_path / "game.json"
    runner.invoke(app, ["play", "kiln", "--players", "random,random", "--seed", "1", "-o", "goal=6",
                        "--record", str(path)])
    result = runner.invoke(app, ["replay", str(path), "--all"])
    assert result.exit_code == 0, result.output
    assert "   1. P" in result.output and "Scores:" in result.output


def test_replay_of_a_corrupt_record_says_what_is_wrong(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "tileworks-record", "version": 1, "game": "kiln"')
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "not valid JSON" in result.output


def test_replay_of_a_record_nested_100000_deep_is_refused_like_any_malformed_record(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"a": ' * 100_000 + "1" + "}" * 100_000)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output  # a RecursionError would end it with 1 and a traceback
    assert "record: JSON nested more than 64 levels deep" in result.output


def test_replay_tells_how_a_served_game_ended_and_names_its_guests(tmp_path):
    game = tileworks.load_game("kiln", goal=6)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    data = make_record(state, ["human", "human"])
    data["names"] = [{"name": "Kim", "guest": True}, {"name": "alice", "guest": False}]
    data["outcome"] = {"ended": "time", "ranks": [2, 1], "out_of_time": [0]}
    path = tmp_path / "served.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path), "--all"])
    assert result.exit_code == 0, result.output
    assert "players: Kim (guest), alice" in result.output
    assert "The game ended when the clocks ran out: P1 out of time." in result.output
    assert "Places: P1 2, P2 1" in result.output
    assert "The record ends before the game did." not in result.output


def test_interactive_replay_steps_back_and_forth(tmp_path):
    path = tmp_path / "game.json"
    runner.invoke(app, ["play", "kiln", "--players", "random,random", "--seed", "1", "-o", "goal=6",
                        "--record", str(path)])
    record = load_record(path)
    keys = iter(["", "", "b", "e", "q"])
    out = io.StringIO()
    step_through(record, Console(file=out, width=100), ask=lambda prompt: next(keys))
    text = out.getvalue()
    assert "Move 1: P" in text and "Move 2: P" in text
    assert "Game over" in text


def test_azul_plays_in_the_terminal_and_its_record_replays(tmp_path):
    path = tmp_path / "azul.json"
    result = runner.invoke(app, ["play", "azul", "--players", "random,random,random", "--seed", "2",
                                 "-o", "variant=grey", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    record = load_record(path)
    assert record.game.options()["variant"] == "grey"
    assert runner.invoke(app, ["replay", str(path), "--all"]).exit_code == 0


def test_a_human_azul_move_is_explained_when_rejected():
    # factory 1 holds bbbr
    result = runner.invoke(app, ["play", "azul", "--seed", "4"], input="1k9\n?\n1k1\nquit\n")
    assert "cannot read '1k9' as a move of Azul" in result.output
    assert "Legal moves: 1b1" in result.output
    assert "'1k1' is not legal: factory 1 has no black" in result.output


def test_the_terminal_tells_each_move_in_words_and_announces_the_scoring():
    result = runner.invoke(app, ["play", "azul", "--players", "random,random", "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Seats: P1 computer (random moves), P2 computer (random moves)"
    assert any(line.startswith("P1 takes ") and " from factory " in line for line in lines)
    heading = lines.index("Wall-tiling of round 1")
    assert all(line.startswith("  P") and " scores " in line for line in lines[heading + 1:heading + 3])


def test_play_takes_the_language_and_lists_it_in_its_help():
    assert "--lang" in runner.invoke(app, ["play", "--help"]).output
    result = runner.invoke(app, ["play", "azul", "--players", "random,random", "--seed", "3", "--lang", "ja"])
    assert "ラウンド 1 の壁貼り" in result.output and "Wall-tiling" not in result.output
    assert "unknown language 'xx'" in runner.invoke(app, ["play", "azul", "--lang", "xx"]).output


def test_tiles_in_the_terminal_shows_only_the_humans_hand(tmp_path):
    path = tmp_path / "tiles.json"
    result = runner.invoke(app, ["play", "tiles", "--players", "human,random", "--seed", "1", "--record", str(path)],
                           input="?\nquit\n")
    assert result.exit_code == 0, result.output
    assert "P1 hand:" in result.output and "P2 hand:" not in result.output
    assert "Legal moves:" in result.output
    record = load_record(path)
    assert record.game.name == "tiles"


def test_tiles_random_players_finish_and_the_record_replays(tmp_path):
    path = tmp_path / "tiles.json"
    result = runner.invoke(app, ["play", "tiles", "--players", "random,random,random", "--seed", "5",
                                 "--record", str(path)])
    assert result.exit_code == 0 and "Game over" in result.output
    assert load_record(path).final_state().is_terminal()


def test_tuileries_in_the_terminal(tmp_path):
    path = tmp_path / "tuileries.json"
    result = runner.invoke(app, ["play", "tuileries", "--players", "human,random", "--seed", "3",
                                 "--record", str(path)], input="?\nzz\nquit\n")
    assert result.exit_code == 0, result.output
    assert "P1 hand:" in result.output and "P2 hand:" not in result.output
    assert "cannot read 'zz' as a move of Tuileries" in result.output
    result = runner.invoke(app, ["play", "tuileries", "--players", "random,random,random,random,random,random",
                                 "--seed", "4", "-o", "bonus_tile=on"])
    assert result.exit_code == 0 and "Game over" in result.output
