"""Instructions per request of each workload, counted by callgrind (issue 19's before/after table).

Wall-clock rates move with the machine; instruction counts do not (a few tenths of a percent
between runs of one binary). This stage runs `scripts/bench.d/callgrind.py` against the release
binary under test and sets each count beside the count of the same workload in the last build
before issue 19's work (`BEFORE`, measured with the same script and setup on the release build of
ea5d687, 2026-11-25; see "Instruction counts (issue #19)" in docs/history/performance-rounds.md).
Workloads that did not exist then (streams, PartiQL) have no *before*.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .common import ROOT, log

SCRIPT = ROOT / "scripts" / "bench.d" / "callgrind.py"

# callgrind.py's operation, and how the report names it.
WORKLOADS = {
    "get": "GetItem",
    "get-disk": "GetItem, disk",
    "put": "PutItem (new key)",
    "put-disk": "PutItem (new key), disk",
    "query": "Query (10 items, KeyConditions)",
    "update": "UpdateItem (SET + ADD, ConditionExpression)",
    "put-gsi2": "PutItem on a table with two GSIs",
    "put-stream": "PutItem on a table with a stream",
    "put-stream-disk": "PutItem on a table with a stream, disk",
    "transact": "TransactWriteItems of 10 new items",
    "batch": "BatchWriteItem of 25 new items",
    "batch-disk": "BatchWriteItem of 25 new items, disk",
    "ql-get": "PartiQL SELECT by whole key",
    "ql-query": "PartiQL SELECT of a partition (10 items)",
}

BEFORE_REF = "ea5d687"
BEFORE = {
    "get": 198_562,
    "put": 258_782,
    "put-disk": 265_031,
    "query": 281_283,
    "update": 397_032,
    "put-gsi2": 400_496,
    "transact": 1_853_795,
    "batch": 2_530_319,
    "batch-disk": 2_543_201,
}


def count_instructions(binary: Path, out_dir: Path, logs: Path) -> dict:
    """Runs callgrind.py on `binary` for every workload; returns {"counts": {op: n}} or {"error": text}."""
    out_dir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(SCRIPT), "--binary", str(binary), "--ops", ",".join(WORKLOADS),
               "--out-dir", str(out_dir), "--json"]
    log("instructions per request: " + " ".join(command[1:]))
    with open(logs / "callgrind.log", "w") as stderr:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=3600)
    if done.returncode != 0:
        return {"error": f"callgrind.py exited with {done.returncode} (see logs/callgrind.log)"}
    try:
        measured = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": "callgrind.py printed no JSON (see logs/callgrind.log)"}
    return {"counts": {op: measured[op] for op in WORKLOADS if op in measured}}


def change(before: int | None, after: int | None) -> str:
    """The relative change from `before` to `after` (`−26.0%`), or `–` when either is missing."""
    if not before or after is None:
        return "–"
    percent = (after - before) / before * 100
    return f"{'−' if percent < 0 else '+'}{abs(percent):.1f}%"


def render(measured: dict, ref: str) -> list[str]:
    """The report's lines for the instruction table (`ref` names the build measured)."""
    lines = ["### Instructions per request (callgrind; issue 19 before and after)", ""]
    if measured.get("error"):
        return lines + [f"Not measured: {measured['error']}.", ""]
    counts = measured.get("counts", {})
    lines += [
        f"`scripts/bench.d/callgrind.py` on the release binary of this run: one keep-alive connection "
        f"(Python's `http.client`), in memory unless the row says disk, per request = (run - setup-only "
        f"run) / requests. *Before* is the release build of {BEFORE_REF}, the last before issue 19's "
        f"work, counted with the same script and setup.",
        "",
        f"| workload | before ({BEFORE_REF}) | this run ({ref}) | change |",
        "|---|---:|---:|---:|",
    ]
    for op, name in WORKLOADS.items():
        if op not in counts and op not in BEFORE:
            continue
        before, after = BEFORE.get(op), counts.get(op)
        lines.append(f"| {name} | {f'{before:,}' if before else '– (new)'} | "
                     f"{f'{after:,}' if after is not None else '–'} | {change(before, after)} |")
    lines.append("")
    return lines
