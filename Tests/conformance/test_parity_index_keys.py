"""Index key size limits: an item whose value for a GSI or LSI key attribute is over the
partition (2,048 bytes) or sort (1,024 bytes) key limit is refused on write, with the
messages the service gives (captured 2015/2018 for the partition key, moto's 2021 capture for a
GSI sort key); an index build skips such items, as DynamoDB's backfill leaves index key
violations out of the index."""

from __future__ import annotations

import time

import pytest

from ddb_helpers import expect_error

RANGE_LIMIT = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"


def _index_key_limit(attribute: str, size: int, index: str) -> str:
    return (f"One or more parameter values were invalid: Size limit exceeded for Index Key {attribute} "
            f"Actual Size: {size} bytes Max Size: 2048 bytes IndexName: {index}")


@pytest.fixture(scope="module")
def indexed(module_tables):
    return module_tables.create(
        ("pk", "S"), ("sk", "S"),
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": t}
                              for n, t in (("pk", "S"), ("sk", "S"), ("gh", "S"), ("gs", "B"), ("ls", "S"))],
        GlobalSecondaryIndexes=[{"IndexName": "by-gh", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                 "KeySchema": [{"AttributeName": "gh", "KeyType": "HASH"},
                                               {"AttributeName": "gs", "KeyType": "RANGE"}]}],
        LocalSecondaryIndexes=[{"IndexName": "by-ls", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "ls", "KeyType": "RANGE"}]}],
    )


def test_limits_themselves_are_accepted(ddb, indexed):
    ddb.put_item(TableName=indexed, Item={"pk": {"S": "ok"}, "sk": {"S": "1"}, "gh": {"S": "é" * 1024},
                                          "gs": {"B": b"x" * 1024}, "ls": {"S": "y" * 1024}})


def test_a_gsi_partition_key_over_2048_bytes_is_refused(ddb, indexed):
    with expect_error("ValidationException", _index_key_limit("gh", 2050, "by-gh")):
        ddb.put_item(TableName=indexed, Item={"pk": {"S": "a"}, "sk": {"S": "1"}, "gh": {"S": "é" * 1025},
                                              "gs": {"B": b"s"}})
    # An item without every key attribute of an index is not in it (sparse): no limit applies.
    ddb.put_item(TableName=indexed, Item={"pk": {"S": "a"}, "sk": {"S": "2"}, "gh": {"S": "é" * 1025}})


@pytest.mark.parametrize("attribute, value", [("gs", {"B": b"x" * 1025}), ("ls", {"S": "y" * 1025})])
def test_an_index_sort_key_over_1024_bytes_is_refused(ddb, indexed, attribute, value):
    ddb.put_item(TableName=indexed, Item={"pk": {"S": "b"}, "sk": {"S": "2"}, "gh": {"S": "g"}})
    item = {"pk": {"S": "b"}, "sk": {"S": "1"}, "gh": {"S": "g"}, attribute: value}
    with expect_error("ValidationException", RANGE_LIMIT):
        ddb.put_item(TableName=indexed, Item=item)
    with expect_error("ValidationException", RANGE_LIMIT):
        ddb.update_item(TableName=indexed, Key={"pk": {"S": "b"}, "sk": {"S": "2"}},
                        UpdateExpression="SET #a = :v", ExpressionAttributeNames={"#a": attribute},
                        ExpressionAttributeValues={":v": value})
    assert attribute not in ddb.get_item(TableName=indexed, Key={"pk": {"S": "b"}, "sk": {"S": "2"}})["Item"]


def test_an_index_build_leaves_items_with_over_long_keys_out(ddb, make_table):
    table = make_table(("pk", "S"))
    ddb.put_item(TableName=table, Item={"pk": {"S": "short"}, "g": {"S": "g1"}})
    ddb.put_item(TableName=table, Item={"pk": {"S": "long"}, "g": {"S": "g" * 3000}})
    ddb.update_table(TableName=table, AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
                     GlobalSecondaryIndexUpdates=[{"Create": {
                         "IndexName": "by-g", "Projection": {"ProjectionType": "ALL"},
                         "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}}])
    deadline = time.monotonic() + 60
    while ddb.describe_table(TableName=table)["Table"]["GlobalSecondaryIndexes"][0]["IndexStatus"] != "ACTIVE":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    indexed = ddb.scan(TableName=table, IndexName="by-g")["Items"]
    assert [item["pk"]["S"] for item in indexed] == ["short"]
    assert ddb.get_item(TableName=table, Key={"pk": {"S": "long"}})["Item"]["g"]["S"] == "g" * 3000
