"""The games tileworks ships. Importing this package registers each of them."""

from tileworks.games import kiln  # noqa: F401  (registers "kiln")
