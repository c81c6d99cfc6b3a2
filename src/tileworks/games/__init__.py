"""The games tileworks ships. Importing this package registers each of them."""

from tileworks.games import azul, kiln, tiles, tuileries  # noqa: F401  (each registers itself)
