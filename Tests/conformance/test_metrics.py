"""`GET /metrics` on the real binary: Prometheus' text format, parsed with prometheus_client's
parser and checked line by line against the exposition grammar, with counts that follow what
boto3 did."""

from __future__ import annotations

import os
import re
import urllib.request

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError
from prometheus_client.parser import text_string_to_metric_families

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import admin_call

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs its own server (counters start at zero)"
)

# One sample line: name, optional labels, a number (exposition format 0.0.4).
SAMPLE = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? '
                    r'(-?[0-9.eE+-]+|\+Inf|-Inf|NaN)$')
COMMENT = re.compile(r"^# (HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*|TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge|histogram|summary|untyped))$")


@pytest.fixture
def server():
    process = ServerProcess(_resolve_binary(), ["--in-memory", "--ttl-interval", "0", "--clock-start", "1767225600"])
    url = process.start()
    yield url
    process.stop()


def scrape(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url + "/metrics", timeout=10) as response:
        return response.headers["Content-Type"], response.read().decode()


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(found, name: str, **labels) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def test_metrics_follow_requests_errors_tables_faults_and_ttl(server):
    client = boto3.client("dynamodb", endpoint_url=server, region_name="us-east-1", aws_access_key_id="k",
                          aws_secret_access_key="s", config=Config(retries={"total_max_attempts": 1}))
    client.create_table(TableName="Metered", BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    client.update_time_to_live(TableName="Metered", TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"})
    for index in range(7):
        client.put_item(TableName="Metered", Item={"id": {"S": f"k{index}"}, "ttl": {"N": "1767225500" if index < 2 else "9999999999"}})
    for _ in range(3):
        with pytest.raises(ClientError):
            client.get_item(TableName="Missing", Key={"id": {"S": "x"}})
    status, _ = admin_call(server, "POST", "/_localdynamo/faults", {"operation": "GetItem", "error": "InternalServerError", "count": 1})
    assert status == 200
    with pytest.raises(ClientError):
        client.get_item(TableName="Metered", Key={"id": {"S": "k1"}})
    status, swept = admin_call(server, "POST", "/_localdynamo/ttl/sweep")
    assert status == 200 and swept["deleted"] == 2

    content_type, text = scrape(server)
    assert content_type.startswith("text/plain; version=0.0.4")
    for line in text.splitlines():
        assert COMMENT.match(line) or SAMPLE.match(line), f"not exposition format: {line!r}"
    found = samples(text)

    assert value(found, "localdynamo_requests_total", operation="PutItem") == 7
    assert value(found, "localdynamo_requests_total", operation="GetItem") == 4
    assert value(found, "localdynamo_errors_total", operation="GetItem", type="ResourceNotFoundException") == 3
    assert value(found, "localdynamo_errors_total", operation="GetItem", type="InternalServerError") == 1
    assert value(found, "localdynamo_injected_faults_total") == 1
    assert value(found, "localdynamo_ttl_deleted_items_total") == 2
    assert value(found, "localdynamo_table_items", namespace="us-east-1", table="Metered") == 5
    assert value(found, "localdynamo_table_size_bytes", namespace="us-east-1", table="Metered") > 0
    # 7 puts and 2 TTL deletions, each a stream record.
    assert value(found, "localdynamo_stream_records_total", namespace="us-east-1", table="Metered") == 9
    assert value(found, "localdynamo_open_connections") >= 1
    # SQLite's page cache: the writes and reads above touched pages; the counters never go back.
    hits = value(found, "localdynamo_sqlite_page_cache_hits_total", namespace="us-east-1")
    misses = value(found, "localdynamo_sqlite_page_cache_misses_total", namespace="us-east-1")
    assert hits > 0 and misses >= 0
    for _ in range(5):
        client.get_item(TableName="Metered", Key={"id": {"S": "k3"}}, ConsistentRead=True)
    again = samples(scrape(server)[1])
    assert value(again, "localdynamo_sqlite_page_cache_hits_total", namespace="us-east-1") > hits
    assert value(again, "localdynamo_sqlite_page_cache_misses_total", namespace="us-east-1") >= misses

    # Memory: resident size, the allocator's account and SQLite's (Linux with glibc reports all).
    resident = value(found, "process_resident_memory_bytes")
    in_use, held = value(found, "localdynamo_malloc_in_use_bytes"), value(found, "localdynamo_malloc_held_bytes")
    sqlite_bytes = value(found, "localdynamo_sqlite_memory_bytes")
    assert 1 << 20 < resident < 1 << 32
    assert 0 < in_use <= held
    assert 0 < sqlite_bytes <= value(found, "localdynamo_sqlite_memory_high_water_bytes")

    # The histogram: cumulative buckets ending in +Inf == _count == requests, a positive _sum.
    buckets = sorted(((float(dict(labels)["le"]), count) for (name, labels), count in found.items()
                      if name == "localdynamo_request_duration_seconds_bucket" and dict(labels)["operation"] == "PutItem"))
    counts = [count for _, count in buckets]
    assert counts == sorted(counts) and buckets[-1][0] == float("inf") and counts[-1] == 7
    assert value(found, "localdynamo_request_duration_seconds_count", operation="PutItem") == 7
    assert value(found, "localdynamo_request_duration_seconds_sum", operation="PutItem") > 0


def test_scrapes_count_as_other_requests(server):
    scrape(server)
    _, text = scrape(server)
    assert value(samples(text), "localdynamo_requests_total", operation="other") >= 1
