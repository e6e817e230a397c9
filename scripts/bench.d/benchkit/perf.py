"""`--perf [WORKLOAD]`: `perf stat` and a flat `perf record` of LocalDynamo under one workload's load
(GetItem unless named)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from .measurement import run_wrk
from .servers import ServerSpec, start
from .workloads import create_table, preload


def perf_lines(report: str, count: int) -> list[str]:
    """The first `count` entries of a `perf report --stdio` text, without padding or the empty
    call-graph columns."""
    lines = []
    for line in report.splitlines():
        if line.strip() and not line.startswith("#"):
            lines.append(re.sub(r"(\s+-)+\s*$", "", line).rstrip())
    return lines[:count]


def perf_profile(spec: ServerSpec, args, logs: Path, scratch: Path, out_dir: Path,
                 workload: str = "get") -> dict | None:
    """`perf stat` and a flat `perf record` (cpu-clock) of the server under `workload`'s load at 8
    connections (`create_table` makes every table a workload writes; `bench` is preloaded)."""
    if shutil.which("perf") is None:
        log("perf not found: no profile")
        return None
    server = start(spec, logs)
    result: dict = {"workload": workload}
    try:
        create_table(server.port)
        preload(server.port, 0, args.items)
        seconds = max(args.duration, 5)
        data = out_dir / f"perf-{spec.key}-{workload}.data"
        stat_out = out_dir / f"perf-{spec.key}-{workload}-stat.txt"
        record = subprocess.Popen(["perf", "record", "-F", "999", "-e", "cpu-clock", "-g", "-o", str(data),
                                   "-p", str(server.pid), "--", "sleep", str(seconds)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        stat = subprocess.Popen(["perf", "stat", "-e", "task-clock,context-switches,cpu-migrations,page-faults",
                                 "-o", str(stat_out), "-p", str(server.pid), "--", "sleep", str(seconds)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run = run_wrk(server, workload, 8, seconds, args.items, scratch)
        record.wait(timeout=60)
        stat.wait(timeout=60)
        result["requests"] = run["requests"]
        result["rps"] = run["rps"]
        if stat_out.exists():
            result["stat"] = stat_out.read_text()
        if data.exists():
            report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children", "-g", "none",
                                     "--sort", "dso,symbol", "--percent-limit", "0.5"],
                                    capture_output=True, text=True, timeout=300)
            text = report.stdout
            if shutil.which("swift"):
                demangled = subprocess.run(["swift", "demangle", "--simplified"], input=text,
                                           capture_output=True, text=True, timeout=120)
                if demangled.returncode == 0:
                    text = demangled.stdout
            (out_dir / f"perf-{spec.key}-{workload}-report.txt").write_text(text)
            children = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--children", "--sort", "symbol",
                                       "-g", "none", "--percent-limit", "0.5"], capture_output=True, text=True,
                                      timeout=300).stdout
            if shutil.which("swift"):
                demangled = subprocess.run(["swift", "demangle", "--simplified"], input=children,
                                           capture_output=True, text=True, timeout=120)
                children = demangled.stdout if demangled.returncode == 0 else children
            (out_dir / f"perf-{spec.key}-{workload}-inclusive.txt").write_text(children)
            result["top"] = perf_lines(text, 25)
            own = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children", "-g", "none", "--dsos",
                                  server.command[0].rsplit("/", 1)[-1], "--sort", "symbol"],
                                 capture_output=True, text=True, timeout=300).stdout
            if shutil.which("swift"):
                demangled = subprocess.run(["swift", "demangle", "--simplified"], input=own,
                                           capture_output=True, text=True, timeout=120)
                own = demangled.stdout if demangled.returncode == 0 else own
            result["own"] = perf_lines(own, 20)
            dsos = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children", "-g", "none", "--sort", "dso"],
                                  capture_output=True, text=True, timeout=300).stdout
            result["dsos"] = perf_lines(dsos, 12)
        else:
            result["error"] = record.stderr.read().decode(errors="replace")[-500:] if record.stderr else "no data"
    finally:
        server.stop()
    return result
