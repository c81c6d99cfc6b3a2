"""load_game / list_games: options are checked and errors name what is wrong."""

from __future__ import annotations

import pytest

import tileworks


def test_list_games_gives_options_defaults_and_player_counts():
    (kiln,) = [g for g in tileworks.list_games() if g["name"] == "kiln"]
    assert kiln["players"] == (2, 4)
    defaults = {o["name"]: o["default"] for o in kiln["options"]}
    assert defaults == {
        "players": 2, "goal": 17, "variant": "standard", "heat_tokens": (),
        "erase_rule": False, "turn_limit": 300, "advanced_scoring": "per_colour",
    }


def test_options_reach_the_game():
    game = tileworks.load_game("kiln", players=3, goal=20, heat_tokens="5,14,17", erase_rule="on")
    assert game.num_players() == 3
    assert game.options()["goal"] == 20
    assert game.options()["heat_tokens"] == (5, 14, 17)
    assert game.options()["erase_rule"] is True


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown game 'chess'; known games: .*kiln"):
        tileworks.load_game("chess")


def test_unknown_option_lists_the_options():
    with pytest.raises(ValueError, match=r"unknown option 'colour' for kiln; options are: advanced_scoring, erase_rule, goal"):
        tileworks.load_game("kiln", colour="red")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"players": 5}, r"'players'.*allowed: an integer from 2 to 4"),
        ({"players": "two"}, r"'players'.*expected an integer"),
        ({"goal": 0}, r"'goal'.*from 1 to 100"),
        ({"variant": "expert"}, r"'variant'.*one of 'standard', 'advanced'"),
        ({"heat_tokens": [6]}, r"'heat_tokens'.*6 not allowed.*subset of 5, 8, 14, 17, 19, 23, 26"),
        ({"heat_tokens": [5, 5]}, r"'heat_tokens'.*repeated"),
        ({"erase_rule": "maybe"}, r"'erase_rule'.*true or false"),
        ({"turn_limit": True}, r"'turn_limit'"),
    ],
)
def test_bad_option_values_name_the_option_and_the_allowed_values(options, message):
    with pytest.raises(ValueError, match=message):
        tileworks.load_game("kiln", **options)


def test_threads_asking_for_a_game_at_once_all_find_it():
    """Seen in the server's load benchmark: while one thread was loading the
    installed games, another was told that no game exists. A fresh
    interpreter, eight threads asking at the same moment."""
    import subprocess
    import sys

    script = """
import threading
import tileworks
barrier, failures = threading.Barrier(8), []
def ask():
    barrier.wait()
    try:
        tileworks.load_game("azul")
    except Exception as error:
        failures.append(repr(error))
threads = [threading.Thread(target=ask) for _ in range(8)]
[t.start() for t in threads]
[t.join() for t in threads]
print(failures)
"""
    for _attempt in range(3):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[]", done.stdout
