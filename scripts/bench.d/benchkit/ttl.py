"""The TTL sweep measurement (issue 14): how fast `POST /_localdynamo/ttl/sweep` deletes expired
items, on a table of which half the items have expired once the server's clock is moved; and how
long a pass takes when nothing is due (it reads the expiry index, not the table).

Not a wrk workload: one sweep is one admin request doing a lot of work. Run on LocalDynamo only
(the peers have no movable clock or sweep endpoint), with the background sweeper off
(`--ttl-interval 0`) so only the measured request deletes.
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import time

from .common import HOST, dynamo_request, log
from .servers import ServerSpec, start
from .workloads import item_json, preload, table_definitions

TTL_TABLE = "bench_ttl"
LIFETIME = 600  # seconds until the expiring half expires; the clock is then moved past it
FAR = 10 * 365 * 24 * 3600  # the other half's expiry: never due in the run


def admin(port: int, path: str, body: dict | None = None) -> tuple[float, dict]:
    """(seconds, answer) of an admin request (POST with `body`, else GET)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=600)
    try:
        started = time.perf_counter()
        conn.request("POST" if body is not None else "GET", path,
                     body=json.dumps(body).encode() if body is not None else None,
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        seconds = time.perf_counter() - started
        if response.status != 200:
            raise RuntimeError(f"{path} answered {response.status}: {data[:300]!r}")
        return seconds, json.loads(data)
    finally:
        conn.close()


def ttl_item(now: int):
    """`item_json` with an `expires` attribute: even items expire LIFETIME after `now`, odd ones never in the run."""
    def make(index: int) -> str:
        expires = now + (LIFETIME if index % 2 == 0 else FAR)
        return item_json(index)[:-1] + ',"expires":{"N":"%d"}}' % expires
    return make


def sweep_rates(port: int, items: int, reps: int) -> dict:
    """The best of `reps` sweeps, each of a fresh table of `items` items of which half expire."""
    rates, idle_ms = [], []
    plain = table_definitions()[0]  # `bench`'s key schema
    for rep in range(reps):
        table = f"{TTL_TABLE}_{rep}"
        status, body = dynamo_request(port, "CreateTable", dict(plain, TableName=table))
        if status != 200:
            raise RuntimeError(f"CreateTable {table}: {status} {body}")
        status, body = dynamo_request(port, "UpdateTimeToLive", {
            "TableName": table, "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "expires"}})
        if status != 200:
            raise RuntimeError(f"UpdateTimeToLive: {status} {body}")
        now = int(admin(port, "/_localdynamo/clock")[1]["epochSeconds"])
        preload(port, 0, items, table=table, make_item=ttl_item(now))
        admin(port, "/_localdynamo/clock", {"advanceSeconds": LIFETIME + 1})
        seconds, answer = admin(port, "/_localdynamo/ttl/sweep", {})
        if answer.get("deleted") != items // 2 + items % 2:
            raise RuntimeError(f"sweep deleted {answer.get('deleted')}, expected {items // 2 + items % 2}")
        rates.append(answer["deleted"] / seconds)
        seconds, answer = admin(port, "/_localdynamo/ttl/sweep", {})
        if answer.get("deleted") != 0:
            raise RuntimeError(f"a second sweep deleted {answer.get('deleted')}")
        idle_ms.append(seconds * 1000)
        status, body = dynamo_request(port, "DescribeTable", {"TableName": table})
        if status != 200 or body["Table"]["ItemCount"] != items // 2:
            raise RuntimeError(f"{table} holds {body.get('Table', {}).get('ItemCount')} items, expected {items // 2}")
    return dict(items=items, expired=items // 2 + items % 2, deleted_per_s=max(rates), idle_pass_ms=min(idle_ms))


def ttl_benchmark(spec: ServerSpec, items: int, reps: int, logs) -> dict:
    """Starts a fresh server with the background sweeper off and measures ``sweep_rates``."""
    quiet = dataclasses.replace(spec, command=lambda port, d: spec.command(port, d) + ["--ttl-interval", "0"])
    server = start(quiet, logs)
    try:
        result = sweep_rates(server.port, items, reps)
        log(f"{spec.label} TTL sweep: {result['deleted_per_s']:,.0f} expired items/s of {items:,}; "
            f"a pass with nothing due {result['idle_pass_ms']:.1f} ms")
        return result
    finally:
        server.stop()
