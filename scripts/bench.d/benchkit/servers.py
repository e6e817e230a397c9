"""The servers under test: how each is built and started, and a running one's process (CPU, RSS,
stop by PID only)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import http.client
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .common import (HOST, ROOT, WORK, dynamo_request, free_port, log, proc_cpu_seconds, proc_status_kb,
                     sh)


@dataclass
class ServerSpec:
    key: str
    label: str
    kind: str  # "ours", "peer" or "ceiling"
    command: Callable[[int, Path], list[str]]
    env: dict[str, str] = field(default_factory=dict)
    needs_dir: bool = False
    start_timeout: float = 90.0
    # Servers that take their port or temp dir from the environment rather than the command line.
    port_env: str | None = None
    tmpdir_env: str | None = None


RUNNING: set["RunningServer"] = set()  # stopped on any exit (Ctrl-C, SIGTERM, an exception)


class RunningServer:
    def __init__(self, spec: ServerSpec, logs: Path):
        self.spec = spec
        self.port = free_port()
        self.tmpdir: Path | None = None
        if spec.needs_dir:
            self.tmpdir = Path(tempfile.mkdtemp(prefix=f"localdynamo-bench-{spec.key}-"))
        self.log_path = logs / f"{spec.key}-{self.port}.log"
        self.command = spec.command(self.port, self.tmpdir or Path("."))
        env = dict(os.environ)
        env.update(spec.env)
        if spec.port_env:
            env[spec.port_env] = str(self.port)
        if spec.tmpdir_env and self.tmpdir:
            env[spec.tmpdir_env] = str(self.tmpdir)
        self.log_file = open(self.log_path, "wb")
        started = time.perf_counter()
        self.proc = subprocess.Popen(self.command, stdout=self.log_file, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=env, cwd=self.tmpdir or ROOT,
                                     start_new_session=True)
        self.pid = self.proc.pid
        RUNNING.add(self)
        self.cold_start_ms = self._wait_first_answer(started) * 1000

    def _wait_first_answer(self, started: float) -> float:
        """Seconds from process start to the first answered HTTP request (any status)."""
        deadline = started + self.spec.start_timeout
        attempts = 0
        while time.perf_counter() < deadline and attempts < 1_000_000:
            attempts += 1
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.spec.key} exited with {self.proc.returncode}: {self.log_tail()}")
            try:
                dynamo_request(self.port, "DescribeTable", {"TableName": "startup-probe"}, timeout=5)
                return time.perf_counter() - started
            except (ConnectionError, OSError, http.client.HTTPException):
                time.sleep(0.001)
        self.stop()
        raise RuntimeError(f"{self.spec.key} did not answer within {self.spec.start_timeout:.0f}s: {self.log_tail()}")

    def log_tail(self) -> str:
        self.log_file.flush()
        try:
            return self.log_path.read_text(errors="replace")[-1500:]
        except OSError:
            return ""

    def cpu(self) -> float:
        return proc_cpu_seconds(self.pid)

    def rss_kb(self) -> int | None:
        return proc_status_kb(self.pid, "VmRSS")

    def hwm_kb(self) -> int | None:
        return proc_status_kb(self.pid, "VmHWM")

    def threads(self) -> int | None:
        return proc_status_kb(self.pid, "Threads")

    def stop(self) -> None:
        """SIGTERM to our own PID, SIGKILL after 10 s; never by name."""
        RUNNING.discard(self)
        if self.proc.poll() is None:
            try:
                os.kill(self.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
            except ProcessLookupError:
                pass
        self.log_file.close()
        if self.tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)


def export_ref(ref: str) -> tuple[Path, str]:
    """Exports commit `ref` with `git archive` into .build-bench/src (replacing the previous
    export, keeping its .build so the dependencies are not rebuilt) and returns that directory and
    the short sha: a clean tree to build while the work tree is mid-edit."""
    sha = subprocess.run(["git", "rev-parse", "--short", ref + "^{commit}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    source = WORK / "src"
    marker = source / ".bench-ref"
    if marker.exists() and marker.read_text().strip() == sha:
        return source, sha
    source.mkdir(parents=True, exist_ok=True)
    for entry in source.iterdir():
        if entry.name != ".build":
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    archive = subprocess.Popen(["git", "archive", sha], cwd=ROOT, stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(source)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise SystemExit(f"git archive {sha} failed")
    # git keeps no empty folders: a target declared before its first file (a placeholder test
    # target) would stop SwiftPM from loading the package at all. Give such targets their folder.
    manifest = (source / "Package.swift").read_text()
    for kind, name in re.findall(r'\.(testTarget|target|executableTarget)\(\s*name:\s*"([^"]+)"', manifest):
        (source / ("Tests" if kind == "testTarget" else "Sources") / name).mkdir(parents=True, exist_ok=True)
    marker.write_text(sha + "\n")
    return source, sha


def build(skip: bool, ref: str | None, clients: bool = True,
          only_server: bool = False) -> tuple[Path, Path | None, Path | None, Path | None]:
    """Builds `localdynamo` (from the work tree, or from commit `ref`), the ceiling server (unless
    `only_server`), and (when `clients`) the DynamoClient and DynamoStore benchmarks in release
    mode, unless `skip`, and returns their paths (None for those not wanted)."""
    source = ROOT
    if ref:
        source, _ = export_ref(ref)
    packages = [(source, "localdynamo")]
    if not only_server:
        packages.append((ROOT / "Benchmarks", "ceiling-server"))
    if clients and not only_server:
        packages += [(ROOT / "Benchmarks", "client-bench"), (ROOT / "Benchmarks", "store-bench")]
    binaries: list[Path | None] = []
    for package, product in packages:
        if not skip:
            sh(["swift", "build", "-c", "release", "--package-path", str(package), "--product", product])
        bin_path = subprocess.run(["swift", "build", "-c", "release", "--package-path", str(package),
                                   "--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
        binary = Path(bin_path) / product
        if not binary.exists():
            raise SystemExit(f"missing {binary}: build it (drop --no-build)")
        binaries.append(binary)
    binaries += [None] * (4 - len(binaries))
    return binaries[0], binaries[1], binaries[2], binaries[3]


def python_with(module: str, venv_name: str, requirement: str) -> str | None:
    """A Python interpreter that can import `module`: this one if it can, else a venv under
    .build-bench/ with `requirement` installed from PyPI (created once). None if that fails."""
    check = ["-c", f"import {module}"]
    if subprocess.run([sys.executable, *check], capture_output=True).returncode == 0:
        return sys.executable
    venv = WORK / venv_name
    python = venv / "bin" / "python"
    if python.exists() and subprocess.run([str(python), *check], capture_output=True).returncode == 0:
        return str(python)
    try:
        WORK.mkdir(exist_ok=True)
        if not python.exists():
            sh([sys.executable, "-m", "venv", str(venv)])
        sh([str(python), "-m", "pip", "install", "-q", requirement])
    except (subprocess.CalledProcessError, OSError) as error:
        log(f"could not install {requirement}: {error}")
        return None
    if subprocess.run([str(python), *check], capture_output=True).returncode != 0:
        return None
    return str(python)


def package_version(python: str, distribution: str) -> str:
    result = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version('{distribution}'))"],
                            capture_output=True, text=True)
    return result.stdout.strip() or "?"


def server_specs(localdynamo: Path, ceiling: Path, wanted: list[str], versions: dict[str, str]) -> list[ServerSpec]:
    specs: list[ServerSpec] = []
    for key in wanted:
        if key == "ld-mem":
            specs.append(ServerSpec("ld-mem", "localdynamo (memory)", "ours",
                                    lambda port, _d: [str(localdynamo), "serve", "--in-memory", "--host", HOST,
                                                      "--port", str(port), "--log-level", "warning"]))
        elif key == "ld-disk":
            specs.append(ServerSpec("ld-disk", "localdynamo (disk)", "ours",
                                    lambda port, d: [str(localdynamo), "serve", "--db-path", str(d / "db"),
                                                     "--host", HOST, "--port", str(port), "--log-level", "warning"],
                                    needs_dir=True))
        elif key == "moto":
            python = python_with("moto.server", "venv-moto", "moto[server]")
            if python is None:
                log("moto unavailable: skipped")
                continue
            versions["moto"] = package_version(python, "moto")
            specs.append(ServerSpec("moto", f"moto {versions['moto']}", "peer",
                                    lambda port, _d, py=python: [py, "-m", "moto.server", "-H", HOST, "-p", str(port)]))
        elif key == "ministack":
            python = python_with("ministack.app", "venv-ministack", "ministack")
            if python is None:
                log("ministack unavailable: skipped")
                continue
            versions["ministack"] = package_version(python, "ministack")
            specs.append(ServerSpec("ministack", f"ministack {versions['ministack']}", "peer",
                                    lambda _port, _d, py=python: [py, "-m", "ministack"],
                                    env={"BIND_HOST": HOST, "LOG_LEVEL": "WARNING", "SERVICES": "dynamodb"},
                                    needs_dir=True, port_env="GATEWAY_PORT", tmpdir_env="TMPDIR"))
        elif key == "ceiling":
            specs.append(ServerSpec("ceiling", "bare NIO (ceiling)", "ceiling",
                                    lambda port, _d: [str(ceiling), "--host", HOST, "--port", str(port)]))
        else:
            raise SystemExit(f"unknown server {key}")
    return specs


def start(spec: ServerSpec, logs: Path) -> RunningServer:
    server = RunningServer(spec, logs)
    log(f"{spec.label}: pid {server.pid}, port {server.port}, first answer after {server.cold_start_ms:.1f} ms")
    return server


def cold_starts(spec: ServerSpec, count: int, logs: Path) -> list[dict]:
    """`count` fresh starts: each one's time to the first answered request, its RSS then, and its
    resident set by part (see benchkit.startup)."""
    from .startup import breakdown

    binary = str(spec.command(0, Path(tempfile.gettempdir()))[0])
    samples = []
    for _ in range(count):
        server = RunningServer(spec, logs)
        try:
            rss = server.rss_kb()
            samples.append(dict(ms=server.cold_start_ms, rss_kb=rss, memory=breakdown(server.pid, binary)))
        finally:
            server.stop()
    return samples


def display_command(spec: ServerSpec) -> str:
    """The server's command line as run, with PORT and TMPDIR for what changes per run."""
    env = dict(spec.env)
    if spec.port_env:
        env[spec.port_env] = "PORT"
    if spec.tmpdir_env:
        env[spec.tmpdir_env] = "TMPDIR"
    words = [str(w).replace(str(ROOT) + "/", "") for w in spec.command(0, Path("TMPDIR"))]
    words = ["PORT" if w == "0" and i > 0 and words[i - 1] in ("--port", "-p") else w for i, w in enumerate(words)]
    words = [os.path.basename(w) if w == sys.executable else w for w in words]
    return " ".join([f"{k}={v}" for k, v in env.items()] + [shlex.quote(w) for w in words])
