"""Query (legacy KeyConditions) and Scan: ordering, paging, Limit, segments, Select rules."""

from __future__ import annotations

import pytest

from ddb_helpers import expect_error


@pytest.fixture(scope="module")
def loaded(ddb, module_tables):
    """A table with partitions p0..p4, each with sort keys -10..9 (Number)."""
    table = module_tables.create(("pk", "S"), ("sk", "N"))
    for partition in range(5):
        ddb.batch_write_item(RequestItems={table: [
            {"PutRequest": {"Item": {"pk": {"S": f"p{partition}"}, "sk": {"N": str(i - 10)},
                                     "pad": {"S": "x" * 10}}}}
            for i in range(20)
        ]})
    return table


def key_conditions(pk: str, operator: str | None = None, *values: str) -> dict:
    conditions = {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": pk}]}}
    if operator:
        conditions["sk"] = {"ComparisonOperator": operator, "AttributeValueList": [{"N": v} for v in values]}
    return conditions


def sort_keys(response) -> list[int]:
    return [int(item["sk"]["N"]) for item in response["Items"]]


def test_query_returns_sort_key_order_by_number_value(ddb, loaded):
    response = ddb.query(TableName=loaded, KeyConditions=key_conditions("p1"))
    assert sort_keys(response) == list(range(-10, 10))
    assert response["Count"] == response["ScannedCount"] == 20
    assert "LastEvaluatedKey" not in response


@pytest.mark.parametrize("operator,values,expected", [
    ("EQ", ["3"], [3]),
    ("LT", ["-8"], [-10, -9]),
    ("LE", ["-8"], [-10, -9, -8]),
    ("GT", ["7"], [8, 9]),
    ("GE", ["7"], [7, 8, 9]),
    ("BETWEEN", ["-1", "1.5"], [-1, 0, 1]),
])
def test_query_sort_key_conditions(ddb, loaded, operator, values, expected):
    response = ddb.query(TableName=loaded, KeyConditions=key_conditions("p2", operator, *values))
    assert sort_keys(response) == expected


def test_reverse_query_with_limit_pages_backwards(ddb, loaded):
    seen, start = [], None
    while True:
        extra = {"ExclusiveStartKey": start} if start else {}
        page = ddb.query(TableName=loaded, KeyConditions=key_conditions("p3"), ScanIndexForward=False,
                         Limit=6, **extra)
        seen += sort_keys(page)
        start = page.get("LastEvaluatedKey")
        if not start:
            break
        assert start["pk"] == {"S": "p3"}
    assert seen == list(range(9, -11, -1))


def test_limit_equal_to_the_rest_still_returns_last_evaluated_key(ddb, loaded):
    page = ddb.query(TableName=loaded, KeyConditions=key_conditions("p4"), Limit=20)
    assert page["Count"] == 20
    assert page["LastEvaluatedKey"] == {"pk": {"S": "p4"}, "sk": {"N": "9"}}
    rest = ddb.query(TableName=loaded, KeyConditions=key_conditions("p4"), ExclusiveStartKey=page["LastEvaluatedKey"])
    assert rest["Count"] == 0 and "LastEvaluatedKey" not in rest


def test_query_select_count(ddb, loaded):
    response = ddb.query(TableName=loaded, KeyConditions=key_conditions("p0", "GE", "0"), Select="COUNT")
    assert response["Count"] == 10 and "Items" not in response


def test_query_missing_partition_key_condition(ddb, loaded):
    with expect_error("ValidationException", "Query condition missed key schema element: pk"):
        ddb.query(TableName=loaded, KeyConditions={"sk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}})


def test_scan_walks_every_item_once_across_pages(ddb, loaded):
    seen, start = [], None
    while True:
        extra = {"ExclusiveStartKey": start} if start else {}
        page = ddb.scan(TableName=loaded, Limit=17, **extra)
        seen += [(item["pk"]["S"], item["sk"]["N"]) for item in page["Items"]]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert len(seen) == 100 and len(set(seen)) == 100


def test_scan_is_not_sorted_by_partition_key(ddb, module_tables):
    table = module_tables.create(("pk", "S"))
    names = [f"user{i:03d}" for i in range(60)]
    for start in range(0, 60, 25):
        ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": {"pk": {"S": name}}}}
                                                   for name in names[start:start + 25]]})
    order = [item["pk"]["S"] for item in ddb.scan(TableName=table)["Items"]]
    assert sorted(order) == names
    assert order != names  # partitions come back in hash order, as in DynamoDB


@pytest.mark.parametrize("total", [1, 2, 3, 7])
def test_parallel_scan_segments_partition_the_table(ddb, loaded, total):
    seen = []
    for segment in range(total):
        start = None
        while True:
            extra = {"ExclusiveStartKey": start} if start else {}
            page = ddb.scan(TableName=loaded, Segment=segment, TotalSegments=total, Limit=9, **extra)
            seen += [(item["pk"]["S"], item["sk"]["N"]) for item in page["Items"]]
            start = page.get("LastEvaluatedKey")
            if not start:
                break
    assert len(seen) == 100 and len(set(seen)) == 100


def test_scan_segment_validation(ddb, loaded):
    with expect_error("ValidationException",
                      "The Segment parameter is zero-based and must be less than parameter TotalSegments"):
        ddb.scan(TableName=loaded, Segment=3, TotalSegments=3)
    with expect_error("ValidationException",
                      "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"):
        ddb.scan(TableName=loaded, Segment=1)


def test_select_rules(ddb, loaded):
    # The 2026 wording: Scan's Select rules in the envelope, as Query's (the 2025 forms, bare, in
    # corpus/scan.json).
    with expect_error("ValidationException",
                      "1 validation error detected: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"):
        ddb.scan(TableName=loaded, Select="ALL_PROJECTED_ATTRIBUTES")
    with expect_error("ValidationException",
                      "1 validation error detected: "
                      "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"):
        ddb.scan(TableName=loaded, Select="SPECIFIC_ATTRIBUTES")


def test_scan_one_megabyte_page_limit(ddb, make_table):
    table = make_table(("pk", "S"))
    blob = "x" * 100_000
    for start in range(0, 24, 8):
        ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": {"pk": {"S": f"k{i}"}, "b": {"S": blob}}}}
                                                   for i in range(start, start + 8)]})
    counts, start = [], None
    while True:
        extra = {"ExclusiveStartKey": start} if start else {}
        page = ddb.scan(TableName=table, **extra)
        counts.append(page["Count"])
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    # 100 KB items: a page stops with the item that takes it past 1 MB.
    assert counts == [11, 11, 2]


def test_scan_start_key_must_match_schema(ddb, loaded):
    with expect_error("ValidationException", "The provided starting key is invalid"):
        ddb.scan(TableName=loaded, ExclusiveStartKey={"pk": {"S": "p1"}})


def test_query_filter_cannot_use_key_attributes(ddb, loaded):
    with expect_error("ValidationException",
                      "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"):
        ddb.query(TableName=loaded, KeyConditionExpression="pk = :p", FilterExpression="sk > :z",
                  ExpressionAttributeValues={":p": {"S": "p1"}, ":z": {"N": "0"}})


def test_query_with_key_condition_and_filter_expressions(ddb, loaded):
    response = ddb.query(TableName=loaded, KeyConditionExpression="pk = :p AND sk BETWEEN :lo AND :hi",
                         FilterExpression="attribute_exists(#pad) AND size(#pad) = :ten",
                         ExpressionAttributeNames={"#pad": "pad"},
                         ExpressionAttributeValues={":p": {"S": "p1"}, ":lo": {"N": "-2"}, ":hi": {"N": "2"},
                                                    ":ten": {"N": "10"}},
                         ProjectionExpression="sk", Limit=3)
    assert [item["sk"]["N"] for item in response["Items"]] == ["-2", "-1", "0"]
    assert all(set(item) == {"sk"} for item in response["Items"])
    assert response["ScannedCount"] == 3 and "LastEvaluatedKey" in response
