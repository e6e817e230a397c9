"""Fixtures for the LocalDynamo black-box conformance suite.

Request compression: LOCALDYNAMO_GZIP_REQUESTS=1 gzips the body of every request the boto3
clients of this suite send (a botocore hook that compresses the body and sets
`Content-Encoding: gzip`, as SDKs with request compression do), so the whole suite also runs
against compressed requests. Raw-HTTP tests and AWS CLI subprocesses are unaffected.

Endpoint selection:
  * LOCALDYNAMO_ENDPOINT=http://host:port  -> use an already running server.
  * otherwise start the binary from LOCALDYNAMO_BIN (default
    .build/release/localdynamo, falling back to .build/debug/localdynamo, both
    relative to the repository root) as
        <bin> serve --in-memory --port 0 --host 127.0.0.1
    and wait for a stdout line "listening on http://...".
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import boto3
import botocore.handlers
import pytest
from botocore.config import Config

from ddb_helpers import REGION, RawHttp, TableFactory

REPO_ROOT = Path(__file__).resolve().parents[2]
LISTEN_RE = re.compile(r"listening on (http://\S+)")
STARTUP_TIMEOUT = 10.0
STOP_TIMEOUT = 5.0

ACCESS_KEY = "testing"
SECRET_KEY = "testing"


# ---------------------------------------------------------------------------
# Optional request compression
# ---------------------------------------------------------------------------


def _gzip_request_body(request, **_kwargs) -> None:
    """botocore `before-sign` hook: send the body gzip-compressed."""
    import gzip

    body = request.data
    if isinstance(body, str):
        body = body.encode("utf-8")
    if not body or "Content-Encoding" in request.headers:
        return
    request.data = gzip.compress(body)
    request.headers["Content-Encoding"] = "gzip"


if os.environ.get("LOCALDYNAMO_GZIP_REQUESTS") == "1":
    # Built-in handlers are registered in every botocore session created afterwards, so every
    # client of the suite (fixtures and tests alike) compresses.
    for _service in ("dynamodb", "dynamodbstreams"):
        botocore.handlers.BUILTIN_HANDLERS.append((f"before-sign.{_service}", _gzip_request_body))


# ---------------------------------------------------------------------------
# Server process management
# ---------------------------------------------------------------------------


def _resolve_binary() -> Path:
    configured = os.environ.get("LOCALDYNAMO_BIN")
    if configured:
        path = Path(configured)
        return path if path.is_absolute() else (REPO_ROOT / path)
    release = REPO_ROOT / ".build/release/localdynamo"
    debug = REPO_ROOT / ".build/debug/localdynamo"
    if release.exists():
        return release
    if debug.exists():
        return debug
    return release


class ServerProcess:
    """`localdynamo serve` on a free port: every test that needs a server process of its own
    starts it through this (`preexec` runs in the child before exec, e.g. to set limits or drop
    privileges)."""

    def __init__(self, binary: Path, args: list[str] | None = None, preexec=None):
        self.binary = binary
        self.args = args if args is not None else ["--in-memory"]
        self.preexec = preexec
        self.stderr_file = tempfile.NamedTemporaryFile(
            prefix="localdynamo-stderr-", suffix=".log", delete=False
        )
        self.stdout_lines: list[str] = []
        self._lines: "queue.Queue[str | None]" = queue.Queue()
        self.proc: subprocess.Popen | None = None
        self.url: str | None = None

    # -- diagnostics -------------------------------------------------------
    def stderr_text(self) -> str:
        try:
            if not self.stderr_file.closed:
                self.stderr_file.flush()
            return Path(self.stderr_file.name).read_text(errors="replace")
        except OSError:
            return "<stderr unavailable>"

    def describe_death(self, what: str) -> str:
        code = self.proc.poll() if self.proc else None
        return (
            f"{what}\n  binary: {self.binary}\n  exit status: {code}\n"
            f"  --- stdout ---\n{''.join(self.stdout_lines)[-4000:]}\n"
            f"  --- stderr ---\n{self.stderr_text()[-8000:]}"
        )

    # -- lifecycle ---------------------------------------------------------
    def _pump_stdout(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.stdout_lines.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def start(self) -> str:
        if not self.binary.exists():
            pytest.fail(
                f"LocalDynamo binary not found at {self.binary}. Build it (swift build -c release) "
                f"or set LOCALDYNAMO_BIN / LOCALDYNAMO_ENDPOINT.",
                pytrace=False,
            )
        cmd = [str(self.binary), "serve", *self.args, "--port", "0", "--host", "127.0.0.1"]
        self.proc = subprocess.Popen(
            cmd,
            cwd=str(REPO_ROOT),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self.stderr_file,
            text=True,
            bufsize=1,
            preexec_fn=self.preexec,
        )
        threading.Thread(target=self._pump_stdout, name="localdynamo-stdout", daemon=True).start()

        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.stop()
                pytest.fail(
                    self.describe_death(
                        f"LocalDynamo did not print 'listening on http://...' within {STARTUP_TIMEOUT}s"
                    ),
                    pytrace=False,
                )
            try:
                line = self._lines.get(timeout=min(remaining, 0.2))
            except queue.Empty:
                if self.proc.poll() is not None:
                    time.sleep(0.1)  # let the pump thread collect the last output
                    pytest.fail(self.describe_death("LocalDynamo exited during startup"), pytrace=False)
                continue
            if line is None:
                self.proc.wait(timeout=STOP_TIMEOUT)
                pytest.fail(self.describe_death("LocalDynamo exited during startup"), pytrace=False)
            match = LISTEN_RE.search(line)
            if match:
                self.url = match.group(1).rstrip(".,;)")
                return self.url

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to flush or close anything."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=STOP_TIMEOUT)
        self.stderr_file.close()

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGTERM)
                self.proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=STOP_TIMEOUT)
        self.stderr_file.close()


@pytest.fixture(scope="session")
def server_process():
    """The spawned server (None when LOCALDYNAMO_ENDPOINT points at an external one)."""
    if os.environ.get("LOCALDYNAMO_ENDPOINT"):
        yield None
        return
    server = ServerProcess(_resolve_binary())
    server.start()
    try:
        yield server
    finally:
        server.stop()
        try:
            os.unlink(server.stderr_file.name)
        except OSError:
            pass


@pytest.fixture(scope="session")
def endpoint_url(server_process) -> str:
    external = os.environ.get("LOCALDYNAMO_ENDPOINT")
    if external:
        return external.rstrip("/")
    assert server_process is not None and server_process.url
    return server_process.url


@pytest.fixture(autouse=True)
def _server_must_survive(request, server_process):
    """Every test starts and ends with a live server; a crash is reported with its stderr."""
    if server_process is not None and not server_process.alive():
        pytest.fail(server_process.describe_death("LocalDynamo is no longer running"), pytrace=False)
    yield
    if server_process is not None and not server_process.alive():
        pytest.fail(
            server_process.describe_death(f"LocalDynamo died while running {request.node.nodeid}"),
            pytrace=False,
        )


# ---------------------------------------------------------------------------
# Clients
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def ddb(endpoint_url):
    """boto3 low-level DynamoDB client; one attempt per call (no retries)."""
    session = boto3.session.Session()
    return session.client(
        "dynamodb",
        endpoint_url=endpoint_url,
        region_name=REGION,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
        config=Config(
            retries={"max_attempts": 1, "mode": "standard"},
            connect_timeout=10,
            read_timeout=30,
        ),
    )


@pytest.fixture(scope="session")
def raw(endpoint_url) -> RawHttp:
    """Unsigned raw HTTP access for malformed / unusual requests."""
    return RawHttp(endpoint_url)


class CliResult:
    def __init__(self, proc: subprocess.CompletedProcess):
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr

    @property
    def json(self):
        import json

        return json.loads(self.stdout) if self.stdout.strip() else {}


def botocore_data_path() -> str:
    """The pinned botocore's model directory. The AWS CLI (1.46) carries its own older botocore,
    whose DynamoDB model lacks 2026's operations (SearchVectors, the bulk operations);
    `AWS_DATA_PATH` makes it load the pinned models first, as `aws configure add-model` would."""
    import botocore

    return os.path.join(os.path.dirname(botocore.__file__), "data")


@pytest.fixture(scope="session")
def aws_cli(endpoint_url):
    """Run `aws dynamodb <args>` against the endpoint; returns a CliResult."""
    exe = shutil.which("aws")
    base = [exe] if exe else [sys.executable, "-m", "awscli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(
        AWS_ACCESS_KEY_ID=ACCESS_KEY,
        AWS_SECRET_ACCESS_KEY=SECRET_KEY,
        AWS_DEFAULT_REGION=REGION,
        AWS_MAX_ATTEMPTS="1",
        AWS_RETRY_MODE="standard",
        AWS_PAGER="",
        AWS_CONFIG_FILE=os.devnull,
        AWS_SHARED_CREDENTIALS_FILE=os.devnull,
        AWS_DATA_PATH=botocore_data_path(),
    )

    def run(*args: str, timeout: float = 60.0) -> CliResult:
        cmd = [*base, "dynamodb", *args, "--endpoint-url", endpoint_url, "--output", "json"]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        return CliResult(proc)

    return run


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------


@pytest.fixture
def make_table(ddb):
    """Factory: make_table(hash_key=("pk","S"), range_key=None, billing_mode=..., **extra) -> name.

    Tables are created with unique names, waited on until ACTIVE and deleted after
    the test (deletion protection is switched off first when needed).
    """
    factory = TableFactory(ddb, "fn")
    yield factory.create
    factory.cleanup()


@pytest.fixture(scope="module")
def module_tables(ddb):
    factory = TableFactory(ddb, "mod")
    yield factory
    factory.cleanup()


@pytest.fixture(scope="module")
def hash_table(module_tables):
    """Table with a single String hash key 'pk'."""
    return module_tables.create(("pk", "S"))


@pytest.fixture(scope="module")
def range_table(module_tables):
    """Table with String hash key 'pk' and Number range key 'sk'."""
    return module_tables.create(("pk", "S"), ("sk", "N"))


@pytest.fixture(scope="module")
def binary_range_table(module_tables):
    """Table with String hash key 'pk' and Binary range key 'sk'."""
    return module_tables.create(("pk", "S"), ("sk", "B"))


@pytest.fixture(scope="module")
def number_table(module_tables):
    """Table with a single Number hash key 'pk'."""
    return module_tables.create(("pk", "N"))


@pytest.fixture(scope="module")
def binary_table(module_tables):
    """Table with a single Binary hash key 'pk'."""
    return module_tables.create(("pk", "B"))
