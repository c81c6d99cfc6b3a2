"""The training example runs as documented and learns: at a small size on
CPU, its win rate against the random player goes up."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "azul_selfplay.py"


def test_self_play_training_beats_the_random_player_more_often_than_before(capsys):
    spec = importlib.util.spec_from_file_location("azul_selfplay", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.main(["--iterations", "12", "--games", "128", "--steps", "16", "--every", "12",
                           "--eval-games", "40", "--hidden", "64", "--lr", "1e-3"])
    before, after = result["history"][0], result["history"][-1]
    assert (before["iteration"], after["iteration"]) == (0, 12)
    assert after["decisions"] == 12 * 128 * 16
    assert after["vs_random"] >= before["vs_random"] + 0.25, result["history"]
    assert 0.0 <= after["vs_greedy"] <= 1.0
    printed = capsys.readouterr().out
    assert "vs random" in printed and "vs greedy" in printed
