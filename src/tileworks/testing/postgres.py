"""A throwaway PostgreSQL server for tests and benchmarks: Debian's own
binaries (``initdb``, ``pg_ctl``), a cluster in a temporary folder, on a
free port of the loopback, gone when stopped.

PostgreSQL refuses to run as root; run as root (a container, CI), the
cluster belongs to the ``postgres`` system user that Debian's package makes.

Used as::

    server = ThrowawayPostgres().start()
    url = server.new_database("t1")   # postgresql+psycopg://postgres@127.0.0.1:PORT/t1
    ...
    server.stop()
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def postgres_binaries() -> Path:
    """The folder of the newest installed PostgreSQL's server programs."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise RuntimeError("PostgreSQL's server programs are missing: install Debian's postgresql "
                       "(`make test` does: apt-get install postgresql)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayPostgres:
    """A PostgreSQL cluster of its own. ``durable=False`` (tests) skips
    flushing to disk: a server process killed mid-test loses nothing it
    committed either way; only a crash of the machine would."""

    def __init__(self, durable: bool = False):
        self.durable = durable
        self.port = free_port()
        self.folder: Path | None = None
        self.bin = postgres_binaries()
        self.as_root = os.geteuid() == 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        done = subprocess.run(prefix + [str(self.bin / command[0]), *command[1:]], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> "ThrowawayPostgres":
        self.folder = Path(tempfile.mkdtemp(prefix="tileworks-postgres-"))
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
        settings = [f"-p {self.port}", "-c listen_addresses=127.0.0.1", f"-c unix_socket_directories={self.folder}",
                    "-c max_connections=300"]
        if not self.durable:
            settings += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._run("pg_ctl", "-D", str(data), "-l", str(self.folder / "log"), "-o", " ".join(settings), "-w", "start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self, name: str) -> str:
        """An empty database of that name (made again if it was there); its URL."""
        import psycopg

        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.folder is None:
            return
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
