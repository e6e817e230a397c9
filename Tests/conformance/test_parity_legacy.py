"""Legacy conditions: EQ and NE take a value of every type ("EQ is supported for all data
types, including lists and maps", DynamoDB's API reference for Condition), in ScanFilter,
QueryFilter and Expected alike; the comparison is by value, as the expression language's = is."""

from __future__ import annotations

import pytest

from ddb_helpers import expect_error

VALUES = {
    "S": {"S": "x"}, "N": {"N": "1"}, "B": {"B": b"q"}, "SS": {"SS": ["a", "b"]}, "NS": {"NS": ["1", "2"]},
    "BS": {"BS": [b"a"]}, "L": {"L": [{"S": "x"}, {"N": "2"}]}, "M": {"M": {"a": {"S": "x"}}},
    "BOOL": {"BOOL": True}, "NULL": {"NULL": True},
}
OTHER = {
    "S": {"S": "y"}, "N": {"N": "2"}, "B": {"B": b"r"}, "SS": {"SS": ["a"]}, "NS": {"NS": ["3"]},
    "BS": {"BS": [b"b"]}, "L": {"L": [{"N": "2"}, {"S": "x"}]}, "M": {"M": {"a": {"S": "y"}}},
    "BOOL": {"BOOL": False}, "NULL": {"S": "not null"},
}


@pytest.fixture(scope="module")
def item_table(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "legacy-eq"},
                                            **{f"a{t}": v for t, v in VALUES.items()}})
    return hash_table


@pytest.mark.parametrize("type_", list(VALUES))
def test_scan_filter_eq_and_ne_take_every_type(ddb, item_table, type_):
    def count(op, value):
        return ddb.scan(TableName=item_table, ScanFilter={
            "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "legacy-eq"}]},
            f"a{type_}": {"ComparisonOperator": op, "AttributeValueList": [value]}})["Count"]
    assert count("EQ", VALUES[type_]) == 1
    assert count("NE", VALUES[type_]) == 0
    assert count("EQ", OTHER[type_]) == 0
    assert count("NE", OTHER[type_]) == 1


@pytest.mark.parametrize("type_", ["L", "M", "BOOL", "NULL"])
def test_expected_compares_lists_maps_booleans_and_nulls(ddb, item_table, type_):
    key = {"pk": {"S": "legacy-eq"}}
    ddb.update_item(TableName=item_table, Key=key, AttributeUpdates={"touched": {"Value": {"N": "1"}}},
                    Expected={f"a{type_}": {"ComparisonOperator": "EQ", "AttributeValueList": [VALUES[type_]]}})
    ddb.update_item(TableName=item_table, Key=key, AttributeUpdates={"touched": {"Value": {"N": "2"}}},
                    Expected={f"a{type_}": {"Value": VALUES[type_]}})
    with expect_error("ConditionalCheckFailedException"):
        ddb.update_item(TableName=item_table, Key=key, AttributeUpdates={"touched": {"Value": {"N": "3"}}},
                        Expected={f"a{type_}": {"ComparisonOperator": "NE", "AttributeValueList": [VALUES[type_]]}})


@pytest.mark.parametrize("op", ["LT", "GE", "CONTAINS", "BEGINS_WITH"])
def test_ordering_operators_still_refuse_a_list(ddb, item_table, op):
    with expect_error("ValidationException",
                      f"One or more parameter values were invalid: ComparisonOperator {op} is not valid for L AttributeValue type"):
        ddb.scan(TableName=item_table, ScanFilter={"aL": {"ComparisonOperator": op, "AttributeValueList": [VALUES["L"]]}})


WITHOUT_FILTER = "ConditionalOperator cannot be used without Filter or Expected"
TWO_OR_MORE = "ConditionalOperator can only be used when Filter or Expected has two or more elements"


@pytest.mark.parametrize("operator", ["AND", "OR"])
def test_conditional_operator_needs_expected_or_a_filter(ddb, item_table, operator):
    # Measured by dual-target (DynamoDB and emulator) conformance tests; DynamoDB Local's
    # error table has the same text.
    key = {"pk": {"S": "legacy-eq"}}
    with expect_error("ValidationException", WITHOUT_FILTER):
        ddb.put_item(TableName=item_table, Item={"pk": {"S": "legacy-cond"}}, ConditionalOperator=operator)
    with expect_error("ValidationException", WITHOUT_FILTER):
        ddb.delete_item(TableName=item_table, Key={"pk": {"S": "legacy-cond"}}, ConditionalOperator=operator)
    with expect_error("ValidationException", WITHOUT_FILTER):
        ddb.scan(TableName=item_table, ConditionalOperator=operator)
    with expect_error("ValidationException", TWO_OR_MORE):
        ddb.update_item(TableName=item_table, Key=key, ConditionalOperator=operator,
                        Expected={"aS": {"Value": {"S": "x"}}})
    ddb.update_item(TableName=item_table, Key=key, ConditionalOperator=operator,
                    AttributeUpdates={"touched": {"Value": {"N": "9"}}},
                    Expected={"aS": {"Value": {"S": "x"}}, "aN": {"Value": {"N": "1"}}})
