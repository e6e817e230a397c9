"""moto's server (S3, Kinesis …) on a free loopback port, for the tests of LocalDynamo's calls
to the AWS services beside it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

STARTUP_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class MotoServer:
    """`python -m moto.server` in its own process; `url` once started."""

    def __init__(self, extra_env: dict[str, str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile(prefix="moto-", suffix=".log", delete=False)
        env = dict(os.environ)
        env.update(extra_env or {})
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)

    def wait_until_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"moto exited: {Path(self.log.name).read_text()[-4000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/moto-api/", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("moto did not start in time")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()
        os.unlink(self.log.name)
