"""Testing tools for games, shipped or plugin: the conformance suite
(:mod:`tileworks.testing.conformance`) and its pytest plugin
(:mod:`tileworks.testing.plugin`)."""
