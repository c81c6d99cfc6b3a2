"""The games tileworks ships. Importing this package registers each of them."""

from tileworks.games import azul, kiln, tiles  # noqa: F401  (each registers itself)
