"""The game server: ``tileworks serve`` hosts durable games for browsers and
scripts over HTTP and WebSockets (see ``docs/server.md``)."""

from tileworks.server.app import create_app

__all__ = ["create_app"]
