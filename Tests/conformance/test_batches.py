"""BatchWriteItem and BatchGetItem: limits, validation, unprocessed parts, capacity."""

from __future__ import annotations

import pytest

from ddb_helpers import expect_error


def put(pk: str, **attributes) -> dict:
    item = {"pk": {"S": pk}}
    item.update(attributes)
    return {"PutRequest": {"Item": item}}


def test_batch_write_then_batch_get(ddb, make_table):
    table = make_table(("pk", "S"))
    result = ddb.batch_write_item(
        RequestItems={table: [put(f"k{i}", v={"N": str(i)}) for i in range(25)]},
        ReturnConsumedCapacity="TOTAL",
    )
    assert result["UnprocessedItems"] == {}
    assert result["ConsumedCapacity"] == [{"TableName": table, "CapacityUnits": 25.0}]

    keys = [{"pk": {"S": f"k{i}"}} for i in range(0, 25, 5)] + [{"pk": {"S": "missing"}}]
    got = ddb.batch_get_item(RequestItems={table: {"Keys": keys, "ConsistentRead": True}},
                             ReturnConsumedCapacity="TOTAL")
    values = sorted(int(item["v"]["N"]) for item in got["Responses"][table])
    assert values == [0, 5, 10, 15, 20]
    assert got["UnprocessedKeys"] == {}
    assert got["ConsumedCapacity"] == [{"TableName": table, "CapacityUnits": 6.0}]


def test_batch_write_deletes(ddb, make_table):
    table = make_table(("pk", "S"))
    ddb.batch_write_item(RequestItems={table: [put("a"), put("b")]})
    ddb.batch_write_item(RequestItems={table: [{"DeleteRequest": {"Key": {"pk": {"S": "a"}}}},
                                               {"DeleteRequest": {"Key": {"pk": {"S": "never"}}}}]})
    assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "a"}})
    assert "Item" in ddb.get_item(TableName=table, Key={"pk": {"S": "b"}})


def test_batch_get_projection_with_attributes_to_get(ddb, make_table):
    table = make_table(("pk", "S"))
    ddb.put_item(TableName=table, Item={"pk": {"S": "a"}, "x": {"S": "1"}, "y": {"S": "2"}})
    got = ddb.batch_get_item(RequestItems={table: {"Keys": [{"pk": {"S": "a"}}], "AttributesToGet": ["y"]}})
    assert got["Responses"][table] == [{"y": {"S": "2"}}]


def test_batch_write_more_than_25_is_rejected(ddb, make_table):
    first, second = make_table(("pk", "S")), make_table(("pk", "S"))
    with expect_error("ValidationException", "Too many items requested for the BatchWriteItem call"):
        ddb.batch_write_item(RequestItems={first: [put(f"a{i}") for i in range(13)],
                                           second: [put(f"b{i}") for i in range(13)]})


def test_batch_write_duplicate_keys_are_rejected(ddb, make_table):
    table = make_table(("pk", "S"))
    with expect_error("ValidationException", "Provided list of item keys contains duplicates"):
        ddb.batch_write_item(RequestItems={table: [put("a"), {"DeleteRequest": {"Key": {"pk": {"S": "a"}}}}]})
    assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "a"}})


def test_batch_write_validates_everything_before_writing(ddb, make_table):
    table = make_table(("pk", "S"))
    # Not PutItem's "Missing the key pk in the item": paritysuite's batchWriteItem test, captured in
    # us-east-1 and eu-west-2 on 2026-10-09.
    with expect_error("ValidationException", "The provided key element does not match the schema"):
        ddb.batch_write_item(RequestItems={table: [put("ok"), {"PutRequest": {"Item": {"other": {"S": "x"}}}}]})
    assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "ok"}})


def test_batch_on_missing_table(ddb):
    with expect_error("ResourceNotFoundException", "Requested resource not found"):
        ddb.batch_write_item(RequestItems={"no-such-table": [put("a")]})
    with expect_error("ResourceNotFoundException", "Requested resource not found"):
        ddb.batch_get_item(RequestItems={"no-such-table": {"Keys": [{"pk": {"S": "a"}}]}})


def test_batch_get_more_than_100_keys_is_rejected(ddb, make_table):
    table = make_table(("pk", "S"))
    other = make_table(("pk", "S"))
    with expect_error("ValidationException", "Too many items requested for the BatchGetItem call"):
        ddb.batch_get_item(RequestItems={
            table: {"Keys": [{"pk": {"S": f"a{i}"}} for i in range(60)]},
            other: {"Keys": [{"pk": {"S": f"b{i}"}} for i in range(60)]},
        })


def test_batch_get_duplicate_keys_are_rejected(ddb, make_table):
    table = make_table(("pk", "S"))
    with expect_error("ValidationException", "Provided list of item keys contains duplicates"):
        ddb.batch_get_item(RequestItems={table: {"Keys": [{"pk": {"S": "a"}}, {"pk": {"S": "a"}}]}})


def test_batch_get_wrong_key_is_rejected(ddb, make_table):
    table = make_table(("pk", "S"))
    with expect_error("ValidationException", "The provided key element does not match the schema"):
        ddb.batch_get_item(RequestItems={table: {"Keys": [{"pk": {"N": "1"}}]}})


def test_batch_write_request_over_16mb_is_refused(ddb, make_table, raw):
    """Seven items whose control characters JSON-escape to 6 bytes each: 16.8 MB on the wire,
    though each item is under 400 KB. The request never reaches the engine; nothing is written."""
    table = make_table(("pk", "S"))
    requests = [{"PutRequest": {"Item": {"pk": {"S": f"k{i}"}, "v": {"S": "\x01" * 400_000}}}} for i in range(7)]
    response = raw.call("BatchWriteItem", {"RequestItems": {table: requests}})
    assert response.status == 413
    assert ddb.scan(TableName=table, Select="COUNT")["Count"] == 0
