"""The progress display of the long commands (arena, ladder, study, train).

On a terminal it is Rich's bar, redrawn in place. Where the output goes to
a file or a pipe (an arena left running under ``nohup`` for a night, a
job on a cluster), Rich shows nothing until the end; there each step of
the work writes a plain line instead, at most one a minute (the first and
the last always), with what the bar would show.

Rich estimates the time left from the last ``speed_estimate_period``
seconds of progress, 30 by default: an arena whose games take minutes
would have no estimate at all. Here the estimate reads half an hour.
"""

from __future__ import annotations

from typing import Any

from rich import get_console
from rich.console import Console
from rich.progress import BarColumn, ProgressColumn, TaskID
from rich.progress import Progress as RichProgress
from rich.text import Text


class Progress(RichProgress):
    """Rich's :class:`~rich.progress.Progress`, which also writes its tasks
    as lines where its console is not a terminal.

    >>> import io
    >>> from rich.progress import MofNCompleteColumn, TextColumn
    >>> console = Console(file=io.StringIO(), width=80)
    >>> with Progress(TextColumn("{task.description}"), MofNCompleteColumn(), console=console) as bar:
    ...     task = bar.add_task("tiles", total=3)
    ...     for done in (1, 2, 3):
    ...         bar.update(task, completed=done)
    >>> print(console.file.getvalue().strip())
    tiles  1/3
    tiles  3/3
    """

    def __init__(self, *columns: str | ProgressColumn, console: Console | None = None,
                 line_every: float = 60.0, **options: Any) -> None:
        options.setdefault("speed_estimate_period", 1800.0)
        #: where the display cannot redraw: a line a step, at most one each ``line_every`` seconds
        self.lines = not (console or get_console()).is_terminal
        if self.lines:  # the lines say it all, down to the last state: Rich's display stays off
            options["disable"] = True
        super().__init__(*columns, console=console, **options)
        self.line_every = line_every
        self._last_line: dict[TaskID, tuple[float, float]] = {}  # a task's last line: when, at how much done

    def update(self, task_id: TaskID, **changes: Any) -> None:
        super().update(task_id, **changes)
        if self.lines:
            self._write_line(task_id)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        if self.lines:
            self._write_line(task_id)

    def stop(self) -> None:
        if self.lines:  # stopped early (Ctrl-C, an error): what was done since the last line
            for task_id in self.task_ids:
                self._write_line(task_id, whenever=True)
        super().stop()

    def _write_line(self, task_id: TaskID, whenever: bool = False) -> None:
        task = self._tasks[task_id]
        now = self.get_time()
        when, done = self._last_line.get(task_id, (None, None))
        if task.completed == (0 if done is None else done):  # nothing new done
            return
        last = whenever or (task.total is not None and task.completed >= task.total)
        if when is not None and now - when < self.line_every and not last:
            return
        self._last_line[task_id] = (now, task.completed)
        parts = []
        for column in self.columns:
            if isinstance(column, BarColumn):
                continue
            shown = column(task) if isinstance(column, ProgressColumn) else Text.from_markup(column.format(task=task))
            plain = shown.plain.strip() if isinstance(shown, Text) else ""
            if plain:
                parts.append(plain)
        self.console.print("  ".join(parts), markup=False, emoji=False, highlight=False, soft_wrap=True)
