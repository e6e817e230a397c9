"""Local and global secondary indexes: maintenance on writes, sparse entries, reads, errors."""

from __future__ import annotations

import pytest

from ddb_helpers import expect_error, unique_name, wait_until_active


@pytest.fixture(scope="module")
def indexed(ddb):
    """Orders table: pk=customer (S), sk=order (N); LSI by status (S, KEYS_ONLY); GSI by sku (S) + qty (N), INCLUDE note."""
    name = unique_name("idx")
    ddb.create_table(
        TableName=name,
        AttributeDefinitions=[
            {"AttributeName": "customer", "AttributeType": "S"},
            {"AttributeName": "order", "AttributeType": "N"},
            {"AttributeName": "status", "AttributeType": "S"},
            {"AttributeName": "sku", "AttributeType": "S"},
            {"AttributeName": "qty", "AttributeType": "N"},
        ],
        KeySchema=[{"AttributeName": "customer", "KeyType": "HASH"}, {"AttributeName": "order", "KeyType": "RANGE"}],
        LocalSecondaryIndexes=[{
            "IndexName": "by-status",
            "KeySchema": [{"AttributeName": "customer", "KeyType": "HASH"}, {"AttributeName": "status", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
        }],
        GlobalSecondaryIndexes=[{
            "IndexName": "by-sku",
            "KeySchema": [{"AttributeName": "sku", "KeyType": "HASH"}, {"AttributeName": "qty", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]},
        }],
        BillingMode="PAY_PER_REQUEST",
    )
    wait_until_active(ddb, name)
    rows = [
        ("alice", 1, "open", "apple", 3, "first"),
        ("alice", 2, "shipped", "pear", 1, "second"),
        ("alice", 3, "open", "apple", 10, "third"),
        ("bob", 1, "open", "apple", 7, "fourth"),
        ("bob", 2, None, None, None, "sparse"),
    ]
    for customer, order, status, sku, qty, note in rows:
        item = {"customer": {"S": customer}, "order": {"N": str(order)}, "note": {"S": note}, "secret": {"S": "x"}}
        if status:
            item["status"] = {"S": status}
        if sku:
            item["sku"] = {"S": sku}
            item["qty"] = {"N": str(qty)}
        ddb.put_item(TableName=name, Item=item)
    yield name
    ddb.delete_table(TableName=name)


def eq(name, value):
    return {name: {"ComparisonOperator": "EQ", "AttributeValueList": [value]}}


def test_gsi_query_orders_by_index_sort_key(ddb, indexed):
    response = ddb.query(TableName=indexed, IndexName="by-sku", KeyConditions=eq("sku", {"S": "apple"}))
    assert [item["qty"]["N"] for item in response["Items"]] == ["3", "7", "10"]
    # INCLUDE projection: keys of table and index, plus "note"; never "secret".
    assert all(set(item) == {"customer", "order", "sku", "qty", "note"} for item in response["Items"])


def test_gsi_is_sparse(ddb, indexed):
    scanned = ddb.scan(TableName=indexed, IndexName="by-sku")
    assert scanned["Count"] == 4
    assert "sparse" not in [item["note"]["S"] for item in scanned["Items"]]


def test_lsi_keys_only_and_fetch_of_all_attributes(ddb, indexed):
    keys_only = ddb.query(TableName=indexed, IndexName="by-status",
                          KeyConditions={**eq("customer", {"S": "alice"}),
                                         "status": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "open"}]}})
    assert [item["order"]["N"] for item in keys_only["Items"]] == ["1", "3"]
    assert all(set(item) == {"customer", "order", "status"} for item in keys_only["Items"])
    full = ddb.query(TableName=indexed, IndexName="by-status", Select="ALL_ATTRIBUTES",
                     KeyConditions=eq("customer", {"S": "alice"}))
    assert [item["status"]["S"] for item in full["Items"]] == ["open", "open", "shipped"]
    assert all(item["secret"] == {"S": "x"} for item in full["Items"])


def test_lsi_projection_expression_reads_unprojected_attributes_from_the_table(ddb, indexed):
    # DynamoDB fetches attributes a local index does not project from the table, whether they
    # are asked for by AttributesToGet or by a ProjectionExpression.
    response = ddb.query(TableName=indexed, IndexName="by-status",
                         KeyConditionExpression="customer = :c AND #s = :s",
                         ExpressionAttributeNames={"#s": "status"},
                         ExpressionAttributeValues={":c": {"S": "alice"}, ":s": {"S": "open"}},
                         ProjectionExpression="#s, note, secret")
    assert response["Items"] == [
        {"status": {"S": "open"}, "note": {"S": "first"}, "secret": {"S": "x"}},
        {"status": {"S": "open"}, "note": {"S": "third"}, "secret": {"S": "x"}},
    ]


def test_index_paging_returns_table_and_index_keys(ddb, indexed):
    page = ddb.query(TableName=indexed, IndexName="by-sku", KeyConditions=eq("sku", {"S": "apple"}), Limit=1)
    assert set(page["LastEvaluatedKey"]) == {"customer", "order", "sku", "qty"}
    rest = ddb.query(TableName=indexed, IndexName="by-sku", KeyConditions=eq("sku", {"S": "apple"}),
                     ExclusiveStartKey=page["LastEvaluatedKey"])
    assert [item["qty"]["N"] for item in rest["Items"]] == ["7", "10"]


def test_index_follows_updates_and_deletes(ddb, indexed):
    key = {"customer": {"S": "carol"}, "order": {"N": "1"}}
    ddb.put_item(TableName=indexed, Item={**key, "sku": {"S": "kiwi"}, "qty": {"N": "1"}})
    ddb.update_item(TableName=indexed, Key=key, AttributeUpdates={"qty": {"Action": "PUT", "Value": {"N": "5"}}})
    found = ddb.query(TableName=indexed, IndexName="by-sku", KeyConditions=eq("sku", {"S": "kiwi"}))
    assert [item["qty"]["N"] for item in found["Items"]] == ["5"]
    ddb.delete_item(TableName=indexed, Key=key)
    assert ddb.query(TableName=indexed, IndexName="by-sku", KeyConditions=eq("sku", {"S": "kiwi"}))["Count"] == 0


def test_index_key_of_wrong_type_is_rejected(ddb, indexed):
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: Type mismatch for Index Key qty Expected: N Actual: S IndexName: by-sku"):
        ddb.put_item(TableName=indexed, Item={"customer": {"S": "dave"}, "order": {"N": "1"},
                                              "sku": {"S": "fig"}, "qty": {"S": "many"}})
    assert "Item" not in ddb.get_item(TableName=indexed, Key={"customer": {"S": "dave"}, "order": {"N": "1"}})


def test_index_errors(ddb, indexed):
    with expect_error("ValidationException", "The table does not have the specified index: nope"):
        ddb.query(TableName=indexed, IndexName="nope", KeyConditions=eq("sku", {"S": "apple"}))
    with expect_error("ValidationException", "Consistent reads are not supported on global secondary indexes"):
        ddb.query(TableName=indexed, IndexName="by-sku", ConsistentRead=True, KeyConditions=eq("sku", {"S": "apple"}))
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index by-sku because its projection type is not ALL"):
        ddb.query(TableName=indexed, IndexName="by-sku", Select="ALL_ATTRIBUTES", KeyConditions=eq("sku", {"S": "apple"}))


def test_describe_table_counts_index_entries(ddb, indexed):
    table = ddb.describe_table(TableName=indexed)["Table"]
    gsi = table["GlobalSecondaryIndexes"][0]
    lsi = table["LocalSecondaryIndexes"][0]
    assert gsi["IndexStatus"] == "ACTIVE" and gsi["ItemCount"] == 4 and gsi["IndexSizeBytes"] > 0
    assert lsi["ItemCount"] == 4
    assert gsi["IndexArn"] == table["TableArn"] + "/index/by-sku"


def _index_table_request(name: str, local: int, global_: int) -> dict:
    definitions = [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]
    locals_, globals_ = [], []
    for i in range(local):
        definitions.append({"AttributeName": f"l{i}", "AttributeType": "S"})
        locals_.append({"IndexName": f"lsi{i}", "Projection": {"ProjectionType": "KEYS_ONLY"},
                        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                      {"AttributeName": f"l{i}", "KeyType": "RANGE"}]})
    for i in range(global_):
        definitions.append({"AttributeName": f"g{i}", "AttributeType": "S"})
        globals_.append({"IndexName": f"gsi{i}", "Projection": {"ProjectionType": "KEYS_ONLY"},
                         "KeySchema": [{"AttributeName": f"g{i}", "KeyType": "HASH"}]})
    request = {"TableName": name, "AttributeDefinitions": definitions, "BillingMode": "PAY_PER_REQUEST",
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]}
    if locals_:
        request["LocalSecondaryIndexes"] = locals_
    if globals_:
        request["GlobalSecondaryIndexes"] = globals_
    return request


def test_at_most_five_local_indexes(ddb):
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5"):
        ddb.create_table(**_index_table_request(unique_name("lsi6"), 6, 0))


def test_at_most_twenty_global_indexes(ddb):
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20"):
        ddb.create_table(**_index_table_request(unique_name("gsi21"), 0, 21))


def test_item_collection_metrics_on_tables_with_local_indexes(ddb, indexed, make_table):
    key = {"customer": {"S": "erin"}, "order": {"N": "1"}}
    put = ddb.put_item(TableName=indexed, Item={**key, "status": {"S": "open"}},
                       ReturnItemCollectionMetrics="SIZE")
    assert put["ItemCollectionMetrics"] == {"ItemCollectionKey": {"customer": {"S": "erin"}},
                                            "SizeEstimateRangeGB": [0.0, 1.0]}
    updated = ddb.update_item(TableName=indexed, Key=key, UpdateExpression="SET note = :n",
                              ExpressionAttributeValues={":n": {"S": "x"}}, ReturnItemCollectionMetrics="SIZE")
    assert updated["ItemCollectionMetrics"]["ItemCollectionKey"] == {"customer": {"S": "erin"}}
    batch = ddb.batch_write_item(RequestItems={indexed: [
        {"PutRequest": {"Item": {"customer": {"S": "erin"}, "order": {"N": "2"}}}},
        {"PutRequest": {"Item": {"customer": {"S": "fred"}, "order": {"N": "1"}}}},
    ]}, ReturnItemCollectionMetrics="SIZE")
    assert batch["ItemCollectionMetrics"] == {indexed: [
        {"ItemCollectionKey": {"customer": {"S": "erin"}}, "SizeEstimateRangeGB": [0.0, 1.0]},
        {"ItemCollectionKey": {"customer": {"S": "fred"}}, "SizeEstimateRangeGB": [0.0, 1.0]},
    ]}
    transaction = ddb.transact_write_items(TransactItems=[
        {"Delete": {"TableName": indexed, "Key": {"customer": {"S": "fred"}, "order": {"N": "1"}}}},
    ], ReturnItemCollectionMetrics="SIZE")
    assert transaction["ItemCollectionMetrics"] == {indexed: [
        {"ItemCollectionKey": {"customer": {"S": "fred"}}, "SizeEstimateRangeGB": [0.0, 1.0]}]}
    deleted = ddb.delete_item(TableName=indexed, Key=key, ReturnItemCollectionMetrics="SIZE")
    assert deleted["ItemCollectionMetrics"]["ItemCollectionKey"] == {"customer": {"S": "erin"}}
    # Without a local secondary index there are no item collections to report.
    plain = make_table(("pk", "S"))
    assert "ItemCollectionMetrics" not in ddb.put_item(TableName=plain, Item={"pk": {"S": "a"}},
                                                       ReturnItemCollectionMetrics="SIZE")
    assert ddb.batch_write_item(RequestItems={plain: [{"PutRequest": {"Item": {"pk": {"S": "b"}}}}]},
                                ReturnItemCollectionMetrics="SIZE")["ItemCollectionMetrics"] == {}


# --- Multi-attribute GSI keys (up to 4 HASH and 4 RANGE attributes) ---------------------------

MATCH_KEYS = [{"AttributeName": "tournament", "KeyType": "HASH"}, {"AttributeName": "region", "KeyType": "HASH"},
              {"AttributeName": "round", "KeyType": "RANGE"}, {"AttributeName": "bracket", "KeyType": "RANGE"}]


@pytest.fixture(scope="module")
def matches(ddb):
    name = unique_name("multi")
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"},
                              {"AttributeName": "tournament", "AttributeType": "S"},
                              {"AttributeName": "region", "AttributeType": "S"},
                              {"AttributeName": "round", "AttributeType": "S"},
                              {"AttributeName": "bracket", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "by-match", "KeySchema": MATCH_KEYS,
                                 "Projection": {"ProjectionType": "ALL"}}])
    wait_until_active(ddb, name)
    rows = [("m1", "w24", "na", "semi", 1), ("m2", "w24", "na", "semi", 2), ("m3", "w24", "na", "final", 1),
            ("m4", "w24", "eu", "semi", 1), ("m5", "w24", "na", "semi", 10)]
    for id_, tournament, region, round_, bracket in rows:
        ddb.put_item(TableName=name, Item={"id": {"S": id_}, "tournament": {"S": tournament},
                                           "region": {"S": region}, "round": {"S": round_},
                                           "bracket": {"N": str(bracket)}})
    # Missing one key attribute: not indexed.
    ddb.put_item(TableName=name, Item={"id": {"S": "m6"}, "tournament": {"S": "w24"}, "region": {"S": "na"},
                                       "round": {"S": "semi"}})
    yield name
    ddb.delete_table(TableName=name)


def match_ids(ddb, table, condition, **values):
    # `region` and `round` are reserved words.
    condition = condition.replace("#r", "#round").replace("region", "#region")
    names = {name: name[1:] for name in ("#round", "#region") if name in condition}
    response = ddb.query(TableName=table, IndexName="by-match", KeyConditionExpression=condition,
                         **({"ExpressionAttributeNames": names} if names else {}),
                         ExpressionAttributeValues={f":{k}": v for k, v in values.items()})
    return [item["id"]["S"] for item in response["Items"]]


def test_multi_attribute_key_is_described_in_order(ddb, matches):
    index = ddb.describe_table(TableName=matches)["Table"]["GlobalSecondaryIndexes"][0]
    assert index["KeySchema"] == MATCH_KEYS
    assert index["ItemCount"] == 5


def test_multi_attribute_key_queries(ddb, matches):
    na = {"t": {"S": "w24"}, "g": {"S": "na"}}
    base = "tournament = :t AND region = :g"
    # Sorted by round, then bracket (as a number: 10 after 2).
    assert match_ids(ddb, matches, base + " AND #r >= :a", **na, a={"S": ""}) == ["m3", "m1", "m2", "m5"]
    assert match_ids(ddb, matches, "region = :g AND tournament = :t", **na) == ["m3", "m1", "m2", "m5"]
    assert match_ids(ddb, matches, base + " AND #r = :s", **na, s={"S": "semi"}) == ["m1", "m2", "m5"]
    assert match_ids(ddb, matches, base + " AND #r = :s AND bracket > :b", **na, s={"S": "semi"},
                     b={"N": "1"}) == ["m2", "m5"]
    assert match_ids(ddb, matches, base + " AND #r = :s AND bracket BETWEEN :lo AND :hi", **na, s={"S": "semi"},
                     lo={"N": "2"}, hi={"N": "10"}) == ["m2", "m5"]
    assert match_ids(ddb, matches, base + " AND begins_with(#r, :p)", **na, p={"S": "se"}) == ["m1", "m2", "m5"]
    assert match_ids(ddb, matches, base + " AND #r < :s", **na, s={"S": "semi"}) == ["m3"]
    assert match_ids(ddb, matches, base + " AND #r <= :s", **na, s={"S": "semi"}) == ["m3", "m1", "m2", "m5"]
    assert match_ids(ddb, matches, base + " AND #r > :f", **na, f={"S": "final"}) == ["m1", "m2", "m5"]
    eu = {"t": {"S": "w24"}, "g": {"S": "eu"}}
    assert match_ids(ddb, matches, base, **eu) == ["m4"]


def test_multi_attribute_key_paging(ddb, matches):
    request = dict(TableName=matches, IndexName="by-match", Limit=2,
                   KeyConditionExpression="tournament = :t AND #region = :g",
                   ExpressionAttributeNames={"#region": "region"},
                   ExpressionAttributeValues={":t": {"S": "w24"}, ":g": {"S": "na"}})
    first = ddb.query(**request)
    assert set(first["LastEvaluatedKey"]) == {"id", "tournament", "region", "round", "bracket"}
    assert first["LastEvaluatedKey"]["bracket"] == {"N": "1"}
    second = ddb.query(**request, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert [item["id"]["S"] for item in first["Items"] + second["Items"]] == ["m3", "m1", "m2", "m5"]


def test_multi_attribute_key_with_legacy_key_conditions(ddb, matches, hash_table):
    """Legacy KeyConditions name every attribute of a multi-attribute key (issue #42's reading of
    the recordings), where a single-attribute schema keeps its one-or-two limit."""
    def eq(value):
        return {"ComparisonOperator": "EQ", "AttributeValueList": [value]}
    conditions = {"tournament": eq({"S": "w24"}), "region": eq({"S": "na"}), "round": eq({"S": "semi"}),
                  "bracket": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "1"}]}}
    response = ddb.query(TableName=matches, IndexName="by-match", KeyConditions=conditions)
    assert [item["id"]["S"] for item in response["Items"]] == ["m2", "m5"]
    with expect_error("ValidationException", "Conditions can be of length 1 or 2 only"):
        ddb.query(TableName=hash_table, KeyConditions={"pk": eq({"S": "a"}), "x": eq({"S": "b"}), "y": eq({"S": "c"})})


def test_multi_attribute_key_condition_rules(ddb, matches):
    with expect_error("ValidationException", "Query condition missed key schema element: region"):
        match_ids(ddb, matches, "tournament = :t", t={"S": "w24"})
    # A gap or a range condition left of the last sort condition: DynamoDB's message as measured
    # by paritysuite/dynamodb-conformance (test_parity_reads.py pins more cases).
    equality_needed = ("RANGE key attributes round must have equality conditions specified in the query "
                       "because a condition is present on key attribute bracket")
    with expect_error("ValidationException", equality_needed):
        match_ids(ddb, matches, "tournament = :t AND region = :g AND bracket = :b",
                  t={"S": "w24"}, g={"S": "na"}, b={"N": "1"})
    with expect_error("ValidationException", equality_needed):
        match_ids(ddb, matches, "tournament = :t AND region = :g AND #r > :r AND bracket = :b",
                  t={"S": "w24"}, g={"S": "na"}, r={"S": "a"}, b={"N": "1"})
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: Condition parameter type does not match schema type"):
        match_ids(ddb, matches, "tournament = :t AND region = :g", t={"S": "w24"}, g={"N": "1"})


def test_multi_attribute_key_schema_validation(ddb):
    definitions = [{"AttributeName": n, "AttributeType": "S"} for n in ("id", "a", "b", "c", "d", "e")]

    def create(keys):
        ddb.create_table(TableName=unique_name("mk"), BillingMode="PAY_PER_REQUEST", AttributeDefinitions=definitions,
                         KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                         GlobalSecondaryIndexes=[{"IndexName": "gix", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                                  "KeySchema": [{"AttributeName": n, "KeyType": t} for n, t in keys]}])

    with expect_error("ValidationException", "One or more parameter values were invalid: "
                      "The KeySchema exceeds the maximum allowed number of HASH key attributes"):
        create([(n, "HASH") for n in "abcde"])
    with expect_error("ValidationException", "One or more parameter values were invalid: "
                      "All HASH key attributes must precede RANGE key attributes in the KeySchema"):
        create([("a", "HASH"), ("b", "RANGE"), ("c", "HASH")])
    with expect_error("ValidationException", "The KeySchema contains multiple key attributes with the same name"):
        create([("a", "HASH"), ("b", "HASH"), ("a", "RANGE")])


def test_multi_attribute_index_added_by_update_table(ddb, make_table):
    table = make_table(("id", "S"))
    for i in range(600):
        ddb.put_item(TableName=table, Item={"id": {"S": f"i{i}"}, "a": {"S": f"a{i % 3}"}, "b": {"N": str(i % 2)},
                                            "c": {"N": str(i)}})
    ddb.update_table(TableName=table,
                     AttributeDefinitions=[{"AttributeName": "a", "AttributeType": "S"},
                                           {"AttributeName": "b", "AttributeType": "N"},
                                           {"AttributeName": "c", "AttributeType": "N"}],
                     GlobalSecondaryIndexUpdates=[{"Create": {
                         "IndexName": "by-ab", "Projection": {"ProjectionType": "KEYS_ONLY"},
                         "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "HASH"},
                                       {"AttributeName": "c", "KeyType": "RANGE"}]}}])
    wait_until_active(ddb, table)
    pages = ddb.get_paginator("query").paginate(
        TableName=table, IndexName="by-ab", KeyConditionExpression="a = :a AND b = :b AND c < :c",
        ExpressionAttributeValues={":a": {"S": "a0"}, ":b": {"N": "1"}, ":c": {"N": "100"}})
    found = [int(item["c"]["N"]) for page in pages for item in page["Items"]]
    assert found == [i for i in range(100) if i % 3 == 0 and i % 2 == 1]
