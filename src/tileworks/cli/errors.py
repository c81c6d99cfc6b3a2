"""How every command reports a refusal: one red line on stderr, exit code 2."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

from tileworks.core.i18n import _


def fail(message: str) -> None:
    """Print ``error: MESSAGE`` (the message's own brackets shown as written) and exit with 2."""
    error = _("error:")
    Console(stderr=True).print(f"[red]{error}[/red] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)
