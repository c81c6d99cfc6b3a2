"""The training example runs as documented and learns: at a small size on
CPU, its win rate against the random player at Azul goes up; and it runs
on each of the other three games."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "selfplay.py"


def _example():
    spec = importlib.util.spec_from_file_location("selfplay", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


def test_self_play_training_beats_the_random_player_more_often_than_before(capsys):
    result = _example().main(["--iterations", "12", "--games", "128", "--steps", "16", "--every", "12",
                           "--eval-games", "40", "--hidden", "64", "--lr", "1e-3"])
    before, after = result["history"][0], result["history"][-1]
    assert (before["iteration"], after["iteration"]) == (0, 12)
    assert after["decisions"] == 12 * 128 * 16
    assert after["vs_random"] >= before["vs_random"] + 0.25, result["history"]
    assert 0.0 <= after["vs_greedy"] <= 1.0
    printed = capsys.readouterr().out
    assert "vs random" in printed and "vs greedy" in printed


@pytest.mark.parametrize("game", ["kiln", "tiles", "tuileries"])
def test_the_example_trains_on_every_other_game(game, capsys):
    # training only: the evaluations are the same code for every game, run above for Azul; four
    # games at once, as in the cross-check, whose batched init (compiled once under make test) starts them
    result = _example().main(["--game", game, "--iterations", "2", "--games", "4", "--steps", "4", "--every", "2",
                              "--eval-games", "0", "--hidden", "16"])
    assert [row["iteration"] for row in result["history"]] == [0, 2]
    assert result["history"][-1]["decisions"] == 2 * 4 * 4
    assert math.isfinite(result["history"][-1]["loss"])
    assert capsys.readouterr().out.startswith({"kiln": "KILN", "tiles": "Tiles", "tuileries": "Tuileries"}[game])
