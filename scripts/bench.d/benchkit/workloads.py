"""The workloads: their names, the tables and data every server gets, and the probe that checks
a workload's requests do what they should before wrk sends them (wrk only counts statuses)."""

from __future__ import annotations

import http.client
import json
import threading
import time

from .common import HOST, dynamo_request

TABLE = "bench"
GSI_TABLE = "bench_gsi"  # the same key schema, plus two global secondary indexes
STREAM_TABLE = "bench_stream"  # the same key schema, with a NEW_AND_OLD_IMAGES stream
PER_PARTITION = 10
PAYLOAD = "abcdefghij" * 12  # 120 bytes; an item is ~200 bytes of DynamoDB JSON

# Every workload is one wrk run of scripts/bench.d/dynamo.lua's BENCH_OP of the same name: adding
# one is a line here, a probe below and a request builder there.
WORKLOADS = {
    "get": "GetItem (random existing key)",
    "query": "Query (10 items, KeyConditions)",
    "ql-get": "PartiQL SELECT by full key (ExecuteStatement)",
    "ql-query": "PartiQL SELECT of a partition (10 items, ExecuteStatement)",
    "mix": "80% GetItem / 20% PutItem",
    "update": "UpdateItem (SET + ADD, ConditionExpression, existing key)",
    "put": "PutItem (new key)",
    "put-gsi2": "PutItem on a table with two GSIs (new key)",
    "put-stream": "PutItem on a table with a stream (new key)",
    "transact": "TransactWriteItems (10 new items)",
    "batch": "BatchWriteItem (25 new items)",
}
# Reads first, so they see the preloaded table before the writes grow it.
WORKLOAD_ORDER = ["get", "query", "ql-get", "ql-query", "mix", "update", "put", "put-gsi2", "put-stream",
                  "transact", "batch"]


def item_json(index: int) -> str:
    return ('{"pk":{"S":"p%08d"},"sk":{"N":"%d"},"data":{"S":"%s"},"n":{"N":"%d"}}'
            % (index // PER_PARTITION, index % PER_PARTITION, PAYLOAD, index))


def table_definitions() -> list[dict]:
    """The CreateTable requests every server gets: `bench` (the preloaded table), `bench_gsi` and
    `bench_stream` (written by the put-gsi2 and put-stream workloads)."""
    key = dict(KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
               AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"}],
               BillingMode="PAY_PER_REQUEST")
    gsi = dict(key, TableName=GSI_TABLE,
               AttributeDefinitions=key["AttributeDefinitions"] + [{"AttributeName": "n", "AttributeType": "N"}],
               GlobalSecondaryIndexes=[
                   {"IndexName": "by_n", "KeySchema": [{"AttributeName": "n", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "ALL"}},
                   {"IndexName": "by_sk_n", "KeySchema": [{"AttributeName": "sk", "KeyType": "HASH"},
                                                          {"AttributeName": "n", "KeyType": "RANGE"}],
                    "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    stream = dict(key, TableName=STREAM_TABLE,
                  StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    return [dict(key, TableName=TABLE), gsi, stream]


def create_table(port: int) -> None:
    """Creates every table of ``table_definitions`` and waits until each is ACTIVE."""
    for definition in table_definitions():
        status, body = dynamo_request(port, "CreateTable", definition)
        if status != 200:
            raise RuntimeError(f"CreateTable {definition['TableName']} answered {status}: {body}")
    for definition in table_definitions():
        for _ in range(300):
            status, body = dynamo_request(port, "DescribeTable", {"TableName": definition["TableName"]})
            if status == 200 and body.get("Table", {}).get("TableStatus") == "ACTIVE":
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"table {definition['TableName']} not ACTIVE after 30 s: {status} {body}")


def preload(port: int, start: int, stop: int, connections: int = 2, table: str = TABLE, make_item=item_json) -> float:
    """Writes items [start, stop) (`make_item(index)`'s JSON, into `table`) with BatchWriteItem of 25
    over `connections` keep-alive connections; returns the seconds it took. Unprocessed items are
    resent (bounded)."""
    batches = [(i, min(i + 25, stop)) for i in range(start, stop, 25)]
    errors: list[str] = []

    def worker(mine: list[tuple[int, int]]) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        try:
            for lo, hi in mine:
                requests = ",".join('{"PutRequest":{"Item":%s}}' % make_item(i) for i in range(lo, hi))
                body = '{"RequestItems":{"%s":[%s]}}' % (table, requests)
                for _attempt in range(20):
                    status, answer = dynamo_request(port, "BatchWriteItem", body, conn=conn)
                    if status != 200:
                        errors.append(f"BatchWriteItem answered {status}: {str(answer)[:300]}")
                        return
                    unprocessed = answer.get("UnprocessedItems") or {}
                    if not unprocessed:
                        break
                    body = json.dumps({"RequestItems": unprocessed}, separators=(",", ":"))
                    time.sleep(0.05)
                else:
                    errors.append("items still unprocessed after 20 attempts")
                    return
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(f"{type(error).__name__}: {error}")
        finally:
            conn.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(batches[n::connections],)) for n in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError(f"preload failed: {errors[0]}")
    return time.perf_counter() - started


def update_request(pk: str, sk: int, return_values: str = "UPDATED_NEW") -> dict:
    """The update workload's request (dynamo.lua builds the same, with `ReturnValues` NONE): SET of
    the payload and ADD to a counter on an existing item, if it exists and its `n` is not negative."""
    return {
        "TableName": TABLE,
        "Key": {"pk": {"S": pk}, "sk": {"N": str(sk)}},
        "UpdateExpression": "SET #d = :d ADD #c :one",
        "ConditionExpression": "attribute_exists(pk) AND #n >= :zero",
        "ExpressionAttributeNames": {"#d": "data", "#c": "count", "#n": "n"},
        "ExpressionAttributeValues": {":d": {"S": PAYLOAD}, ":one": {"N": "1"}, ":zero": {"N": "0"}},
        "ReturnValues": return_values,
    }


def probe(port: int, workload: str, items: int, ceiling: bool) -> str | None:
    """Checks that the workload's requests do what they should on this server (wrk only counts
    statuses). Returns a problem, or None."""
    partitions = items // PER_PARTITION
    get_body = {"TableName": TABLE, "Key": {"pk": {"S": "p%08d" % (partitions - 1)}, "sk": {"N": "3"}}}
    if ceiling:
        status, _ = dynamo_request(port, "GetItem", get_body)
        return None if status == 200 else f"status {status}"
    if workload in ("get", "mix"):
        status, body = dynamo_request(port, "GetItem", get_body)
        item = body.get("Item", {})
        if status != 200 or item.get("sk", {}).get("N") != "3":
            return f"GetItem: {status} {str(body)[:200]}"
    if workload in ("put", "mix"):
        key = {"pk": {"S": "probe-put"}, "sk": {"N": "1"}}
        status, body = dynamo_request(port, "PutItem", {"TableName": TABLE, "Item": {**key, "data": {"S": PAYLOAD}}})
        if status != 200:
            return f"PutItem: {status} {str(body)[:200]}"
        status, body = dynamo_request(port, "GetItem", {"TableName": TABLE, "Key": key})
        if status != 200 or "Item" not in body:
            return f"GetItem after PutItem: {status} {str(body)[:200]}"
    if workload == "query":
        status, body = dynamo_request(port, "Query", {
            "TableName": TABLE,
            "KeyConditions": {"pk": {"AttributeValueList": [{"S": "p%08d" % (partitions // 2)}],
                                     "ComparisonOperator": "EQ"}}})
        if status != 200 or len(body.get("Items", [])) != PER_PARTITION:
            return f"Query: {status}, {len(body.get('Items', []))} items: {str(body)[:200]}"
    if workload in ("ql-get", "ql-query"):
        where, parameters, expected = ("pk = ? AND sk = ?", [{"S": "p%08d" % (partitions - 1)}, {"N": "3"}], 1) \
            if workload == "ql-get" else ("pk = ?", [{"S": "p%08d" % (partitions // 2)}], PER_PARTITION)
        status, body = dynamo_request(port, "ExecuteStatement", {
            "Statement": f'SELECT * FROM "{TABLE}" WHERE {where}', "Parameters": parameters})
        if status != 200 or len(body.get("Items", [])) != expected:
            return f"ExecuteStatement: {status}, {len(body.get('Items', []))} items: {str(body)[:200]}"
    if workload == "update":
        status, body = dynamo_request(port, "UpdateItem", update_request("p%08d" % (partitions - 1), 3))
        if status != 200 or body.get("Attributes", {}).get("count", {}).get("N") is None:
            return f"UpdateItem: {status} {str(body)[:200]}"
    if workload in ("put-gsi2", "put-stream"):
        table = GSI_TABLE if workload == "put-gsi2" else STREAM_TABLE
        item = {"pk": {"S": "probe-put"}, "sk": {"N": "1"}, "data": {"S": PAYLOAD}, "n": {"N": "7"}}
        status, body = dynamo_request(port, "PutItem", {"TableName": table, "Item": item})
        if status != 200:
            return f"PutItem into {table}: {status} {str(body)[:200]}"
    if workload == "transact":
        actions = [{"Put": {"TableName": TABLE, "Item": {"pk": {"S": "probe-transact"}, "sk": {"N": str(i)},
                                                         "data": {"S": PAYLOAD}}}} for i in range(10)]
        status, body = dynamo_request(port, "TransactWriteItems", {"TransactItems": actions})
        if status != 200:
            return f"TransactWriteItems: {status} {str(body)[:200]}"
    if workload == "batch":
        requests = [{"PutRequest": {"Item": {"pk": {"S": "probe-batch"}, "sk": {"N": str(i)}, "data": {"S": PAYLOAD}}}}
                    for i in range(25)]
        status, body = dynamo_request(port, "BatchWriteItem", {"RequestItems": {TABLE: requests}})
        if status != 200 or body.get("UnprocessedItems"):
            return f"BatchWriteItem: {status} {str(body)[:200]}"
    return None
