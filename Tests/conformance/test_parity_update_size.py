"""Standalone UpdateItem's 400 KB check and PartiQL SELECTs on indexes, as DynamoDB does them.

UpdateItem refuses an update when the finished item, or the attributes the update writes (name
and value) plus 3 bytes and a cost per action (19 per SET or ADD, 2 per REMOVE or DELETE),
exceed 409,600 bytes (nubo-db/dynamodb-conformance tests/tier3/limits/itemSizeBySurface.test.ts,
measured against eu-west-2 on 2026-08-18/19). Transactions measure the finished item only.
"""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

MAX = 409_600
TOO_BIG = "Item size to update has exceeded the maximum allowed size"


def _pad(n: int) -> dict:
    return {"S": "x" * n}


def _update(ddb, table, key, expression, values, names=None):
    params = dict(TableName=table, Key={"pk": {"S": key}}, UpdateExpression=expression,
                  ExpressionAttributeValues=values)
    if names:
        params["ExpressionAttributeNames"] = names
    ddb.update_item(**params)


def _refused(call) -> bool:
    try:
        call()
    except ClientError as error:
        assert error.response["Error"]["Message"] == TOO_BIG, error.response["Error"]
        return True
    return False


def _ceiling(cost: int, uncounted: int) -> int:
    """The largest finished item UpdateItem accepts."""
    return min(MAX, MAX + uncounted - cost)


@pytest.mark.parametrize("expression,cost,extra", [
    ("SET b = :pad", 3 + 19, {}),
    ("SET b = :pad, c = :c", 3 + 19 * 2, {":c": {"S": "y"}}),
    ("SET b = :pad, c = :c", 3 + 19 * 2, {":c": {"S": "y" * 500}}),
    ("SET b = :pad REMOVE r", 3 + 19 + 2, {}),
], ids=["one-set", "two-sets", "two-sets-large-value", "set-and-remove"])
def test_update_item_charges_each_action_not_the_key(ddb, hash_table, expression, cost, extra):
    # Key {pk: "K"} is 3 bytes: fewer than the update's cost, so the per-action rule binds.
    extra_bytes = sum(1 + len(v["S"]) for v in extra.values())  # `c` + its value
    limit = _ceiling(cost, uncounted=3)
    for key, finished, refused in [("K", limit, False), ("L", limit + 1, True)]:
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": key}, "r": {"S": "z"}})
        padding = finished - 3 - extra_bytes - 1  # minus the key, the other writes and the name `b`
        call = lambda: _update(ddb, hash_table, key, expression, {":pad": _pad(padding), **extra})  # noqa: E731
        assert _refused(call) is refused, (key, finished)


def test_an_attribute_the_update_leaves_alone_is_not_counted(ddb, hash_table):
    # An untouched 11-byte attribute lifts the ceiling by 11 bytes, as the key's bytes do.
    untouched = {"u": {"S": "y" * 10}}
    limit = _ceiling(3 + 19, uncounted=3 + 11)
    assert limit < MAX
    for key, finished, refused in [("M", limit, False), ("N", limit + 1, True)]:
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": key}, **untouched})
        padding = finished - 3 - 11 - 1
        assert _refused(lambda: _update(ddb, hash_table, key, "SET b = :pad", {":pad": _pad(padding)})) is refused


def test_a_long_key_caps_at_the_finished_item(ddb, hash_table):
    key = "k" * 100
    padding = MAX - (2 + 100) - 1
    _update(ddb, hash_table, key, "SET b = :pad", {":pad": _pad(padding)})
    assert _refused(lambda: _update(ddb, hash_table, key, "SET b = :pad", {":pad": _pad(padding + 1)}))


def test_a_transacted_update_measures_the_finished_item_only(ddb, hash_table):
    padding = MAX - 3 - 1  # a finished item of exactly 409,600 bytes at key "T"
    ddb.transact_write_items(TransactItems=[{"Update": {
        "TableName": hash_table, "Key": {"pk": {"S": "T"}}, "UpdateExpression": "SET b = :pad",
        "ExpressionAttributeValues": {":pad": _pad(padding)}}}])
    assert _refused(lambda: _update(ddb, hash_table, "U", "SET b = :pad", {":pad": _pad(padding)}))


# PartiQL SELECT on an index (tests/tier3/error-messages/partiql.test.ts).

def _index_table(make_table):
    s = lambda name: {"AttributeName": name, "AttributeType": "S"}  # noqa: E731
    return make_table(
        ("pk", "S"), ("sk", "S"),
        AttributeDefinitions=[s("pk"), s("sk"), s("g"), s("l")],
        GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["inc"]}}],
        LocalSecondaryIndexes=[{"IndexName": "lsi", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                 {"AttributeName": "l", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
    )


def _statement_error(ddb, statement):
    with pytest.raises(ClientError) as caught:
        ddb.execute_statement(Statement=statement)
    error = caught.value.response["Error"]
    assert error["Code"] == "ValidationException"
    return error["Message"]


def test_partiql_select_on_an_index_refuses_unprojected_attributes(ddb, make_table):
    table = _index_table(make_table)
    ddb.put_item(TableName=table, Item={"pk": {"S": "p"}, "sk": {"S": "s"}, "g": {"S": "g"}, "l": {"S": "l"},
                                        "inc": {"S": "i"}, "other": {"S": "o"}})
    prefix = "One or more parameter values were invalid: "
    assert _statement_error(ddb, f"SELECT pk FROM \"{table}\".\"gsi\" WHERE g = 'g' AND other = 'o' AND x = 1") \
        == prefix + "Secondary index gsi does not project one or more filter attributes: [other, x]"
    assert _statement_error(ddb, f"SELECT pk FROM \"{table}\".\"lsi\" WHERE pk = 'p' AND inc = 'i'") \
        == prefix + "Secondary index lsi does not project one or more filter attributes: [inc]"
    assert _statement_error(ddb, f"SELECT other, pk FROM \"{table}\".\"gsi\" WHERE g = 'g'") \
        == prefix + "Global secondary index gsi does not project [other]"
    # What the index projects (its keys, the table's keys, INCLUDE's attributes) is answered.
    items = ddb.execute_statement(Statement=f"SELECT pk, sk, inc FROM \"{table}\".\"gsi\" WHERE g = 'g' AND inc = 'i'")
    assert items["Items"] == [{"pk": {"S": "p"}, "sk": {"S": "s"}, "inc": {"S": "i"}}]
