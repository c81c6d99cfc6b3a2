"""Where the tests' XLA compile time goes: a pytest plugin that records every
compile JAX logs, with the test that caused it, and prints the totals by
function and by test at the end of the run; a program found in the
compilation cache is counted apart, as a load.

Usage (from the repository root; any pytest arguments, workers included):
  PYTHONPATH=bench .venv/bin/python -m pytest -p compile_census -n 2 tests/learn tests/batched

Run it as ``make test`` runs the tests (its XLA_FLAGS and compilation cache:
see the Makefile) for figures that match the suite's; with an empty cache
directory each time, or a program found there is not compiled and not
counted. Compiles in processes the tests start (a CLI run) are not seen.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import re
import tempfile
from pathlib import Path

#: where each test process writes its compiles, one JSON line each
FOLDER = "COMPILE_CENSUS_DIR"
COMPILED = re.compile(r"Finished XLA compilation of (.*?) in ([0-9.e+-]+) sec")
#: logged just before the "Finished" line of a program the cache held
LOADED = "Persistent compilation cache hit"
SHOWN = 25


class _Recorder(logging.Handler):
    """JAX's compile log lines, written down with the test under way."""

    def __init__(self, out: Path):
        super().__init__(logging.DEBUG)
        self.out, self.test, self.loading = out.open("a", encoding="utf-8"), "(collection)", False

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        found = COMPILED.search(message)
        if found:
            kind = "load" if self.loading else "compile"
            self.out.write(json.dumps([self.test, found.group(1), float(found.group(2)), kind]) + "\n")
            self.out.flush()
        self.loading = message.startswith(LOADED)


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the run's first process: its workers inherit the environment
        os.environ.setdefault(FOLDER, tempfile.mkdtemp(prefix="compile-census-"))
        os.environ["JAX_LOG_COMPILES"] = "1"
    config._compile_census = _Recorder(Path(os.environ[FOLDER]) / f"{os.getpid()}.jsonl")
    logging.getLogger("jax").addHandler(config._compile_census)


def pytest_runtest_setup(item):
    item.config._compile_census.test = item.nodeid


def pytest_terminal_summary(terminalreporter, config):
    rows = [json.loads(line) for path in Path(os.environ[FOLDER]).glob("*.jsonl")
            for line in path.read_text(encoding="utf-8").splitlines()]
    loads = [row for row in rows if row[3] == "load"]
    rows = [row for row in rows if row[3] == "compile"]
    write = terminalreporter.write_line
    write(f"\ncompile census: {len(rows)} compiles, {sum(r[2] for r in rows):.1f} s; {len(loads)} programs loaded "
          f"from the cache, {sum(r[2] for r in loads):.1f} s ({os.environ[FOLDER]})")
    for title, key in (("function", lambda r: r[1]), ("test", lambda r: r[0])):
        seconds, count = collections.Counter(), collections.Counter()
        for row in rows:
            seconds[key(row)] += row[2]
            count[key(row)] += 1
        write(f"\n{'seconds':>8} {'compiles':>8}  by {title}")
        for name, total in seconds.most_common(SHOWN):
            write(f"{total:8.1f} {count[name]:8d}  {name}")
