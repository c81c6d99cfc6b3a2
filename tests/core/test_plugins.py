"""Games are plugins found through the ``tileworks.games`` entry-point group.

Each test builds real distributions in a temporary folder (a ``.dist-info``
with ``entry_points.txt`` beside the plugin's module), puts the folder on
``sys.path`` of a fresh interpreter, and asks that interpreter for the games:
the same path ``importlib.metadata`` takes for an installed package.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import tileworks
import tileworks.core.registry

CORE = Path(tileworks.__file__).parent / "core"
SHIPPED = ["azul", "kiln", "tiles", "tuileries"]
#: every game this environment has: the shipped ones and any plugin installed
#: beside them (make test installs examples/dominoes)
INSTALLED = sorted(info.name for info in tileworks.core.registry.registered_games())

# A complete little game for plugin tests: reuse Tiles' rules under another
# name, so the plugin is real and playable.
GOOD_PLUGIN = '''
from tileworks.core import GameInfo, OptionSet
from tileworks.core.options import int_option
from tileworks.games.tiles import TilesGame

class MiniGame(TilesGame):
    name = "mini"

GAME_INFO = GameInfo(name="mini", title="Mini", min_players=2, max_players=2,
                     options=OptionSet((int_option("players", 2, 2, 2),
                                        int_option("tile_set", 0, 0, 0),)),
                     factory=lambda options: MiniGame({**options, "tile_set": "default"}))
'''


def distribution(root: Path, name: str, entry_points: dict[str, str], module: str | None = None) -> None:
    """A minimal installed distribution: METADATA, entry points, and its module."""
    info = root / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    lines = "\n".join(f"{key} = {value}" for key, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[tileworks.games]\n{lines}\n")
    if module is not None:
        (root / f"{name}.py").write_text(textwrap.dedent(module))


def games_seen(root: Path) -> tuple[list[str], str]:
    """The game names a fresh interpreter lists with ``root`` on its path, and its warnings."""
    script = (
        "import json, sys, warnings\n"
        f"sys.path.insert(0, {str(root)!r})\n"
        "warnings.simplefilter('always')\n"
        "import tileworks\n"
        "print(json.dumps([g['name'] for g in tileworks.list_games()]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def test_the_shipped_games_are_found_as_plugins(tmp_path):
    names, warnings = games_seen(tmp_path)
    assert names == INSTALLED and set(SHIPPED) <= set(names)
    assert warnings == ""


def test_a_plugin_game_is_listed_and_plays(tmp_path):
    distribution(tmp_path, "mini_plugin", {"mini": "mini_plugin:GAME_INFO"}, GOOD_PLUGIN)
    names, warnings = games_seen(tmp_path)
    assert names == sorted(INSTALLED + ["mini"])
    assert warnings == ""
    script = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "import random, tileworks\n"
        "from tileworks.core import sample_chance\n"
        "state = tileworks.load_game('mini').new_initial_state()\n"
        "rng = random.Random(1)\n"
        "while not state.is_terminal():\n"
        "    state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))\n"
        "print(state.game().name, len(state.returns()))\n"
        "from tileworks.agents import make\n"
        "try:\n"
        "    make('net').check_game(state.game())\n"
        "except ValueError as refused:\n"
        "    print(refused)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    played, _newline, refused = done.stdout.partition("\n")
    assert played.split() == ["mini", "2"], done.stderr
    # a plugin whose package holds no network: the learned agents say so by the game's name
    assert refused.startswith("mini ships no trained network yet"), done.stdout + done.stderr
    # the terminal's list and the server's catalogue show it like a shipped game
    script = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "from fastapi.testclient import TestClient\n"
        "from tileworks.server.app import create_app\n"
        f"client = TestClient(create_app('sqlite:///' + {str(tmp_path / 'db.sqlite')!r}))\n"
        "print(' '.join(g['name'] for g in client.get('/api/catalogue').json()))\n"
        "from tileworks.cli.main import main\n"
        "sys.argv = ['tileworks', 'games']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    catalogue, _newline, listing = done.stdout.partition("\n")
    assert catalogue.split() == sorted(INSTALLED + ["mini"]), done.stderr
    assert "mini" in listing and "Mini" in listing, done.stdout + done.stderr


def test_a_plugin_that_fails_to_import_is_reported_and_skipped(tmp_path):
    distribution(tmp_path, "broken_plugin", {"broken": "broken_plugin:GAME_INFO"},
                 "import a_module_that_does_not_exist\n")
    names, warnings = games_seen(tmp_path)
    assert names == INSTALLED  # every other game still loads
    assert "game plugin 'broken' (broken_plugin:GAME_INFO) failed to load and is skipped" in warnings
    assert "ModuleNotFoundError" in warnings and "a_module_that_does_not_exist" in warnings


def test_a_plugin_that_takes_a_shipped_name_is_reported_and_skipped(tmp_path):
    module = GOOD_PLUGIN.replace('name="mini"', 'name="kiln"')
    distribution(tmp_path, "rival_plugin", {"kiln": "rival_plugin:GAME_INFO"}, module)
    names, warnings = games_seen(tmp_path)
    assert names == INSTALLED
    assert "game plugin 'kiln' (rival_plugin:GAME_INFO) is skipped: the name 'kiln' is already taken by " \
           "tileworks.games.kiln.rules.KilnGame" in warnings


def test_a_plugin_that_names_something_else_is_reported_and_skipped(tmp_path):
    distribution(tmp_path, "odd_plugin", {"odd": "odd_plugin:NOT_A_GAME", "other": "odd_plugin:GAME_INFO"},
                 GOOD_PLUGIN + "NOT_A_GAME = 42\n")
    names, warnings = games_seen(tmp_path)
    assert names == INSTALLED
    assert "game plugin 'odd' (odd_plugin:NOT_A_GAME) is skipped: it names a int, not a GameInfo" in warnings
    assert "game plugin 'other' (odd_plugin:GAME_INFO) is skipped: its GameInfo is named 'mini'" in warnings


def test_loading_the_core_imports_no_game():
    script = (
        "import sys\n"
        "import tileworks, tileworks.core, tileworks.core.registry, tileworks.core.game\n"
        "print([m for m in sys.modules if m.startswith('tileworks.games')])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in ("import_module", "__import__"):
                found.add(str(node.args[0].value))  # a lazy import by name
    return found


def test_the_core_names_no_game_package_in_any_form():
    for path in sorted(CORE.glob("*.py")):
        names = imported_modules(path)
        assert not {n for n in names if n.startswith("tileworks.games")}, path.name


def test_core_modules_import_each_other_without_a_circle():
    graph = {
        path.stem: {n.split(".")[2] for n in imported_modules(path) if n.startswith("tileworks.core.")}
        for path in CORE.glob("*.py") if path.stem != "__init__"
    }

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert [m for m in sorted(graph) if reaches(m, m, set())] == []
