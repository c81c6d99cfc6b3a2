"""The ``tileworks`` command: thin front ends over the protocol."""
