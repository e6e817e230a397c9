"""ReturnConsumedCapacity: exact units for items of known size, on tables and their indexes.

Sizes follow DynamoDB's rules: an attribute costs the UTF-8 length of its name plus that of its
string value. Reads cost 4 KB units (half when eventually consistent), writes 1 KB units, per
item for item operations and once on the summed size for Query and Scan; index writes cost
units on the index, computed on the projected entry; transactions cost twice.
"""

from __future__ import annotations

import pytest

PAYLOAD = 3000


def item(sk: str, fill: str = "x", **extra) -> dict:
    """pk=a (3 bytes with its name), sk (2 + len), payload (7 + 3,000), extra string attributes."""
    result = {"pk": {"S": "a"}, "sk": {"S": sk}, "payload": {"S": fill * PAYLOAD}}
    result.update({name: {"S": value} for name, value in extra.items()})
    return result


@pytest.fixture
def table(make_table):
    """pk/sk strings; LSI by-l (pk, l) projecting ALL; GSI by-g (g) KEYS_ONLY."""
    return make_table(
        ("pk", "S"), ("sk", "S"),
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "l", "g")],
        LocalSecondaryIndexes=[{"IndexName": "by-l", "Projection": {"ProjectionType": "ALL"},
                                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "l", "KeyType": "RANGE"}]}],
        GlobalSecondaryIndexes=[{"IndexName": "by-g", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}])


def consumed(response: dict) -> dict:
    return response["ConsumedCapacity"]


def test_write_units_on_table_and_indexes(ddb, table):
    # 3 + 3 + 3,007 = 3,013 bytes, no index key: 3 units on the table only.
    plain = ddb.put_item(TableName=table, Item=item("1"), ReturnConsumedCapacity="INDEXES")
    assert consumed(plain) == {"TableName": table, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 3.0}}
    assert consumed(ddb.put_item(TableName=table, Item=item("1"), ReturnConsumedCapacity="TOTAL")) == {
        "TableName": table, "CapacityUnits": 3.0}
    assert "ConsumedCapacity" not in ddb.put_item(TableName=table, Item=item("1"), ReturnConsumedCapacity="NONE")

    # 3,017 bytes with g and l: table 3; GSI entry pk+sk+g = 8 bytes, 1 unit; LSI entry (ALL) 3 units.
    indexed = ddb.put_item(TableName=table, Item=item("2", g="k", l="m"), ReturnConsumedCapacity="INDEXES")
    assert consumed(indexed) == {
        "TableName": table, "CapacityUnits": 7.0, "Table": {"CapacityUnits": 3.0},
        "LocalSecondaryIndexes": {"by-l": {"CapacityUnits": 3.0}},
        "GlobalSecondaryIndexes": {"by-g": {"CapacityUnits": 1.0}}}

    # Moving the item to another GSI key costs a delete and a put there (2); the LSI entry changes (3).
    moved = ddb.update_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"S": "2"}},
                            UpdateExpression="SET g = :g", ExpressionAttributeValues={":g": {"S": "z"}},
                            ReturnConsumedCapacity="INDEXES")
    assert consumed(moved) == {
        "TableName": table, "CapacityUnits": 8.0, "Table": {"CapacityUnits": 3.0},
        "LocalSecondaryIndexes": {"by-l": {"CapacityUnits": 3.0}},
        "GlobalSecondaryIndexes": {"by-g": {"CapacityUnits": 2.0}}}

    # Changing an attribute the GSI does not project leaves it untouched.
    unprojected = ddb.update_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"S": "2"}},
                                  UpdateExpression="SET payload = :p",
                                  ExpressionAttributeValues={":p": {"S": "y" * PAYLOAD}},
                                  ReturnConsumedCapacity="INDEXES")
    assert consumed(unprojected) == {
        "TableName": table, "CapacityUnits": 6.0, "Table": {"CapacityUnits": 3.0},
        "LocalSecondaryIndexes": {"by-l": {"CapacityUnits": 3.0}}}

    deleted = ddb.delete_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"S": "2"}},
                              ReturnConsumedCapacity="INDEXES")
    assert consumed(deleted) == {
        "TableName": table, "CapacityUnits": 7.0, "Table": {"CapacityUnits": 3.0},
        "LocalSecondaryIndexes": {"by-l": {"CapacityUnits": 3.0}},
        "GlobalSecondaryIndexes": {"by-g": {"CapacityUnits": 1.0}}}
    # Deleting an item that is not there still costs one unit.
    assert consumed(ddb.delete_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"S": "2"}},
                                    ReturnConsumedCapacity="TOTAL"))["CapacityUnits"] == 1.0


def test_read_units(ddb, table):
    ddb.put_item(TableName=table, Item=item("1"))                   # 3,013 bytes
    ddb.put_item(TableName=table, Item=item("2", g="k", l="m"))     # 3,017 bytes
    key = {"pk": {"S": "a"}, "sk": {"S": "1"}}
    assert consumed(ddb.get_item(TableName=table, Key=key, ConsistentRead=True,
                                 ReturnConsumedCapacity="TOTAL"))["CapacityUnits"] == 1.0
    assert consumed(ddb.get_item(TableName=table, Key=key, ReturnConsumedCapacity="TOTAL"))["CapacityUnits"] == 0.5
    # A missing item costs as much as an empty one.
    assert consumed(ddb.get_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"S": "9"}},
                                 ReturnConsumedCapacity="TOTAL"))["CapacityUnits"] == 0.5

    # Query rounds once on the summed size: 6,030 bytes is 2 units, 1 when eventually consistent.
    query = dict(TableName=table, KeyConditionExpression="pk = :a", ExpressionAttributeValues={":a": {"S": "a"}})
    assert consumed(ddb.query(**query, ConsistentRead=True, ReturnConsumedCapacity="TOTAL"))["CapacityUnits"] == 2.0
    assert consumed(ddb.query(**query, ReturnConsumedCapacity="INDEXES")) == {
        "TableName": table, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}
    assert consumed(ddb.scan(TableName=table, ReturnConsumedCapacity="TOTAL"))["CapacityUnits"] == 1.0

    # A read of a KEYS_ONLY index costs the (8-byte) entries it read, on the index.
    by_g = ddb.query(TableName=table, IndexName="by-g", KeyConditionExpression="g = :k",
                     ExpressionAttributeValues={":k": {"S": "k"}}, ReturnConsumedCapacity="INDEXES")
    assert consumed(by_g) == {"TableName": table, "CapacityUnits": 0.5, "Table": {"CapacityUnits": 0.0},
                              "GlobalSecondaryIndexes": {"by-g": {"CapacityUnits": 0.5}}}
    by_l = ddb.query(TableName=table, IndexName="by-l", KeyConditionExpression="pk = :a",
                     ExpressionAttributeValues={":a": {"S": "a"}}, ConsistentRead=True,
                     ReturnConsumedCapacity="INDEXES")
    assert consumed(by_l) == {"TableName": table, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 0.0},
                              "LocalSecondaryIndexes": {"by-l": {"CapacityUnits": 1.0}}}


def test_batches_report_per_table(ddb, table, make_table):
    other = make_table(("pk", "S"))
    written = ddb.batch_write_item(RequestItems={
        table: [{"PutRequest": {"Item": item("1")}}, {"PutRequest": {"Item": item("2", g="k")}}],
        other: [{"PutRequest": {"Item": {"pk": {"S": "x"}}}}],
    }, ReturnConsumedCapacity="INDEXES")
    by_table = {entry["TableName"]: entry for entry in written["ConsumedCapacity"]}
    # 3 + (3 table + 1 GSI entry) for `table`, 1 for `other`.
    assert by_table[table] == {"TableName": table, "CapacityUnits": 7.0, "Table": {"CapacityUnits": 6.0},
                               "GlobalSecondaryIndexes": {"by-g": {"CapacityUnits": 1.0}}}
    assert by_table[other] == {"TableName": other, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}
    read = ddb.batch_get_item(RequestItems={
        table: {"Keys": [{"pk": {"S": "a"}, "sk": {"S": "1"}}, {"pk": {"S": "a"}, "sk": {"S": "2"}}]},
        other: {"Keys": [{"pk": {"S": "x"}}], "ConsistentRead": True},
    }, ReturnConsumedCapacity="TOTAL")
    # Per item: 0.5 + 0.5 eventually consistent; 1 strongly consistent.
    assert sorted((e["TableName"], e["CapacityUnits"]) for e in read["ConsumedCapacity"]) == sorted(
        [(table, 1.0), (other, 1.0)])


def test_transactions_cost_twice(ddb, table):
    # Under INDEXES a transaction's entry and each of its parts also name the kind of unit, as a
    # response of the service shows (rusoto#1919, 2021: the same figures, and a duplicated
    # "Table" member that JSON parsers read as its last value).
    written = ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": table, "Item": item("1", g="k")}},
    ], ReturnConsumedCapacity="INDEXES")
    assert written["ConsumedCapacity"] == [{
        "TableName": table, "CapacityUnits": 8.0, "WriteCapacityUnits": 8.0,
        "Table": {"CapacityUnits": 6.0, "WriteCapacityUnits": 6.0},
        "GlobalSecondaryIndexes": {"by-g": {"CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}}}]
    read = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": table, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}}}], ReturnConsumedCapacity="TOTAL")
    assert read["ConsumedCapacity"] == [{"TableName": table, "CapacityUnits": 2.0}]
    read = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": table, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}}}], ReturnConsumedCapacity="INDEXES")
    assert read["ConsumedCapacity"] == [{"TableName": table, "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0,
                                         "Table": {"CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}}]


# paritysuite tests/tier1 TransactWriteItems, "ConsumedCapacity: conditional, check, replay,
# cancel" (eu-west-2, 2026-06): a ConditionCheck is billed as a write, and a repeat with the
# same ClientRequestToken reports the read of the stored result.

def test_a_condition_check_is_billed_as_write(ddb, table, make_table):
    other = make_table(("pk", "S"))
    ddb.put_item(TableName=other, Item={"pk": {"S": "present"}})
    written = ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": table, "Item": {"pk": {"S": "cc"}, "sk": {"S": "1"}}}},
        {"ConditionCheck": {"TableName": other, "Key": {"pk": {"S": "present"}},
                            "ConditionExpression": "attribute_exists(pk)"}},
    ], ReturnConsumedCapacity="INDEXES")
    by_table = {entry["TableName"]: entry for entry in written["ConsumedCapacity"]}
    assert by_table[other] == {"TableName": other, "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0,
                               "Table": {"CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}}


def test_a_replay_reports_the_read_of_the_stored_result(ddb, make_table):
    table = make_table(("pk", "S"))
    # 1.5 KB: a transactional write costs 2 x 2 units, a transactional read 2 x 1.
    action = {"Put": {"TableName": table, "Item": {"pk": {"S": "replay"}, "big": {"S": "x" * 1536}}}}
    first = ddb.transact_write_items(ClientRequestToken="replay-token", TransactItems=[action],
                                     ReturnConsumedCapacity="INDEXES")
    again = ddb.transact_write_items(ClientRequestToken="replay-token", TransactItems=[action],
                                     ReturnConsumedCapacity="INDEXES")
    assert first["ConsumedCapacity"] == [{"TableName": table, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0,
                                          "Table": {"CapacityUnits": 4.0, "WriteCapacityUnits": 4.0}}]
    assert again["ConsumedCapacity"] == [{"TableName": table, "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0,
                                          "Table": {"CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}}]
