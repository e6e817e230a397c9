"""Starting and stopping a LocalDynamo process, and its admin API."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Optional, Sequence

_LISTENING = re.compile(r"listening on (http://\S+)")


class LocalDynamoError(RuntimeError):
    """The server could not be started, or an admin call failed."""


class LocalDynamo:
    """One running `localdynamo serve` process on a free port.

    `endpoint` is its URL; `region`, `access_key` and `secret_key` are what clients should sign
    with (any values work unless the server requires authentication).
    """

    region = "us-east-1"
    access_key = "testing"
    secret_key = "testing"

    def __init__(self, binary: str, args: Sequence[str] = (), startup_timeout: float = 20.0):
        self.binary = binary
        self.args = list(args)
        self.startup_timeout = startup_timeout
        self.endpoint: Optional[str] = None
        self._process: Optional[subprocess.Popen] = None
        self._stderr = tempfile.NamedTemporaryFile(prefix="localdynamo-", suffix=".log", delete=False)

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> "LocalDynamo":
        """Starts the server and waits for its startup line (the seeding, if any, is done then)."""
        command = [self.binary, "serve", "--in-memory", "--host", "127.0.0.1", "--port", "0", *self.args]
        try:
            self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                             stderr=self._stderr, text=True, bufsize=1)
        except OSError as error:
            raise LocalDynamoError(f"cannot run {self.binary}: {error}") from error
        lines: "queue.Queue[Optional[str]]" = queue.Queue()

        def pump() -> None:
            assert self._process is not None and self._process.stdout is not None
            for line in self._process.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, name="localdynamo-stdout", daemon=True).start()
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            match = _LISTENING.search(line)
            if match:
                self.endpoint = match.group(1)
                return self
        self.stop()
        raise LocalDynamoError(f"localdynamo did not start ({' '.join(command)}):\n{self.stderr_text()[-4000:]}")

    def stop(self) -> None:
        """Stops the server (SIGTERM, then SIGKILL after 5 seconds)."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=5)
        self._stderr.close()

    def stderr_text(self) -> str:
        """What the server wrote to standard error so far."""
        self._stderr.flush()
        return Path(self._stderr.name).read_text(errors="replace")

    # -- admin API -------------------------------------------------------------------------
    def admin(self, method: str, path: str, body: Optional[dict] = None) -> Any:
        """Calls `/_localdynamo/<path>` and returns its JSON answer."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.endpoint}/_localdynamo/{path.lstrip('/')}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            raise LocalDynamoError(f"{method} {path}: {error.code} {error.read().decode(errors='replace')}") from error

    def snapshot(self, name: str) -> Any:
        """Captures every namespace as snapshot `name`."""
        return self.admin("POST", "snapshots", {"name": name})

    def restore(self, name: str) -> Any:
        """Puts every namespace back as snapshot `name` holds it."""
        return self.admin("POST", f"snapshots/{name}/restore")

    # -- clients ---------------------------------------------------------------------------
    def client_kwargs(self) -> dict:
        """Keyword arguments for `boto3.client("dynamodb", **kwargs)` (or `resource`)."""
        return {"endpoint_url": self.endpoint, "region_name": self.region,
                "aws_access_key_id": self.access_key, "aws_secret_access_key": self.secret_key}

    def client(self, service: str = "dynamodb"):
        """A boto3 client for this server (needs boto3)."""
        import boto3

        return boto3.client(service, **self.client_kwargs())

    def resource(self):
        """A boto3 DynamoDB resource for this server (needs boto3)."""
        import boto3

        return boto3.resource("dynamodb", **self.client_kwargs())


def find_binary(configured: Optional[str]) -> str:
    """The binary to run: the option, `LOCALDYNAMO_BIN`, or `localdynamo` on PATH."""
    candidate = configured or os.environ.get("LOCALDYNAMO_BIN") or shutil.which("localdynamo")
    if not candidate:
        raise LocalDynamoError("localdynamo not found: pass --localdynamo-bin, set LOCALDYNAMO_BIN or put it on PATH")
    return candidate
