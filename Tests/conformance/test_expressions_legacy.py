"""Legacy conditional and projection parameters: Expected, ConditionalOperator, AttributesToGet.

(AttributeUpdates itself is covered in test_items.py.) Behaviour and messages
are those of real DynamoDB, as recorded by suites that were run against it
(ScyllaDB's alternator tests, dynalite's tests, the nubo-db
dynamodb-conformance captures) and by the official DAX client, which repeats
several of the service's messages. Where only part of a message is
established, the test checks the error code and that part.
"""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from ddb_helpers import check_raw_error, expect_error, unique_name

VE = "ValidationException"
CCF = "ConditionalCheckFailedException"
CCF_MSG = "The conditional request failed"
INVALID = "One or more parameter values were invalid: "


def N(x) -> dict:
    return {"N": str(x)}


def S(x: str) -> dict:
    return {"S": x}


def B(x: bytes) -> dict:
    return {"B": x}


def L(*xs) -> dict:
    return {"L": list(xs)}


def _key(pk: str) -> dict:
    return {"pk": {"S": pk}}


def _get(ddb, table, pk):
    return ddb.get_item(TableName=table, Key=_key(pk), ConsistentRead=True).get("Item")


def _seed(ddb, table, **attrs) -> str:
    pk = unique_name("legacy")
    ddb.put_item(TableName=table, Item={"pk": S(pk), **attrs})
    return pk


def _passes(ddb, table, pk, expected, operator=None) -> bool:
    """UpdateItem (AttributeUpdates) guarded by Expected; False on ConditionalCheckFailed."""
    params = dict(
        TableName=table,
        Key=_key(pk),
        AttributeUpdates={"hits": {"Action": "ADD", "Value": N(1)}},
        Expected=expected,
    )
    if operator is not None:
        params["ConditionalOperator"] = operator
    try:
        ddb.update_item(**params)
    except ClientError as e:
        err = e.response["Error"]
        if err.get("Code") == CCF:
            assert err.get("Message") == CCF_MSG
            return False
        raise
    return True


def _cmp(op, *values) -> dict:
    return {"ComparisonOperator": op, "AttributeValueList": list(values)}


# ===========================================================================
# Expected: Value / Exists
# ===========================================================================


def test_expected_value(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), s={"SS": ["dog", "chinchilla", "cat"]})
    assert _passes(ddb, hash_table, pk, {"a": {"Value": N(1)}})
    assert _passes(ddb, hash_table, pk, {"a": {"Value": N("1.0")}})
    assert not _passes(ddb, hash_table, pk, {"a": {"Value": N(2)}})
    assert not _passes(ddb, hash_table, pk, {"a": {"Value": S("1")}})  # another type: not equal, not an error
    assert not _passes(ddb, hash_table, pk, {"z": {"Value": N(1)}})
    # Set equality ignores member order.
    assert _passes(ddb, hash_table, pk, {"s": {"Value": {"SS": ["cat", "dog", "chinchilla"]}}})


def test_expected_exists(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    assert _passes(ddb, hash_table, pk, {"a": {"Exists": True, "Value": N(1)}})
    assert not _passes(ddb, hash_table, pk, {"a": {"Exists": True, "Value": N(2)}})
    assert _passes(ddb, hash_table, pk, {"z": {"Exists": False}})
    assert not _passes(ddb, hash_table, pk, {"a": {"Exists": False}})


def test_expected_on_a_missing_item(ddb, hash_table):
    pk = unique_name("legacy")
    assert not _passes(ddb, hash_table, pk, {"pk": {"Value": S(pk)}})
    assert not _passes(ddb, hash_table, pk, {"pk": _cmp("NOT_NULL")})
    assert _get(ddb, hash_table, pk) is None
    assert _passes(ddb, hash_table, pk, {"pk": {"Exists": False}})
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "hits": N(1)}


@pytest.mark.parametrize(
    "condition,message",
    [
        ({}, "Value must be provided when Exists is null for Attribute: a"),
        ({"Exists": True}, "Value must be provided when Exists is true for Attribute: a"),
        ({"Exists": False, "Value": S("a")}, "Value cannot be used when Exists is false for Attribute: a"),
        ({"ComparisonOperator": "LT"}, "Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: a"),
        ({"Exists": True, "ComparisonOperator": "LT"}, "Exists and ComparisonOperator cannot be used together for Attribute: a"),
        ({"Exists": False, "ComparisonOperator": "EQ", "AttributeValueList": [N(3)]}, "Exists and ComparisonOperator cannot be used together for Attribute: a"),
        ({"AttributeValueList": [S("a")]}, "AttributeValueList can only be used with a ComparisonOperator for Attribute: a"),
        ({"Exists": True, "AttributeValueList": [S("a")]}, "AttributeValueList can only be used with a ComparisonOperator for Attribute: a"),
        ({"Value": S("a"), "AttributeValueList": [S("a")], "ComparisonOperator": "LT"}, "Value and AttributeValueList cannot be used together for Attribute: a"),
    ],
    ids=["empty", "exists-true-no-value", "exists-false-with-value", "operator-alone", "exists-and-operator",
         "exists-false-and-operator", "list-alone", "list-with-exists", "value-and-list"],
)
def test_expected_shape_errors(ddb, hash_table, condition, message):
    with expect_error(VE, INVALID + message):
        ddb.put_item(TableName=hash_table, Item=_key("legacy-shape"), Expected={"a": condition})
    assert _get(ddb, hash_table, "legacy-shape") is None


# ===========================================================================
# Expected: ComparisonOperator
# ===========================================================================

# Item used by the comparison tests.
COMPARE_ITEM = {
    "n": N(1),
    "s": S("cat"),
    "b": B(b"cat"),
    "h": S("hello"),
    "ns": {"NS": ["2", "4", "7"]},
    "l": L(N(2), N(4), N(7)),
    "bh": B(b"hi there"),
    "nul": {"NULL": True},
}

COMPARISONS = [
    # EQ / NE
    ("n", _cmp("EQ", N(1)), True),
    ("n", _cmp("EQ", N(2)), False),
    ("n", _cmp("EQ", S("1")), False),
    ("n", _cmp("NE", N(2)), True),
    ("n", _cmp("NE", N(1)), False),
    ("n", _cmp("NE", S("1")), True),
    ("absent", _cmp("NE", N(1)), True),
    ("absent", _cmp("EQ", N(1)), False),
    # LE / LT / GE / GT on numbers, strings and binary
    ("n", _cmp("LE", N(1)), True),
    ("n", _cmp("LE", N(0)), False),
    ("s", _cmp("LE", S("dog")), True),
    ("b", _cmp("LE", B(b"aardvark")), False),
    ("n", _cmp("LT", N(2)), True),
    ("n", _cmp("LT", N(1)), False),
    ("s", _cmp("LT", S("cat")), False),
    ("b", _cmp("LT", B(b"dog")), True),
    ("n", _cmp("GE", N(1)), True),
    ("n", _cmp("GE", N(3)), False),
    ("s", _cmp("GE", S("aardvark")), True),
    ("b", _cmp("GE", B(b"dog")), False),
    ("n", _cmp("GT", N(0)), True),
    ("n", _cmp("GT", N(1)), False),
    ("s", _cmp("GT", S("dog")), False),
    ("b", _cmp("GT", B(b"aardvark")), True),
    ("n", _cmp("LT", S("17")), False),  # other type: false, not an error
    ("absent", _cmp("GE", N(0)), False),
    # NOT_NULL / NULL test existence (not the NULL type)
    ("n", _cmp("NOT_NULL"), True),
    ("nul", _cmp("NOT_NULL"), True),
    ("absent", _cmp("NOT_NULL"), False),
    ("absent", _cmp("NULL"), True),
    ("n", _cmp("NULL"), False),
    ("nul", _cmp("NULL"), False),
    # CONTAINS / NOT_CONTAINS: substrings and set or list membership
    ("h", _cmp("CONTAINS", S("ell")), True),
    ("h", _cmp("CONTAINS", S("dog")), False),
    ("h", _cmp("CONTAINS", N(1)), False),
    ("ns", _cmp("CONTAINS", N(4)), True),
    ("ns", _cmp("CONTAINS", N(1)), False),
    ("l", _cmp("CONTAINS", N(4)), True),
    ("l", _cmp("CONTAINS", N(1)), False),
    ("bh", _cmp("CONTAINS", B(b"here")), True),
    ("bh", _cmp("CONTAINS", B(b"dog")), False),
    ("absent", _cmp("CONTAINS", N(1)), False),
    ("h", _cmp("NOT_CONTAINS", S("dog")), True),
    ("h", _cmp("NOT_CONTAINS", S("ell")), False),
    ("ns", _cmp("NOT_CONTAINS", N(1)), True),
    ("ns", _cmp("NOT_CONTAINS", N(4)), False),
    ("l", _cmp("NOT_CONTAINS", N(1)), True),
    ("l", _cmp("NOT_CONTAINS", N(4)), False),
    ("bh", _cmp("NOT_CONTAINS", B(b"dog")), True),
    # Unlike NE, NOT_CONTAINS on a missing attribute is false.
    ("absent", _cmp("NOT_CONTAINS", N(1)), False),
    # BEGINS_WITH
    ("h", _cmp("BEGINS_WITH", S("hell")), True),
    ("h", _cmp("BEGINS_WITH", S("dog")), False),
    ("bh", _cmp("BEGINS_WITH", B(b"hi")), True),
    ("n", _cmp("BEGINS_WITH", S("1")), False),
    # IN: the attribute equals one of the values (it is not set membership)
    ("n", _cmp("IN", N(3), N(1), N(8)), True),
    ("n", _cmp("IN", N(2), N(4)), False),
    ("ns", _cmp("IN", N(2)), False),
    ("ns", _cmp("IN", N(1), N(2), N(4), N(7)), False),
    ("s", _cmp("IN", S("dog"), S("cat")), True),
    # BETWEEN (inclusive)
    ("n", _cmp("BETWEEN", N(0), N(2)), True),
    ("n", _cmp("BETWEEN", N(1), N(1)), True),
    ("n", _cmp("BETWEEN", N(2), N(3)), False),
    ("s", _cmp("BETWEEN", S("aardvark"), S("dog")), True),
    ("b", _cmp("BETWEEN", B(b"aardvark"), B(b"dog")), True),
    ("n", _cmp("BETWEEN", S("a"), S("z")), False),
    ("absent", _cmp("BETWEEN", N(0), N(100)), False),
]


@pytest.mark.parametrize(
    "attr,condition,expected",
    COMPARISONS,
    ids=[f"{a}-{c['ComparisonOperator']}-{i}" for i, (a, c, _) in enumerate(COMPARISONS)],
)
def test_expected_comparison_operators(ddb, hash_table, attr, condition, expected):
    pk = _seed(ddb, hash_table, **COMPARE_ITEM)
    assert _passes(ddb, hash_table, pk, {attr: condition}) is expected


def test_expected_value_with_comparison_operator(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=S("x"))
    assert _passes(ddb, hash_table, pk, {"a": {"Value": S("x"), "ComparisonOperator": "EQ"}})
    assert not _passes(ddb, hash_table, pk, {"a": {"Value": S("x"), "ComparisonOperator": "NE"}})


@pytest.mark.parametrize(
    "condition,operator",
    [
        (_cmp("EQ"), "EQ"),
        (_cmp("EQ", N(2), N(3)), "EQ"),
        (_cmp("NE", N(2), N(3)), "NE"),
        (_cmp("LT", N(2), N(3)), "LT"),
        (_cmp("GE", N(2), N(3)), "GE"),
        (_cmp("NULL", S("a")), "NULL"),
        (_cmp("NOT_NULL", N(2)), "NOT_NULL"),
        (_cmp("CONTAINS"), "CONTAINS"),
        (_cmp("NOT_CONTAINS", N(2), N(3)), "NOT_CONTAINS"),
        (_cmp("BEGINS_WITH", S("a"), S("b")), "BEGINS_WITH"),
        (_cmp("IN"), "IN"),
        (_cmp("BETWEEN", N(1), N(10), N(12)), "BETWEEN"),
        (_cmp("BETWEEN", N(1)), "BETWEEN"),
        ({"Value": S("a"), "ComparisonOperator": "BETWEEN"}, "BETWEEN"),
        ({"Value": S("a"), "ComparisonOperator": "NULL"}, "NULL"),
    ],
)
def test_expected_argument_count(ddb, hash_table, condition, operator):
    with expect_error(VE, f"{INVALID}Invalid number of argument(s) for the {operator} ComparisonOperator"):
        ddb.put_item(TableName=hash_table, Item=_key("legacy-args"), Expected={"a": condition})


@pytest.mark.parametrize(
    "operator,value",
    [
        ("LT", {"BOOL": True}),
        ("GE", {"NULL": True}),
        ("GT", {"SS": ["a"]}),
        ("LE", L()),
        ("BEGINS_WITH", N(1)),
        ("BEGINS_WITH", {"BOOL": True}),
        ("CONTAINS", L(N(1))),
        ("NOT_CONTAINS", {"NS": ["1"]}),
        ("IN", {"M": {}}),
    ],
)
def test_expected_value_type_not_valid_for_operator(ddb, hash_table, operator, value):
    type_name = next(iter(value))
    with expect_error(VE, f"{INVALID}ComparisonOperator {operator} is not valid for {type_name} AttributeValue type"):
        ddb.put_item(TableName=hash_table, Item=_key("legacy-types"), Expected={"a": _cmp(operator, value)})


def test_expected_between_needs_two_values_of_one_type_in_order(ddb, hash_table):
    with expect_error(VE, "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"):
        ddb.put_item(TableName=hash_table, Item=_key("legacy-between"), Expected={"a": _cmp("BETWEEN", S("b"), S("a"))})
    with expect_error(VE, f"{INVALID}AttributeValues inside AttributeValueList must be of same type"):
        ddb.put_item(TableName=hash_table, Item=_key("legacy-between"), Expected={"a": _cmp("BETWEEN", N(4), S("dog"))})


def test_expected_in_values_must_share_a_type(ddb, hash_table):
    with expect_error(VE, f"{INVALID}AttributeValues inside AttributeValueList must be of same type"):
        ddb.delete_item(TableName=hash_table, Key=_key("legacy-in"), Expected={"a": _cmp("IN", S("b"), N(1))})


# ===========================================================================
# ConditionalOperator and the three operations
# ===========================================================================


def test_several_expectations_default_to_and(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), b=N(2), c=N(3))
    everything = {"a": {"Exists": True, "Value": N(1)}, "b": _cmp("EQ", N(2)), "d": {"Exists": False}}
    assert _passes(ddb, hash_table, pk, everything)
    assert _passes(ddb, hash_table, pk, everything, "AND")
    one_wrong = {"a": {"Value": N(1)}, "b": _cmp("EQ", N(3)), "d": {"Exists": False}}
    assert not _passes(ddb, hash_table, pk, one_wrong)
    assert not _passes(ddb, hash_table, pk, one_wrong, "AND")


def test_conditional_operator_or(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), b=N(2), c=N(3))
    assert _passes(ddb, hash_table, pk, {"a": {"Value": N(74)}, "b": _cmp("EQ", N(999)), "z": _cmp("NULL")}, "OR")
    assert not _passes(ddb, hash_table, pk, {"a": {"Value": N(74)}, "b": _cmp("EQ", N(999)), "c": {"Exists": False}}, "OR")
    assert _get(ddb, hash_table, pk)["hits"] == N(1)


def test_empty_expected_is_no_condition(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    assert _passes(ddb, hash_table, pk, {})


@pytest.mark.parametrize("operator", ["AND", "OR"])
def test_conditional_operator_needs_expected(ddb, hash_table, operator):
    pk = _seed(ddb, hash_table, a=N(1))
    with expect_error(VE, contains=["ConditionalOperator"]):
        _passes(ddb, hash_table, pk, {}, operator)


def test_expected_on_put_and_delete(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "a": N(2)}, Expected={"a": {"Value": N(1)}})
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "a": N(2)}
    with expect_error(CCF, CCF_MSG):
        ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "a": N(3)}, Expected={"a": {"Value": N(1)}})
    with expect_error(CCF, CCF_MSG):
        ddb.delete_item(TableName=hash_table, Key=_key(pk), Expected={"a": {"Value": N(1)}})
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "a": N(2)}
    resp = ddb.delete_item(TableName=hash_table, Key=_key(pk), Expected={"a": _cmp("GT", N(1))}, ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": S(pk), "a": N(2)}
    assert _get(ddb, hash_table, pk) is None


def test_put_if_absent_with_expected(ddb, hash_table):
    pk = unique_name("legacy")
    ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "v": N(1)}, Expected={"pk": {"Exists": False}})
    with expect_error(CCF, CCF_MSG):
        ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "v": N(2)}, Expected={"pk": {"Exists": False}})
    with expect_error(CCF, CCF_MSG):
        ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "v": N(2)}, Expected={"pk": _cmp("NULL")})
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "v": N(1)}


# ===========================================================================
# Mixing legacy and expression parameters
# ===========================================================================

BOTH = "Can not use both expression and non-expression parameters in the same request: "


def test_put_expected_with_condition_expression(ddb, hash_table):
    with expect_error(VE, BOTH + "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"):
        ddb.put_item(TableName=hash_table, Item=_key("mix"), Expected={"pk": {"Exists": False}},
                     ConditionExpression="attribute_not_exists(pk)")


def test_delete_expected_with_condition_expression(ddb, hash_table):
    with expect_error(VE, BOTH + "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"):
        ddb.delete_item(TableName=hash_table, Key=_key("mix"), Expected={"pk": {"Exists": False}},
                        ConditionExpression="attribute_not_exists(pk)")


@pytest.mark.parametrize(
    "params,legacy,modern",
    [
        (
            dict(AttributeUpdates={"a": {"Value": S("v"), "Action": "PUT"}}, UpdateExpression="SET a = :v",
                 ExpressionAttributeValues={":v": S("v")}),
            "AttributeUpdates",
            "UpdateExpression",
        ),
        (
            dict(Expected={"a": {"Value": N(1)}}, UpdateExpression="SET a = :v", ExpressionAttributeValues={":v": N(2)}),
            "Expected",
            "UpdateExpression",
        ),
        (
            dict(AttributeUpdates={"a": {"Value": N(1), "Action": "PUT"}}, ConditionExpression="a = :old",
                 ExpressionAttributeValues={":old": N(2)}),
            "AttributeUpdates",
            "ConditionExpression",
        ),
        (
            dict(Expected={"a": {"Value": N(1)}}, ConditionExpression="a = :old", ExpressionAttributeValues={":old": N(2)}),
            "Expected",
            "ConditionExpression",
        ),
        (
            dict(AttributeUpdates={"a": {"Value": N(1), "Action": "PUT"}}, Expected={"a": {"Value": N(1)}},
                 UpdateExpression="SET a = :v", ConditionExpression="a = :v", ExpressionAttributeValues={":v": N(2)}),
            "AttributeUpdates, Expected",
            "UpdateExpression, ConditionExpression",
        ),
    ],
    ids=["updates+update-expr", "expected+update-expr", "updates+condition", "expected+condition", "all-four"],
)
def test_update_mixing_parameters(ddb, hash_table, params, legacy, modern):
    with expect_error(VE, BOTH + f"Non-expression parameters: {{{legacy}}} Expression parameters: {{{modern}}}"):
        ddb.update_item(TableName=hash_table, Key=_key("mix"), **params)
    assert _get(ddb, hash_table, "mix") is None


def test_expected_with_expression_attribute_values(ddb, hash_table):
    with expect_error(
        VE,
        "1 validation error detected: ExpressionAttributeValues can only be specified when using expressions",
    ):
        ddb.put_item(TableName=hash_table, Item=_key("mix"), Expected={"a": {"Exists": False}},
                     ExpressionAttributeValues={":v": N(1)})
    with expect_error(VE, "ExpressionAttributeNames can only be specified when using expressions"):
        ddb.put_item(TableName=hash_table, Item=_key("mix"), Expected={"a": {"Exists": False}},
                     ExpressionAttributeNames={"#a": "a"})


# ===========================================================================
# AttributesToGet
# ===========================================================================


def test_attributes_to_get(ddb, hash_table):
    pk = _seed(ddb, hash_table, name=S("alice"), age=N(30), role=S("admin"), m={"M": {"x": N(1)}})
    get = lambda names: ddb.get_item(TableName=hash_table, Key=_key(pk), ConsistentRead=True, AttributesToGet=names)["Item"]
    assert get(["name", "age"]) == {"name": S("alice"), "age": N(30)}
    # Key attributes are not added automatically; absent names are skipped.
    assert get(["role", "nonexistent"]) == {"role": S("admin")}
    assert get(["pk", "m"]) == {"pk": S(pk), "m": {"M": {"x": N(1)}}}
    # Reserved words need no aliasing here.
    assert get(["name"]) == {"name": S("alice")}


def test_attributes_to_get_names_are_not_paths(ddb, hash_table):
    pk = _seed(ddb, hash_table, **{"a.b": S("dotted"), "a": {"M": {"b": S("nested")}}})
    item = ddb.get_item(TableName=hash_table, Key=_key(pk), ConsistentRead=True, AttributesToGet=["a.b"])["Item"]
    assert item == {"a.b": S("dotted")}


def test_attributes_to_get_on_a_missing_item(ddb, hash_table):
    resp = ddb.get_item(TableName=hash_table, Key=_key(unique_name("legacy-absent")), AttributesToGet=["a"])
    assert "Item" not in resp


def test_attributes_to_get_duplicates(ddb, hash_table):
    with expect_error(VE, f"{INVALID}Duplicate value in attribute name: a"):
        ddb.get_item(TableName=hash_table, Key=_key("legacy"), AttributesToGet=["a", "a"])


def test_attributes_to_get_must_not_be_empty(raw, hash_table):
    resp = raw.call("GetItem", {"TableName": hash_table, "Key": _key("legacy"), "AttributesToGet": []})
    check_raw_error(resp, VE, contains=["Member must have length greater than or equal to 1"])


def test_attributes_to_get_with_names(ddb, hash_table):
    with expect_error(VE, "ExpressionAttributeNames can only be specified when using expressions"):
        ddb.get_item(TableName=hash_table, Key=_key("legacy"), AttributesToGet=["a"], ExpressionAttributeNames={"#a": "a"})
