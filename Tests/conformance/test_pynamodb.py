"""PynamoDB, a popular object mapper we did not write, against LocalDynamo.

PynamoDB builds its own requests (its own serialization, condition and update builders,
optimistic locking with a version attribute, index queries, batch and transaction helpers), so
these tests catch anything it relies on that a boto3 test would not exercise the same way.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest

from pynamodb.attributes import (
    BooleanAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    NumberSetAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    UTCDateTimeAttribute,
    VersionAttribute,
)
from pynamodb.connection import Connection
from pynamodb.exceptions import (
    DoesNotExist,
    PutError,
    TransactWriteError,
    UpdateError,
)
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex, KeysOnlyProjection, LocalSecondaryIndex
from pynamodb.models import Model
from pynamodb.transactions import TransactGet, TransactWrite

from conftest import ACCESS_KEY, SECRET_KEY
from ddb_helpers import REGION


@pytest.fixture(scope="module")
def models(endpoint_url):
    """A fresh pair of models (their own table names) bound to the server under test."""
    suffix = uuid.uuid4().hex[:8]
    connection = dict(host=endpoint_url, region=REGION, aws_access_key_id=ACCESS_KEY,
                      aws_secret_access_key=SECRET_KEY)

    class ByEmail(GlobalSecondaryIndex):
        class Meta:
            index_name = "by-email"
            projection = KeysOnlyProjection()
            read_capacity_units = 5
            write_capacity_units = 5

        email = UnicodeAttribute(hash_key=True)

    class ByScore(LocalSecondaryIndex):
        class Meta:
            index_name = "by-score"
            projection = AllProjection()

        team = UnicodeAttribute(hash_key=True)
        score = NumberAttribute(range_key=True)

    class Address(MapAttribute):
        city = UnicodeAttribute()
        zip = UnicodeAttribute(null=True)

    class Player(Model):
        Meta = type("Meta", (), dict(connection, table_name=f"pyn-players-{suffix}"))

        team = UnicodeAttribute(hash_key=True)
        name = UnicodeAttribute(range_key=True)
        email = UnicodeAttribute(null=True)
        score = NumberAttribute(default=0)
        active = BooleanAttribute(default=True)
        tags = UnicodeSetAttribute(null=True)
        lucky = NumberSetAttribute(null=True)
        history = ListAttribute(null=True)
        address = Address(null=True)
        joined = UTCDateTimeAttribute(null=True)
        version = VersionAttribute()
        by_email = ByEmail()
        by_score = ByScore()

    class Counter(Model):
        Meta = type("Meta", (), dict(connection, table_name=f"pyn-counters-{suffix}"))

        name = UnicodeAttribute(hash_key=True)
        value = NumberAttribute(default=0)

    Player.create_table(read_capacity_units=5, write_capacity_units=5, wait=True)
    Counter.create_table(billing_mode="PAY_PER_REQUEST", wait=True)
    yield Player, Counter
    Player.delete_table()
    Counter.delete_table()


def test_create_table_describes_indexes(models):
    player, _ = models
    description = player.describe_table()
    assert description["TableStatus"] == "ACTIVE"
    assert [i["IndexName"] for i in description["GlobalSecondaryIndexes"]] == ["by-email"]
    assert [i["IndexName"] for i in description["LocalSecondaryIndexes"]] == ["by-score"]
    assert player.exists()


def test_save_get_roundtrip_with_every_attribute_kind(models):
    player, _ = models
    joined = datetime(2024, 5, 17, 9, 30, 12, 345000, tzinfo=timezone.utc)
    original = player("red", "ada", email="ada@example.com", score=17, tags={"x", "y"}, lucky={3, 7},
                      history=["a", 1, True], address={"city": "London"}, joined=joined)
    original.save()
    assert original.version == 1
    loaded = player.get("red", "ada", consistent_read=True)
    assert loaded.email == "ada@example.com"
    assert loaded.score == 17
    assert loaded.active is True
    assert loaded.tags == {"x", "y"}
    assert loaded.lucky == {3, 7}
    assert loaded.history == ["a", 1, True]
    assert loaded.address.city == "London" and loaded.address.zip is None
    assert loaded.joined == joined
    assert loaded.version == 1
    with pytest.raises(DoesNotExist):
        player.get("red", "nobody")


def test_version_attribute_detects_a_stale_save(models):
    player, _ = models
    player("blue", "grace", score=1).save()
    first = player.get("blue", "grace")
    second = player.get("blue", "grace")
    first.score = 2
    first.save()
    assert first.version == 2
    second.score = 3
    with pytest.raises(PutError) as raised:
        second.save()
    assert raised.value.cause_response_code == "ConditionalCheckFailedException"
    assert player.get("blue", "grace").score == 2


def test_update_actions_and_conditions(models):
    player, _ = models
    item = player("green", "linus", score=10, tags={"a"})
    item.save()
    item.update(actions=[
        player.score.add(5),
        player.tags.add({"b"}),
        player.email.set("linus@example.com"),
        player.history.set(["x"]),
    ])
    assert item.score == 15 and item.tags == {"a", "b"} and item.history == ["x"] and item.version == 2
    with pytest.raises(UpdateError) as raised:
        item.update(actions=[player.score.set(0)], condition=player.score < 5)
    assert raised.value.cause_response_code == "ConditionalCheckFailedException"
    item.update(actions=[player.email.remove(), player.tags.delete({"a"})])
    reloaded = player.get("green", "linus", consistent_read=True)
    assert reloaded.email is None and reloaded.tags == {"b"} and reloaded.score == 15


def test_query_by_range_condition_filter_and_reverse(models):
    player, _ = models
    for n in range(12):
        player("query-team", f"p{n:02d}", score=n, active=n % 2 == 0).save()
    names = [p.name for p in player.query("query-team", player.name.startswith("p0"))]
    assert names == [f"p0{n}" for n in range(10)]
    reverse = [p.name for p in player.query("query-team", scan_index_forward=False, limit=3)]
    assert reverse == ["p11", "p10", "p09"]
    filtered = [p.score for p in player.query("query-team", filter_condition=player.active == True)]  # noqa: E712
    assert filtered == [0, 2, 4, 6, 8, 10]
    assert player.count("query-team", player.name.between("p03", "p05")) == 3


def test_paging_with_page_size_returns_everything_once(models):
    player, _ = models
    for n in range(25):
        player("paging", f"n{n:02d}", score=n).save()
    result = player.query("paging", page_size=4)
    names = [p.name for p in result]
    assert names == [f"n{n:02d}" for n in range(25)]
    # PynamoDB follows LastEvaluatedKey: 25 items in pages of 4 is 7 pages.
    assert result.total_count == 25


def test_local_index_query_sorted_by_score(models):
    player, _ = models
    for name, score in [("c", 30), ("a", 10), ("b", 20)]:
        player("lsi-team", name, score=score).save()
    ordered = [p.name for p in player.by_score.query("lsi-team", player.score > 5)]
    assert ordered == ["a", "b", "c"]


def test_global_index_query_keys_only(models):
    player, _ = models
    player("gsi-1", "x", email="shared@example.com").save()
    player("gsi-2", "y", email="shared@example.com").save()
    found = sorted((p.team, p.name) for p in player.by_email.query("shared@example.com"))
    assert found == [("gsi-1", "x"), ("gsi-2", "y")]


def test_scan_with_filter_and_parallel_segments(models):
    _, counter = models
    with counter.batch_write() as batch:
        for n in range(60):
            batch.save(counter(f"scan-{n}", value=n))
    big = {c.name for c in counter.scan(counter.value >= 50)}
    assert big == {f"scan-{n}" for n in range(50, 60)}
    segments = [set(c.name for c in counter.scan(segment=s, total_segments=3)) for s in range(3)]
    assert set().union(*segments) >= {f"scan-{n}" for n in range(60)}
    assert sum(len(s) for s in segments) == len(set().union(*segments))


def test_batch_get_and_delete(models):
    _, counter = models
    with counter.batch_write() as batch:
        for n in range(30):
            batch.save(counter(f"batch-{n}", value=n))
    keys = [f"batch-{n}" for n in range(30)]
    found = {c.name: c.value for c in counter.batch_get(keys)}
    assert found == {f"batch-{n}": n for n in range(30)}
    with counter.batch_write() as batch:
        for n in range(0, 30, 2):
            batch.delete(counter(f"batch-{n}"))
    remaining = {c.name for c in counter.batch_get(keys)}
    assert remaining == {f"batch-{n}" for n in range(1, 30, 2)}


def test_transactions_commit_and_cancel_with_reasons(models):
    player, counter = models
    connection = Connection(host=player.Meta.host, region=REGION, aws_access_key_id=ACCESS_KEY,
                            aws_secret_access_key=SECRET_KEY)
    counter("tx-a", value=1).save()
    with TransactWrite(connection=connection) as transaction:
        transaction.update(counter("tx-a"), actions=[counter.value.add(1)])
        transaction.save(counter("tx-b", value=5))
    with TransactGet(connection=connection) as get:
        a = get.get(counter, "tx-a")
        b = get.get(counter, "tx-b")
    assert a.get().value == 2 and b.get().value == 5

    with pytest.raises(TransactWriteError) as raised:
        with TransactWrite(connection=connection) as transaction:
            transaction.update(counter("tx-a"), actions=[counter.value.add(1)])
            transaction.condition_check(counter, "tx-b", condition=counter.value > 100)
    assert raised.value.cause_response_code == "TransactionCanceledException"
    # PynamoDB sends condition checks first, then updates: the reasons follow that order.
    reasons = [r.code if r else None for r in raised.value.cancellation_reasons]
    assert reasons == ["ConditionalCheckFailed", None]
    assert counter.get("tx-a").value == 2


def test_delete_with_condition(models):
    _, counter = models
    item = counter("delete-me", value=3)
    item.save()
    with pytest.raises(Exception) as raised:
        item.delete(condition=counter.value == 4)
    assert getattr(raised.value, "cause_response_code", None) == "ConditionalCheckFailedException"
    item.delete(condition=counter.value == 3)
    with pytest.raises(DoesNotExist):
        counter.get("delete-me")
