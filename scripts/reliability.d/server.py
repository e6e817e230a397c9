"""A `localdynamo serve` process for the reliability scripts: start on a free port, SIGKILL,
stop, and boto3 clients that never retry (an answer or a lost connection, nothing between)."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import boto3
from botocore.config import Config

REPO = Path(__file__).resolve().parents[2]
LISTEN = re.compile(rb"listening on (http://\S+)")


def binary() -> str:
    """LOCALDYNAMO_BIN, else the release build, else the debug build."""
    configured = os.environ.get("LOCALDYNAMO_BIN")
    if configured:
        return configured
    for kind in ("release", "debug"):
        path = REPO / ".build" / kind / "localdynamo"
        if path.exists():
            return str(path)
    raise SystemExit("no localdynamo binary: build it or set LOCALDYNAMO_BIN")


class Server:
    """One server process on a data directory; `start()` again after `kill()` restarts it."""

    def __init__(self, db_path: Path, extra: list[str] | None = None, log: Path | None = None,
                 preexec=None):
        self.db_path = db_path
        self.extra = extra or []
        self.log = log or db_path.parent / "server.log"
        self.preexec = preexec
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def start(self, timeout: float = 20.0) -> str:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [binary(), "serve", "--db-path", str(self.db_path), "--port", "0", *self.extra],
                stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, preexec_fn=self.preexec)
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        line = b""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            match = LISTEN.search(line)
            if match:
                self.url = match.group(1).decode()
                return self.url
            if not line and self.proc.poll() is not None:
                break
        raise RuntimeError(f"server did not start (exit {self.proc.poll()}); see {self.log}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: no flush, no close, no checkpoint."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc:
            self.proc.wait(timeout=30)

    def stop(self) -> int:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        return self.proc.returncode if self.proc else 0

    def rss_kib(self) -> int:
        """The process's resident set size in KiB (Linux /proc)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0


def client(url: str, service: str = "dynamodb", timeout: float = 30.0, pool: int = 10, session=None):
    """A client that never retries, of `session` or of a session of its own (sessions are not
    thread-safe; clients are, and many made from one session share its loaded models)."""
    session = session or boto3.session.Session()
    return session.client(
        service, endpoint_url=url, region_name="us-east-1", aws_access_key_id="reliability",
        aws_secret_access_key="secret",
        config=Config(retries={"max_attempts": 1, "mode": "standard"}, connect_timeout=5,
                      read_timeout=timeout, max_pool_connections=pool))


def check_storage(db_path: Path) -> str:
    """`localdynamo check` and SQLite's own integrity check on every database file of a stopped
    server; raises with what was found when either fails. Returns check's report."""
    result = subprocess.run([binary(), "check", "--db-path", str(db_path)], capture_output=True,
                            text=True, timeout=300)
    if result.returncode != 0 or "BROKEN" in result.stdout:
        raise AssertionError(f"localdynamo check failed:\n{result.stdout}{result.stderr}")
    for file in sorted(db_path.glob("*.db")):
        with sqlite3.connect(file) as connection:
            verdict = connection.execute("PRAGMA integrity_check").fetchall()
        if verdict != [("ok",)]:
            raise AssertionError(f"PRAGMA integrity_check of {file.name}: {verdict[:10]}")
    return result.stdout
