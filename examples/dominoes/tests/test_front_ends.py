"""Dominoes through tileworks's front ends and agents, with no code of its
own in them: the terminal, the game list, records and the search agents."""

from __future__ import annotations

import json
import random

from typer.testing import CliRunner

import tileworks
from tileworks.agents import make
from tileworks.cli.main import app
from tileworks.core import sample_chance
from tileworks.core.records import load_record

runner = CliRunner()


def test_the_game_list_shows_dominoes_with_its_options():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "dominoes" in result.output and "draw" in result.output


def test_a_person_plays_in_the_terminal_against_the_computer(tmp_path):
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "dominoes", "--players", "human,mcts:medium", "--seed", "3",
                                 "--record", str(path)], input="?\nzz\nquit\n")
    assert result.exit_code == 0, result.output
    assert "P1 hand:" in result.output and "P2 hand:" not in result.output
    assert "cannot read 'zz' as a move of Dominoes" in result.output


def test_computer_levels_play_whole_games_and_the_record_replays(tmp_path):
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "dominoes", "--players", "mcts:easy,greedy,random", "-o", "players=3",
                                 "-o", "draw=on", "--seed", "5", "--record", str(path)])
    assert result.exit_code == 0 and "Game over" in result.output, result.output
    record = load_record(json.loads(path.read_text()))
    final = record.final_state()
    assert final.is_terminal() and final.game().name == "dominoes"
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0 and "Game over" in replay.output


def test_search_beats_random_play_more_often_than_not():
    """Seeded, so the figure is repeatable: 19.5 of 30 when written (a
    dominoes hand is half luck); 17 would already be 57%."""
    game = tileworks.load_game("dominoes")
    wins = 0.0
    for seed in range(30):
        agents = [make("mcts:iterations=400", seed=seed), make("random", seed=seed)]
        seat_of_search = seed % 2
        if seat_of_search:
            agents.reverse()
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(agents[state.current_player()].step(state))
        wins += state.returns()[seat_of_search]
    assert wins >= 17, wins
