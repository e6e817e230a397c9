#!/usr/bin/env python3
"""Instructions per request of the hot operations, counted by valgrind's callgrind.

Wall-clock benchmarks on a shared 2-core machine are noisy; instruction counts are not. This
script runs a release `localdynamo serve` (in memory, or on disk for the `-disk` operations) under
`valgrind --tool=callgrind` several times, each run sending a fixed sequence of requests over one
keep-alive connection, and reports

    instructions per request = (total of the run - total of the setup-only run) / requests

for each operation, measured in its own run (the setup-only run is per storage mode). Every run
does the same setup first (CreateTable of `bench` and of `bench_gsi` with two GSIs, PutItem of the
preloaded items, one GetItem and one Query to warm lazy paths), so the difference is the measured
requests alone, including HTTP parsing and response writing.

Operations (issue 19's list): get, get-disk, put, put-disk, query (10 items), query-disk, batch (BatchWriteItem of 25
new items), batch-disk, update (UpdateItem with an UpdateExpression and a ConditionExpression),
transact (TransactWriteItems of 10 new items), put-gsi2 (PutItem on a table with two GSIs);
ql-get and ql-query (PartiQL SELECT by whole key and of one partition, as dynamo.lua sends them);
overwrite (PutItem replacing a preloaded item) and mix (four GetItems and one overwrite, as
dynamo.lua's 80/20 mix); put-stream and put-stream-disk (PutItem on `bench_stream`, `bench`'s
key schema with a NEW_AND_OLD_IMAGES stream: compare with put and put-disk for issue #14's
stream overhead).

Usage (from the repository root):

    swift build -c release --product localdynamo
    python3 scripts/bench.d/callgrind.py --binary .build/release/localdynamo     # all operations
    python3 scripts/bench.d/callgrind.py --ops get --keep     # keep callgrind.out files

Then, for the hot spots of a kept run:

    callgrind_annotate --inclusive=yes .build-perf/callgrind/get.out | head -60

The counts change by well under 1% between runs of the same binary (the request ids and
Swift's per-process hash seeds differ); a change of a few percent is real.

`--preload N` measures an operation on a grown database instead of a fresh one: after the setup,
the operation's own request is sent N times first (PutItem of N other new keys, so a streamed
table's stream holds N records more), and callgrind counts only the measured requests
(`--instr-atstart=no`, then `callgrind_control -i on` before and `-i off` after them; no setup
run is subtracted). Costs that grow with a table or a stream show this way (issue #14's
in-memory streamed PutItem):

    python3 scripts/bench.d/callgrind.py --ops put,put-stream --preload 100000
"""

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HEADERS_AUTH = ("AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, "
                "SignedHeaders=host, Signature=x")
PAYLOAD = "abcdefghij" * 12  # 120 bytes, as in scripts/bench.d/dynamo.lua
TABLE = "bench"
GSI_TABLE = "bench_gsi"
STREAM_TABLE = "bench_stream"
PARTITIONS = 20
PER_PARTITION = 10


def headers(target):
    return {
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810." + target,
        "X-Amz-Date": "20260101T000000Z",
        "Authorization": HEADERS_AUTH,
    }


def item(pk, sk, n):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}, "data": {"S": PAYLOAD}, "n": {"N": str(n)}}


def pk_of(p):
    return "p%08d" % p


class Client:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

    def call(self, target, body):
        data = json.dumps(body, separators=(",", ":")).encode()
        self.conn.request("POST", "/", body=data, headers=headers(target))
        response = self.conn.getresponse()
        payload = response.read()
        if response.status != 200:
            sys.exit("%s answered %d: %s" % (target, response.status, payload[:300]))
        return json.loads(payload)


def setup(client):
    client.call("CreateTable", {
        "TableName": TABLE,
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "BillingMode": "PAY_PER_REQUEST",
    })
    client.call("CreateTable", {
        "TableName": GSI_TABLE,
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"},
                                 {"AttributeName": "n", "AttributeType": "N"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "GlobalSecondaryIndexes": [
            {"IndexName": "by_n", "KeySchema": [{"AttributeName": "n", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "by_sk", "KeySchema": [{"AttributeName": "sk", "KeyType": "HASH"},
                                                 {"AttributeName": "n", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
        ],
        "BillingMode": "PAY_PER_REQUEST",
    })
    client.call("CreateTable", {
        "TableName": STREAM_TABLE,
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "BillingMode": "PAY_PER_REQUEST",
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    })
    for p in range(PARTITIONS):
        for s in range(PER_PARTITION):
            client.call("PutItem", {"TableName": TABLE, "Item": item(pk_of(p), s, p * 100 + s)})
    client.call("PutItem", {"TableName": GSI_TABLE, "Item": item(pk_of(0), 0, 0)})
    client.call("PutItem", {"TableName": STREAM_TABLE, "Item": item(pk_of(0), 0, 0)})
    get_once(client, 0)
    query_once(client, 0)
    ql_get_once(client, 0)
    ql_query_once(client, 0)
    update_once(client, 0)
    client.call("BatchWriteItem", {"RequestItems": {TABLE: [
        {"PutRequest": {"Item": item("w", 0, 0)}}]}})
    client.call("TransactWriteItems", {"TransactItems": [
        {"Put": {"TableName": TABLE, "Item": item("w", 1, 0)}}]})


def get_once(client, i):
    answer = client.call("GetItem", {"TableName": TABLE, "Key": {
        "pk": {"S": pk_of(i % PARTITIONS)}, "sk": {"N": str((i // PARTITIONS) % PER_PARTITION)}}})
    if "Item" not in answer:
        sys.exit("GetItem found no item")


def query_once(client, i):
    answer = client.call("Query", {"TableName": TABLE, "KeyConditions": {"pk": {
        "AttributeValueList": [{"S": pk_of(i % PARTITIONS)}], "ComparisonOperator": "EQ"}}})
    if answer.get("Count") != PER_PARTITION:
        sys.exit("Query returned %r items" % answer.get("Count"))


def put_once(client, i):
    client.call("PutItem", {"TableName": TABLE, "Item": item("n%08d" % i, i % 10, i)})


def overwrite_once(client, i):
    """PutItem replacing a preloaded item (the 80/20 mix's write)."""
    client.call("PutItem", {"TableName": TABLE, "Item": item(
        pk_of(i % PARTITIONS), (i // PARTITIONS) % PER_PARTITION, i)})


def mix_once(client, i):
    """dynamo.lua's mix, in order: four GetItems, then one PutItem overwriting an item."""
    if i % 5 == 4:
        overwrite_once(client, i * 7919)
    else:
        get_once(client, i)


def put_gsi_once(client, i):
    client.call("PutItem", {"TableName": GSI_TABLE, "Item": item("n%08d" % i, i % 10, i)})


def put_stream_once(client, i):
    client.call("PutItem", {"TableName": STREAM_TABLE, "Item": item("n%08d" % i, i % 10, i)})


def update_once(client, i):
    """SET of one attribute and ADD to a counter on an existing item, if it exists."""
    answer = client.call("UpdateItem", {
        "TableName": TABLE,
        "Key": {"pk": {"S": pk_of(i % PARTITIONS)}, "sk": {"N": str((i // PARTITIONS) % PER_PARTITION)}},
        "UpdateExpression": "SET #d = :d ADD #c :one",
        "ConditionExpression": "attribute_exists(pk) AND #n >= :zero",
        "ExpressionAttributeNames": {"#d": "data", "#c": "count", "#n": "n"},
        "ExpressionAttributeValues": {":d": {"S": PAYLOAD}, ":one": {"N": "1"}, ":zero": {"N": "0"}},
        "ReturnValues": "NONE",
    })
    if "Attributes" in answer:
        sys.exit("UpdateItem returned attributes")


def ql_get_once(client, i):
    """PartiQL SELECT of one item by its whole key (dynamo.lua's ql-get)."""
    answer = client.call("ExecuteStatement", {
        "Statement": 'SELECT * FROM "%s" WHERE pk = ? AND sk = ?' % TABLE,
        "Parameters": [{"S": pk_of(i % PARTITIONS)}, {"N": str((i // PARTITIONS) % PER_PARTITION)}]})
    if len(answer.get("Items", [])) != 1:
        sys.exit("ExecuteStatement by key found %r items" % len(answer.get("Items", [])))


def ql_query_once(client, i):
    """PartiQL SELECT of one partition (dynamo.lua's ql-query)."""
    answer = client.call("ExecuteStatement", {
        "Statement": 'SELECT * FROM "%s" WHERE pk = ?' % TABLE,
        "Parameters": [{"S": pk_of(i % PARTITIONS)}]})
    if len(answer.get("Items", [])) != PER_PARTITION:
        sys.exit("ExecuteStatement of a partition found %r items" % len(answer.get("Items", [])))


def batch_once(client, i):
    answer = client.call("BatchWriteItem", {"RequestItems": {TABLE: [
        {"PutRequest": {"Item": item("b%08d" % i, s, s)}} for s in range(25)]}})
    if answer.get("UnprocessedItems"):
        sys.exit("BatchWriteItem left items unprocessed")


def transact_once(client, i):
    client.call("TransactWriteItems", {"TransactItems": [
        {"Put": {"TableName": TABLE, "Item": item("t%08d" % i, s, s)}} for s in range(10)]})


OPERATIONS = {
    # name: (function, default number of requests, storage: "memory" or "disk")
    "get": (get_once, 1000, "memory"),
    "get-disk": (get_once, 1000, "disk"),
    "put": (put_once, 200, "memory"),
    "put-disk": (put_once, 200, "disk"),
    "overwrite": (overwrite_once, 200, "memory"),
    "mix": (mix_once, 1000, "memory"),
    "query": (query_once, 200, "memory"),
    "query-disk": (query_once, 200, "disk"),
    "ql-get": (ql_get_once, 1000, "memory"),
    "ql-query": (ql_query_once, 200, "memory"),
    "batch": (batch_once, 40, "memory"),
    "batch-disk": (batch_once, 40, "disk"),
    "update": (update_once, 200, "memory"),
    "transact": (transact_once, 40, "memory"),
    "put-gsi2": (put_gsi_once, 200, "memory"),
    "put-stream": (put_stream_once, 200, "memory"),
    "put-stream-disk": (put_stream_once, 200, "disk"),
}


def free_port():
    """A TCP port on 127.0.0.1 that is free now (also used by client_callgrind.py)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def thread_cpu_ns(pid):
    """CPU time of every thread of `pid` so far, in ns (/proc/PID/task/*/schedstat)."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                total += int(f.read().split()[0])
        except OSError:
            pass  # the thread ended
    return total


# valgrind 3.19 (Debian 12) crashes when the main thread parks in libdispatch's dispatch_main
# (Swift's async main ends there: pthread_exit, then sigsuspend). Preloaded under valgrind only,
# this replacement drains the main queue on the main thread instead, as a run loop does.
MAIN_LOOP_SHIM = r"""
#include <poll.h>
#include <stdint.h>
#include <unistd.h>
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *);
void dispatch_main(void) {
    int fd = _dispatch_get_main_queue_handle_4CF();
    for (;;) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        poll(&p, 1, -1);
        uint64_t value;
        (void)!read(fd, &value, sizeof value);
        _dispatch_main_queue_callback_4CF(0);
    }
}
"""


def prepare_valgrind(binary, out_dir):
    """The shim library and a copy of `binary` without DWARF 5 debug info (which valgrind 3.19
    cannot read; the symbol table stays, so callgrind still names every function)."""
    source = os.path.join(out_dir, "mainloop.c")
    shim = os.path.join(out_dir, "libmainloop.so")
    with open(source, "w") as f:
        f.write(MAIN_LOOP_SHIM)
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", shim, source,
                    "-Wl,--unresolved-symbols=ignore-all"], check=True)
    stripped = os.path.join(out_dir, "localdynamo")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    return stripped, shim


def callgrind_instrumentation(pid, on):
    """Turns callgrind's instrumentation of the server `pid` on or off (`--preload` runs)."""
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(pid)], check=True,
                   stdout=subprocess.DEVNULL)


def run(binary, out_file, op, count, mode="callgrind", shim=None, storage="memory", preload=0):
    """Runs the server (under callgrind, or plain with mode "cpu"), sends setup (+ count
    requests of op) and returns the run's instructions (callgrind) or CPU nanoseconds (cpu).
    `storage` "disk" serves from a fresh temporary --db-path. With `preload`, op's request is
    sent that many times after the setup, and callgrind counts only the `count` requests after
    those."""
    port = free_port()
    scratch = tempfile.TemporaryDirectory(prefix="callgrind-db-")
    where = ["--in-memory"] if storage == "memory" else ["--db-path", scratch.name]
    command = [binary, "serve", *where, "--port", str(port)]
    environment = dict(os.environ)
    if mode == "callgrind":
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file] + (
            ["--instr-atstart=no"] if preload else []) + command
        environment["LD_PRELOAD"] = shim
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env=environment)
    try:
        line = server.stdout.readline()
        if "listening" not in line:
            sys.exit("server did not start: %r" % line)
        client = Client(port)
        setup(client)
        function = OPERATIONS[op][0] if op is not None else None
        for i in range(preload):
            function(client, i)
        if preload and mode == "callgrind":
            callgrind_instrumentation(server.pid, True)
        cpu_before = thread_cpu_ns(server.pid)
        if function is not None:
            for i in range(preload, preload + count):
                function(client, i)
        cpu_after = thread_cpu_ns(server.pid)
        if preload and mode == "callgrind":
            callgrind_instrumentation(server.pid, False)
        client.conn.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=600)
        scratch.cleanup()
    if mode == "cpu":
        return cpu_after - cpu_before
    return read_totals(out_file)


def read_totals(out_file):
    """The instructions a callgrind.out file counted (also used by client_callgrind.py)."""
    # "totals:" (the events collected); "summary:" is 0 when instrumentation started off.
    counts = {}
    with open(out_file) as f:
        for text in f:
            match = re.match(r"^(summary|totals): (\d+)", text)
            if match:
                counts[match.group(1)] = int(match.group(2))
    if not counts:
        sys.exit("no totals in " + out_file)
    return counts.get("totals", counts.get("summary"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build-perf/release/localdynamo")
    parser.add_argument("--ops", default=",".join(OPERATIONS),
                        help="comma-separated, of: " + ",".join(OPERATIONS))
    parser.add_argument("--out-dir", default=".build-perf/callgrind")
    parser.add_argument("--keep", action="store_true", help="keep the callgrind.out files")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--mode", choices=["callgrind", "cpu"], default="callgrind",
                        help="cpu: no valgrind; the server's CPU time per request (all threads, "
                             "/proc/PID/task/*/schedstat around the measured requests) instead "
                             "of instructions; noisy on a shared machine: use --scale and --reps")
    parser.add_argument("--scale", type=int, default=1,
                        help="multiply every operation's request count (use 20 or more with --mode cpu)")
    parser.add_argument("--reps", type=int, default=1,
                        help="runs of each kind; the minimum is reported (use 3 or more with --mode cpu)")
    parser.add_argument("--preload", type=int, default=0, metavar="N",
                        help="send each operation's request N times before the measured ones and "
                             "count only those (a grown table and stream; see above)")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(args.binary + " is missing: swift build -c release --scratch-path .build-perf "
                 "--product localdynamo")
    os.makedirs(args.out_dir, exist_ok=True)

    files = []
    started = time.time()
    binary, shim = args.binary, None
    if args.mode == "callgrind":
        binary, shim = prepare_valgrind(args.binary, args.out_dir)

    def measure(op, count, storage):
        out_file = os.path.join(args.out_dir, (op or "setup-" + storage) + ".out")
        if args.mode == "callgrind":
            files.append(out_file)
        return min(run(binary, out_file, op, count, args.mode, shim, storage, args.preload)
                   for _ in range(args.reps))

    ops = args.ops.split(",")
    unknown = [op for op in ops if op not in OPERATIONS]
    if unknown:
        sys.exit("unknown operations: " + ", ".join(unknown))
    bases = {}
    if args.mode == "callgrind" and not args.preload:
        for storage in sorted({OPERATIONS[op][2] for op in ops}):
            bases[storage] = measure(None, 0, storage)
    results = {"setup-" + storage: base for storage, base in bases.items()}
    unit = "instructions" if args.mode == "callgrind" else "ns of CPU"
    for op in ops:
        _, default_count, storage = OPERATIONS[op]
        count = default_count * args.scale
        results[op] = round((measure(op, count, storage) - bases.get(storage, 0)) / count)
    if args.json:
        print(json.dumps(results))
    else:
        for storage, base in bases.items():
            print("setup run (%s): %d %s" % (storage, base, unit))
        for op in ops:
            print("%-10s %9d %s per request (%d requests)"
                  % (op, results[op], unit, OPERATIONS[op][1] * args.scale))
        print("(%.0f s)" % (time.time() - started))
    if not args.keep:
        for f in files:
            if os.path.exists(f):
                os.remove(f)


if __name__ == "__main__":
    main()
