"""The conformance suite as another package uses it: one import line in its
own test folder, games chosen in the module or on the command line."""

from __future__ import annotations

import subprocess
import sys

from tileworks.core.registry import registered_games


def collect(tmp_path, module: str, *args: str) -> list[str]:
    (tmp_path / "test_their_game.py").write_text(module)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
         str(tmp_path / "test_their_game.py"), *args],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    return [line.split("::")[1] for line in done.stdout.splitlines() if "::" in line] or [done.stdout + done.stderr]


SUITE = "from tileworks.testing.conformance import *  # noqa: F403\n"


def test_one_import_line_brings_every_check_for_the_games_a_module_names(tmp_path):
    tests = collect(tmp_path, SUITE + 'TILEWORKS_GAMES = ["tuileries"]\n')
    assert "test_engines_use_only_the_standard_library[tuileries]" in tests
    assert "test_game_api[tuileries-0]" in tests and "test_random_playouts[tuileries-0-7]" in tests
    assert not [t for t in tests if "kiln" in t or "azul" in t or "tiles-" in t]


def test_the_command_line_chooses_the_games(tmp_path):
    tests = collect(tmp_path, SUITE + 'TILEWORKS_GAMES = ["tuileries"]\n', "--tileworks-game=kiln")
    assert tests and all("[kiln" in t for t in tests)


def test_an_unknown_game_on_the_command_line_is_named(tmp_path):
    (message,) = collect(tmp_path, SUITE, "--tileworks-game=chess")
    known = ", ".join(info.name for info in registered_games())
    assert f"unknown game 'chess'; known games: {known}" in message


def test_without_a_choice_every_registered_game_is_checked(tmp_path):
    tests = collect(tmp_path, SUITE)
    checked = {t.split("[")[1].split("-")[0].rstrip("]") for t in tests}
    assert checked == {info.name for info in registered_games()} >= {"azul", "kiln", "tiles", "tuileries"}
