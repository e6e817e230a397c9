"""scripts/fuzz: seeded mutation fuzzing of the request path, every target in its own process.

In-process targets (the `localdynamo-fuzz` executable): json (the JSON reader, with a
write-and-read-back check), shapes (every operation's input shape decoding), expressions (the
expression parsers and compiler, then evaluation against an item), partiql (the PartiQL parser),
sigv4 (the SigV4 verifier's header and query parsing). The http target sends mutated requests
to a `localdynamo serve` (http_fuzz.py). A crash, a hang, an HTTP 5xx, an error type outside
DynamoDB's vocabulary or a broken property fails the run; crashing and hanging inputs are saved
in --findings for a regression test and the corpus.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import http_fuzz  # noqa: E402
from server import REPO, Server, binary, client  # noqa: E402

IN_PROCESS = ["json", "shapes", "expressions", "partiql", "sigv4"]


def fuzzer() -> str:
    """`localdynamo-fuzz` beside the server binary, else from the release or the debug build
    (`scripts/run` builds only a release `localdynamo`)."""
    for directory in (Path(binary()).parent, REPO / ".build" / "release", REPO / ".build" / "debug"):
        if (directory / "localdynamo-fuzz").exists():
            return str(directory / "localdynamo-fuzz")
    raise SystemExit("no localdynamo-fuzz binary: swift build --product localdynamo-fuzz")


def run_in_process(target: str, inputs: int, seed: int, findings: Path, limit_ms: int) -> dict:
    command = [fuzzer(), target, "--inputs", str(inputs), "--seed", str(seed), "--findings", str(findings),
               "--time-limit-ms", str(limit_ms), "--corpus", str(REPO / "Tests" / "fuzz" / "corpus")]
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    figures = {"target": target, "inputs": inputs, "seed": seed, "crashes": 0, "hangs": 0, "bugs": 0,
               "seconds": round(time.monotonic() - started, 1), "failures": []}
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if lines:
        figures.update(json.loads(lines[-1]))
    if result.returncode < 0 or result.returncode not in (0, 1, 3):
        figures["crashes"] = 1
        name = signal.Signals(-result.returncode).name if result.returncode < 0 else f"exit {result.returncode}"
        figures["failures"].append(f"crashed ({name}); the input is in {findings}/crash-{target}.bin\n{result.stderr[-2000:]}")
    elif result.returncode == 3:
        figures["hangs"] = 1
        figures["failures"].append(result.stderr.strip())
    elif result.returncode == 1:
        figures["failures"].append(result.stderr.strip()[-2000:])
    return figures


def run_http(inputs: int, seed: int, timeout: float, consistency: str = "exact") -> dict:
    scratch = Path(tempfile.mkdtemp(prefix="localdynamo-fuzz-"))
    extra = ["--consistency", consistency, "--consistency-seed", str(seed)] if consistency != "exact" else []
    server = Server(scratch / "db", extra, log=scratch / "server.log")
    (scratch / "db").mkdir()
    url = server.start()
    dynamodb = client(url)

    def setup() -> None:
        try:
            dynamodb.describe_table(TableName="fuzz")
        except dynamodb.exceptions.ResourceNotFoundException:
            dynamodb.create_table(
                TableName="fuzz", BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": name, "AttributeType": kind}
                                      for name, kind in (("pk", "S"), ("sk", "N"), ("g", "S"))],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                GlobalSecondaryIndexes=[{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                         "Projection": {"ProjectionType": "ALL"}}])
        dynamodb.put_item(TableName="fuzz", Item={"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "3"}, "g": {"S": "g1"},
                                                  "l": {"L": [{"N": "1"}]}, "ss": {"SS": ["a"]}})

    started = time.monotonic()
    try:
        result = http_fuzz.run(url, inputs, seed, timeout, setup)
        alive = server.proc is not None and server.proc.poll() is None
        if alive:
            dynamodb.list_tables()
    finally:
        status = server.stop()
    failures = result.failures[:20]
    if not alive:
        failures.append(f"the server died (exit {status}); see {server.log}")
    return {"target": "http", "inputs": result.inputs, "seed": seed, "seconds": round(time.monotonic() - started, 1),
            "crashes": 0 if alive else 1, "hangs": result.hangs, "bugs": 0, "server_errors": result.server_errors,
            "outside_vocabulary": result.outside_vocabulary,
            "coding_500s": result.coding_500s, "statuses": result.statuses, "outcomes": result.types,
            "failures": failures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs per target (default 100,000)")
    parser.add_argument("--seed", type=int, default=20, help="the seed (default 20; the same seed, the same inputs)")
    parser.add_argument("--targets", default=",".join(IN_PROCESS + ["http"]), help="comma-separated targets")
    parser.add_argument("--time-limit-ms", type=int, default=5000, help="per-input time limit (default 5000 ms)")
    parser.add_argument("--findings", type=Path, default=REPO / ".build" / "fuzz-findings",
                        help="where crashing and hanging inputs go (default .build/fuzz-findings)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--consistency", choices=["exact", "service"], default="exact",
                        help="the http target's server --consistency (service: drawn from --seed)")
    args = parser.parse_args(argv)
    results = []
    for target in args.targets.split(","):
        if target == "http":
            figures = run_http(args.inputs, args.seed, args.time_limit_ms / 1000, args.consistency)
        elif target in IN_PROCESS:
            figures = run_in_process(target, args.inputs, args.seed, args.findings, args.time_limit_ms)
        else:
            parser.error(f"unknown target {target}")
        results.append(figures)
        bad = figures["crashes"] + figures["hangs"] + figures["bugs"] + figures.get("server_errors", 0) \
            + figures.get("outside_vocabulary", 0)
        print(f"{target}: {figures['inputs']} inputs in {figures['seconds']} s, {figures['crashes']} crashes, "
              f"{figures['hangs']} hangs, {figures['bugs']} broken properties"
              + (f", {figures['server_errors']} 5xx, {figures['outside_vocabulary']} outside DynamoDB's errors, "
                 f"{figures['coding_500s']} 500s for a bad Content-Encoding (as DynamoDB), "
                 f"statuses {figures['statuses']}" if target == "http" else "")
              + f"; outcomes {dict(sorted(figures.get('outcomes', {}).items(), key=lambda kv: -kv[1])[:6])}"
              + (" FAILED" if bad else ""), flush=True)
        for failure in figures["failures"][:10]:
            print("  " + failure)
        figures["passed"] = bad == 0 and not figures["failures"]
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0 if all(figures["passed"] for figures in results) else 1


if __name__ == "__main__":
    sys.exit(main())
