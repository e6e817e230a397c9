#!/usr/bin/env python3
"""DynamoClient's instructions per request, counted by valgrind's callgrind.

Runs a release `client-bench` at concurrency 1 under `valgrind --tool=callgrind` against the
fixed-answer stand-in (client_standin.py), so only the client's own user-space instructions
(libcurl included, kernel excluded) are counted. Each operation runs twice, for a short and a
long time; per request = (instructions of the long run - those of the short run) / (difference
in requests), which cancels process start and setup (docs/history/performance-rounds.md,
"Session 8 client").

Usage (from the repository root):

    (cd Benchmarks && swift build -c release --product client-bench)
    python3 scripts/bench.d/client_callgrind.py --binary Benchmarks/.build/release/client-bench \
        --ops get,query
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

# The server's script, in this folder (which Python puts first on the path of a script it runs).
from callgrind import free_port, read_totals

HERE = os.path.dirname(os.path.abspath(__file__))


def run(binary, port, operation, seconds, directory):
    out = os.path.join(directory, "%s-%g.out" % (operation, seconds))
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary,
         "--endpoint", "http://127.0.0.1:%d" % port, "--operation", operation,
         "--concurrency", "1", "--seconds", str(seconds)],
        capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit("client-bench failed: %s\n%s" % (result.stdout, result.stderr[-2000:]))
    requests = json.loads(result.stdout.strip().splitlines()[-1])["requests"]
    return read_totals(out), requests


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="a release client-bench")
    parser.add_argument("--ops", default="get,put,query", help="comma-separated: get, put, query")
    parser.add_argument("--short", type=float, default=4, help="seconds of the short run")
    parser.add_argument("--long", type=float, default=12, help="seconds of the long run")
    arguments = parser.parse_args()
    port = free_port()
    standin = subprocess.Popen([sys.executable, os.path.join(HERE, "client_standin.py"), str(port)],
                               stdout=subprocess.PIPE, text=True)
    try:
        standin.stdout.readline()
        with tempfile.TemporaryDirectory() as directory:
            for operation in arguments.ops.split(","):
                short = run(arguments.binary, port, operation, arguments.short, directory)
                long = run(arguments.binary, port, operation, arguments.long, directory)
                per_request = (long[0] - short[0]) / (long[1] - short[1])
                print(json.dumps({"operation": operation, "instructions_per_request": round(per_request),
                                  "requests": [short[1], long[1]], "instructions": [short[0], long[0]]}),
                      flush=True)
    finally:
        standin.terminate()
        standin.wait()


if __name__ == "__main__":
    main()
