"""Generic code knows no game by name: every game is a plugin, found through
the registry, so nothing in the packages every game shares may name one.
Docstrings may (their examples need a real game), and so may comments; code
may not: no string that names a game, no import of a game's package, and
in the pages' scripts no game's name at all."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import tileworks
from tileworks.core.registry import registered_games

SOURCE = Path(tileworks.__file__).parent
#: the packages every game shares
GENERIC = ["core", "jax", "agents", "arena", "lab", "server", "web", "cli", "interfaces", "testing"]


def game_names() -> list[str]:
    return sorted(info.name for info in registered_games())


def naming(text: str) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(map(re.escape, game_names())) + r")\b", re.IGNORECASE)


def docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def names_in_python(path: Path) -> list[str]:
    """Where a Python module names a game in code: ``file:line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    game = naming("")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if game.search(node.value):
                found.append(f"{path.relative_to(SOURCE)}:{node.lineno}: {node.value[:60]!r}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [getattr(node, "module", None) or ""] + [alias.name for alias in node.names]
            for module in modules:
                parts = module.split(".")
                packages = set(game_names()) | {f"tileworks_{name}" for name in game_names()}
                if module.startswith("tileworks.games") or packages & set(parts):
                    found.append(f"{path.relative_to(SOURCE)}:{node.lineno}: imports {module}")
    return found


def names_in_script(path: Path) -> list[str]:
    """Where a page script names a game, outside its comments."""
    game = naming("")
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if game.search(line.split("//")[0]):
            found.append(f"{path.relative_to(SOURCE)}:{number}: {line.strip()[:60]}")
    return found


@pytest.mark.parametrize("package", GENERIC)
def test_no_generic_package_names_a_game_in_code(package):
    found = []
    for path in sorted((SOURCE / package).rglob("*")):
        if path.suffix == ".py":
            found += names_in_python(path)
        elif path.suffix == ".js":
            found += names_in_script(path)
    assert found == [], "generic code names a game:\n" + "\n".join(found)


def test_the_check_finds_a_game_named_in_code_but_not_in_a_docstring(tmp_path):
    sample = SOURCE / "core" / "_sample_for_the_check.py"
    sample.write_text('"""A docstring may say load_game("azul")."""\n'
                      'from tileworks.games.kiln import board\n'
                      'BEST = "tuileries"\n', encoding="utf-8")
    try:
        found = names_in_python(sample)
    finally:
        sample.unlink()
    assert [line.split(": ", 1)[1] for line in found] == ["imports tileworks.games.kiln", "'tuileries'"]
    script = SOURCE / "web" / "static" / "_sample_for_the_check.js"
    script.write_text('// kiln, in a comment, is fine\nconst names = { kiln: _("kiln cell") };\n', encoding="utf-8")
    try:
        assert len(names_in_script(script)) == 1
    finally:
        script.unlink()
