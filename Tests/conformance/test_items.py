"""Data plane (single items): PutItem, GetItem, DeleteItem, UpdateItem (legacy AttributeUpdates).

Expressions, Query/Scan, indexes, batches and transactions are covered elsewhere.
"""

from __future__ import annotations

import base64

import pytest
from botocore.exceptions import ClientError

from ddb_helpers import check_raw_error, expect_error, unique_name

MAX_ITEM_BYTES = 400 * 1024  # 409600: PutItem accepts an item of exactly this size

NOT_FOUND = "Requested resource not found"
KEY_MISMATCH = "The provided key element does not match the schema"
RETURN_VALUES_PUT_DELETE = "ReturnValues can only be ALL_OLD or NONE"


def _body(resp: dict) -> dict:
    """A boto3 response without its ResponseMetadata (i.e. the JSON body)."""
    return {k: v for k, v in resp.items() if k != "ResponseMetadata"}


def _get(ddb, table, key):
    return ddb.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")


def _canonical(value):
    """Make attribute maps comparable: sets are unordered in DynamoDB."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("SS", "NS", "BS") and isinstance(v, list):
                out[k] = sorted(v)
            else:
                out[k] = _canonical(v)
        return out
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def _key(pk):
    return {"pk": {"S": pk}}


# ===========================================================================
# Basic round trips
# ===========================================================================


def test_put_then_get(ddb, hash_table):
    item = {"pk": {"S": "basic"}, "a": {"S": "hello"}, "n": {"N": "42"}}
    resp = ddb.put_item(TableName=hash_table, Item=item)
    assert _body(resp) == {}
    assert ddb.get_item(TableName=hash_table, Key=_key("basic"), ConsistentRead=True)["Item"] == item


def test_put_replaces_the_whole_item(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "replace"}, "a": {"S": "1"}, "b": {"S": "2"}})
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "replace"}, "c": {"S": "3"}})
    assert _get(ddb, hash_table, _key("replace")) == {"pk": {"S": "replace"}, "c": {"S": "3"}}


def test_get_missing_item_has_no_item_key(ddb, hash_table):
    resp = ddb.get_item(TableName=hash_table, Key=_key(unique_name("absent")), ConsistentRead=True)
    assert _body(resp) == {}


def test_get_missing_item_raw_body_is_empty_object(raw, hash_table):
    resp = raw.call("GetItem", {"TableName": hash_table, "Key": _key("definitely-absent")})
    assert resp.status == 200
    assert resp.json() == {}


@pytest.mark.parametrize("consistent", [True, False, None], ids=["strong", "eventual", "default"])
def test_consistent_read_flag_is_accepted(ddb, hash_table, consistent):
    item = {"pk": {"S": "consistent"}, "v": {"S": "x"}}
    ddb.put_item(TableName=hash_table, Item=item)
    kwargs = {} if consistent is None else {"ConsistentRead": consistent}
    resp = ddb.get_item(TableName=hash_table, Key=_key("consistent"), **kwargs)
    if consistent:
        assert resp["Item"] == item
    else:
        # Eventually consistent reads may lag in AWS; if the item is returned it must be intact.
        assert resp.get("Item", item) == item


def test_range_key_items_are_distinct(ddb, range_table):
    a = {"pk": {"S": "h"}, "sk": {"N": "1"}, "v": {"S": "one"}}
    b = {"pk": {"S": "h"}, "sk": {"N": "2"}, "v": {"S": "two"}}
    ddb.put_item(TableName=range_table, Item=a)
    ddb.put_item(TableName=range_table, Item=b)
    assert _get(ddb, range_table, {"pk": {"S": "h"}, "sk": {"N": "1"}}) == a
    assert _get(ddb, range_table, {"pk": {"S": "h"}, "sk": {"N": "2"}}) == b
    assert _get(ddb, range_table, {"pk": {"S": "h"}, "sk": {"N": "3"}}) is None


@pytest.mark.parametrize(
    "stored,lookup,canonical",
    [("1.50", "1.5", "1.5"), ("1e1", "10", "10"), ("+7", "7.000", "7"), ("-0", "0", "0"), ("0.10", "1e-1", "0.1")],
)
def test_number_keys_are_compared_numerically(ddb, range_table, stored, lookup, canonical):
    pk = unique_name("numkey")
    ddb.put_item(TableName=range_table, Item={"pk": {"S": pk}, "sk": {"N": stored}})
    item = _get(ddb, range_table, {"pk": {"S": pk}, "sk": {"N": lookup}})
    assert item == {"pk": {"S": pk}, "sk": {"N": canonical}}


def test_number_hash_key(ddb, number_table):
    ddb.put_item(TableName=number_table, Item={"pk": {"N": "100"}, "v": {"S": "x"}})
    assert _get(ddb, number_table, {"pk": {"N": "1e2"}}) == {"pk": {"N": "100"}, "v": {"S": "x"}}


def test_binary_hash_key(ddb, binary_table):
    key = {"pk": {"B": b"\x00\x01\xfe\xff"}}
    ddb.put_item(TableName=binary_table, Item={**key, "v": {"S": "bin"}})
    assert _get(ddb, binary_table, key) == {**key, "v": {"S": "bin"}}
    assert _get(ddb, binary_table, {"pk": {"B": b"\x00\x01\xfe"}}) is None


def test_binary_range_key(ddb, binary_range_table):
    k1 = {"pk": {"S": "b"}, "sk": {"B": b"\x01"}}
    k2 = {"pk": {"S": "b"}, "sk": {"B": b"\x01\x00"}}
    ddb.put_item(TableName=binary_range_table, Item={**k1, "v": {"N": "1"}})
    ddb.put_item(TableName=binary_range_table, Item={**k2, "v": {"N": "2"}})
    assert _get(ddb, binary_range_table, k1)["v"] == {"N": "1"}
    assert _get(ddb, binary_range_table, k2)["v"] == {"N": "2"}


def test_unicode_keys_and_attribute_names(ddb, hash_table):
    item = {"pk": {"S": "ключ-🔑-鍵"}, "名前": {"S": "值 ✓"}, "emoji🙂": {"N": "1"}}
    ddb.put_item(TableName=hash_table, Item=item)
    assert _get(ddb, hash_table, {"pk": {"S": "ключ-🔑-鍵"}}) == item


# ===========================================================================
# Attribute types
# ===========================================================================


def test_all_ten_attribute_types_round_trip(ddb, hash_table):
    item = {
        "pk": {"S": "types"},
        "s": {"S": "a string"},
        "n": {"N": "-56.789"},
        "b": {"B": b"\x00\xffbinary\x10"},
        "ss": {"SS": ["x", "y", "z"]},
        "ns": {"NS": ["1", "-2.5", "300"]},
        "bs": {"BS": [b"\x01", b"\x02\x03", b"\xff"]},
        "m": {
            "M": {
                "inner": {"S": "v"},
                "num": {"N": "7"},
                "deeper": {"M": {"list": {"L": [{"N": "1"}, {"M": {"x": {"BOOL": False}}}]}}},
                "empty_map": {"M": {}},
            }
        },
        "l": {
            "L": [
                {"S": "a"},
                {"N": "1"},
                {"B": b"\x07"},
                {"BOOL": True},
                {"NULL": True},
                {"SS": ["q"]},
                {"NS": ["9"]},
                {"BS": [b"\x08"]},
                {"L": []},
                {"M": {}},
                {"L": [{"L": [{"S": "nested"}]}]},
            ]
        },
        "null": {"NULL": True},
        "t": {"BOOL": True},
        "f": {"BOOL": False},
    }
    ddb.put_item(TableName=hash_table, Item=item)
    got = _get(ddb, hash_table, _key("types"))
    assert _canonical(got) == _canonical(item)


def test_binary_values_are_base64_on_the_wire(raw, ddb, hash_table):
    data = bytes(range(256))
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "wire-b64"}, "b": {"B": data}, "bs": {"BS": [b"\x00", b"\xff"]}})
    resp = raw.call("GetItem", {"TableName": hash_table, "Key": _key("wire-b64"), "ConsistentRead": True})
    assert resp.status == 200
    item = resp.json()["Item"]
    assert item["b"] == {"B": base64.b64encode(data).decode()}
    assert sorted(item["bs"]["BS"]) == sorted(["AA==", "/w=="])


def test_numbers_are_strings_on_the_wire(raw, ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "wire-n"}, "n": {"N": "12.50"}, "ns": {"NS": ["3"]}})
    item = raw.call("GetItem", {"TableName": hash_table, "Key": _key("wire-n"), "ConsistentRead": True}).json()["Item"]
    assert item["n"] == {"N": "12.5"}
    assert item["ns"] == {"NS": ["3"]}


def test_empty_strings_and_binaries_allowed_outside_keys(ddb, hash_table):
    item = {
        "pk": {"S": "empties"},
        "s": {"S": ""},
        "b": {"B": b""},
        "ss": {"SS": [""]},
        "bs": {"BS": [b""]},
        "m": {"M": {"e": {"S": ""}}},
        "l": {"L": [{"S": ""}, {"B": b""}]},
    }
    ddb.put_item(TableName=hash_table, Item=item)
    assert _get(ddb, hash_table, _key("empties")) == item


def test_null_and_bool_values(ddb, hash_table):
    item = {"pk": {"S": "nullbool"}, "nul": {"NULL": True}, "yes": {"BOOL": True}, "no": {"BOOL": False}}
    ddb.put_item(TableName=hash_table, Item=item)
    assert _get(ddb, hash_table, _key("nullbool")) == item


def test_null_false_is_refused(ddb, hash_table):
    """eu-west-2 and eu-central-1 stored {"NULL": false} as {"NULL": true} on 2026-06-09; on
    2026-10-07 every region refused it again (PutItem: in the 2026 envelope), and so does the
    server, nested or not, and stores nothing."""
    for item in ({"pk": {"S": "nullfalse"}, "a": {"NULL": False}},
                 {"pk": {"S": "nullfalse"}, "m": {"M": {"b": {"NULL": False}}}}):
        with pytest.raises(ClientError) as caught:
            ddb.put_item(TableName=hash_table, Item=item)
        assert caught.value.response["Error"] == {
            "Code": "ValidationException",
            "Message": "1 validation error detected: One or more parameter values were invalid: "
                       "Null attribute value types must have the value of true"}
    assert "Item" not in ddb.get_item(TableName=hash_table, Key=_key("nullfalse"))


@pytest.mark.parametrize(
    "value,message",
    [
        ({"SS": []}, "One or more parameter values were invalid: An string set  may not be empty"),
        ({"NS": []}, "One or more parameter values were invalid: An number set  may not be empty"),
        ({"BS": []}, "One or more parameter values were invalid: Binary sets should not be empty"),
        ({"M": {"x": {"SS": []}}}, "One or more parameter values were invalid: An string set  may not be empty"),
        ({"L": [{"NS": []}]}, "One or more parameter values were invalid: An number set  may not be empty"),
    ],
    ids=["SS", "NS", "BS", "SS-in-map", "NS-in-list"],
)
def test_empty_sets_are_rejected(ddb, hash_table, value, message):
    with expect_error("ValidationException", message):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "emptyset"}, "bad": value})
    assert _get(ddb, hash_table, _key("emptyset")) is None


def test_duplicate_string_set_members_are_rejected(ddb, hash_table):
    with expect_error(
        "ValidationException",
        '1 validation error detected: One or more parameter values were invalid: Input collection ["a", "a"] contains duplicates.',
    ):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "dup"}, "bad": {"SS": ["a", "a"]}})


def test_duplicate_binary_set_members_are_rejected(ddb, hash_table):
    with expect_error(
        "ValidationException",
        '1 validation error detected: '
        'One or more parameter values were invalid: Input collection ["Yg==","Yg=="]of type BS contains duplicates.',
    ):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "dup"}, "bad": {"BS": [b"b", b"b"]}})


@pytest.mark.parametrize("members", [["1", "1"], ["1", "2", "1"], ["-3.5", "0", "-3.5"]])
def test_duplicate_number_set_members_are_rejected(ddb, hash_table, members):
    with expect_error("ValidationException", contains=["contains duplicates"]):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "dup"}, "bad": {"NS": members}})


def test_number_set_members_are_normalized(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "nsnorm"}, "ns": {"NS": ["1.50", "2e1", "+3", "-0.0"]}})
    assert sorted(_get(ddb, hash_table, _key("nsnorm"))["ns"]["NS"]) == sorted(["1.5", "20", "3", "0"])


@pytest.mark.parametrize(
    "value,message",
    [
        ({"S": "a", "N": "1"}, "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"),
        ({}, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ],
    ids=["two-types", "no-type"],
)
def test_attribute_value_must_have_exactly_one_type(raw, hash_table, value, message):
    resp = raw.call("PutItem", {"TableName": hash_table, "Item": {"pk": {"S": "av"}, "bad": value}})
    check_raw_error(resp, "ValidationException", message)


# ===========================================================================
# Numbers
# ===========================================================================

NORMALIZATION = [
    ("1.50", "1.5"),
    ("1e3", "1000"),
    ("1E3", "1000"),
    ("+1000.0", "1000"),
    ("-0", "0"),
    ("0.0", "0"),
    ("+0", "0"),
    ("00042", "42"),
    ("-007.700", "-7.7"),
    ("5.", "5"),
    ("+.5", "0.5"),
    (".25", "0.25"),
    ("1.23E10", "12300000000"),
    ("-0015.789e6", "-15789000"),
    ("1e-5", "0.00001"),
    ("123.456e-2", "1.23456"),
    ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
    ("0000012345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
    ("-00001.23456789012345678901234567890123456780000", "-1.2345678901234567890123456789012345678"),
    ("1" + "0" * 40, "1" + "0" * 40),
    ("0009.99999999999999999999999999999999999990000e125", "9" * 38 + "0" * 88),
    ("-9.9999999999999999999999999999999999999E+125", "-" + "9" * 38 + "0" * 88),
    ("0001.000e-130", "0." + "0" * 129 + "1"),
    ("-1E-130", "-0." + "0" * 129 + "1"),
]


@pytest.mark.parametrize("given,stored", NORMALIZATION, ids=[g[:24] for g, _ in NORMALIZATION])
def test_number_normalization(ddb, hash_table, given, stored):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "numnorm"}, "n": {"N": given}})
    assert _get(ddb, hash_table, _key("numnorm"))["n"] == {"N": stored}


def test_normalized_numbers_in_nested_values(ddb, hash_table):
    ddb.put_item(
        TableName=hash_table,
        Item={"pk": {"S": "numnest"}, "m": {"M": {"a": {"N": "1.0"}, "l": {"L": [{"N": "2e2"}, {"N": "-0.50"}]}}}},
    )
    assert _get(ddb, hash_table, _key("numnest"))["m"] == {
        "M": {"a": {"N": "1"}, "l": {"L": [{"N": "200"}, {"N": "-0.5"}]}}
    }


DIGITS = "Attempting to store more than 38 significant digits in a Number"
OVERFLOW = "Number overflow. Attempting to store a number with magnitude larger than supported range"
UNDERFLOW = "Number underflow. Attempting to store a number with magnitude smaller than supported range"

NUMBER_ERRORS = [
    ("123456789012345678901234567890123456789", DIGITS, ()),
    ("-1.23456789012345678901234567890123456789", DIGITS, ()),
    ("1.000000000000000000000000000000000000001", DIGITS, ()),
    ("1e126", OVERFLOW, ()),
    ("-1e126", OVERFLOW, ()),
    ("10" + "0" * 125, OVERFLOW, ()),
    ("1e-131", UNDERFLOW, ()),
    ("-1e-131", UNDERFLOW, ()),
    ("abc", "The parameter cannot be converted to a numeric value: abc", ()),
    ("1.2.3", "The parameter cannot be converted to a numeric value: 1.2.3", ()),
    # No trailing ": " for an empty string (the 2026-10 recordings; us-east-1 had one on 2026-08-12).
    ("", "The parameter cannot be converted to a numeric value", ()),
]


@pytest.mark.parametrize(
    "value,message,alternatives", NUMBER_ERRORS, ids=[v[:20] or "empty" for v, _, _ in NUMBER_ERRORS]
)
def test_invalid_numbers_are_rejected(ddb, hash_table, value, message, alternatives):
    with expect_error("ValidationException", message, alternatives=alternatives):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "badnum"}, "n": {"N": value}})


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", " 5", "5 ", "0x10", "1e", "e5", "++1", "1+2", "1,5"])
def test_non_numeric_strings_are_rejected(ddb, hash_table, value):
    with expect_error("ValidationException", contains=["The parameter cannot be converted to a numeric value"]):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "badnum"}, "n": {"N": value}})


def test_invalid_number_inside_a_number_set(ddb, hash_table):
    with expect_error("ValidationException", "The parameter cannot be converted to a numeric value: b"):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "badnum"}, "ns": {"NS": ["1", "b"]}})


def test_invalid_number_inside_nested_values(ddb, hash_table):
    with expect_error("ValidationException", OVERFLOW):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "badnum"}, "m": {"M": {"l": {"L": [{"N": "1e200"}]}}}})


def test_invalid_number_in_a_key(ddb, number_table):
    with expect_error("ValidationException", "The parameter cannot be converted to a numeric value: x1"):
        ddb.get_item(TableName=number_table, Key={"pk": {"N": "x1"}})
    with expect_error("ValidationException", DIGITS):
        ddb.put_item(TableName=number_table, Item={"pk": {"N": "1234567890123456789012345678901234567890.1"}})


def test_number_errors_are_reported_before_table_lookup(ddb):
    # Request validation happens before the table is resolved.
    with expect_error("ValidationException", OVERFLOW):
        ddb.put_item(TableName=unique_name("missing"), Item={"pk": {"S": "a"}, "n": {"N": "1e126"}})


# ===========================================================================
# Keys
# ===========================================================================


@pytest.mark.parametrize("item", [{}, {"other": {"S": "x"}}, {"PK": {"S": "case matters"}}], ids=["empty", "other", "case"])
def test_put_missing_hash_key(ddb, hash_table, item):
    with expect_error("ValidationException", "One or more parameter values were invalid: Missing the key pk in the item"):
        ddb.put_item(TableName=hash_table, Item=item)


def test_put_missing_range_key(ddb, range_table):
    with expect_error("ValidationException", "One or more parameter values were invalid: Missing the key sk in the item"):
        ddb.put_item(TableName=range_table, Item={"pk": {"S": "a"}, "v": {"S": "x"}})


@pytest.mark.parametrize(
    "value",
    [{"N": "1"}, {"B": b"ab"}, {"BOOL": True}, {"NULL": True}, {"SS": ["a"]}, {"NS": ["1"]}, {"BS": [b"a"]}, {"M": {}}, {"L": []}],
    ids=lambda v: next(iter(v)),
)
def test_put_hash_key_type_mismatch(ddb, hash_table, value):
    actual = next(iter(value))
    with expect_error(
        "ValidationException",
        f"One or more parameter values were invalid: Type mismatch for key pk expected: S actual: {actual}",
    ):
        ddb.put_item(TableName=hash_table, Item={"pk": value})


def test_put_range_key_type_mismatch(ddb, range_table):
    with expect_error(
        "ValidationException", "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S"
    ):
        ddb.put_item(TableName=range_table, Item={"pk": {"S": "a"}, "sk": {"S": "1"}})


EMPTY_S_KEY = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: {}"
EMPTY_B_KEY = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: {}"


def test_put_empty_string_hash_key(ddb, hash_table):
    with expect_error("ValidationException", EMPTY_S_KEY.format("pk")):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": ""}, "v": {"S": "x"}})


def test_put_empty_binary_range_key(ddb, binary_range_table):
    with expect_error("ValidationException", EMPTY_B_KEY.format("sk")):
        ddb.put_item(TableName=binary_range_table, Item={"pk": {"S": "a"}, "sk": {"B": b""}})


def test_put_empty_binary_hash_key(ddb, binary_table):
    with expect_error("ValidationException", EMPTY_B_KEY.format("pk")):
        ddb.put_item(TableName=binary_table, Item={"pk": {"B": b""}})


@pytest.mark.parametrize("operation", ["get", "delete", "update"])
def test_empty_string_key_in_key_parameter(ddb, hash_table, operation):
    call = {
        "get": lambda: ddb.get_item(TableName=hash_table, Key={"pk": {"S": ""}}),
        "delete": lambda: ddb.delete_item(TableName=hash_table, Key={"pk": {"S": ""}}),
        "update": lambda: ddb.update_item(TableName=hash_table, Key={"pk": {"S": ""}}),
    }[operation]
    with expect_error("ValidationException", EMPTY_S_KEY.format("pk")):
        call()


def test_empty_binary_key_in_key_parameter(ddb, binary_table):
    with expect_error("ValidationException", EMPTY_B_KEY.format("pk")):
        ddb.get_item(TableName=binary_table, Key={"pk": {"B": b""}})


KEY_SHAPES = {
    "empty": {},
    "wrong-name": {"other": {"S": "a"}},
    "extra-attribute": {"pk": {"S": "a"}, "extra": {"S": "b"}},
    "number-for-string": {"pk": {"N": "1"}},
    "binary-for-string": {"pk": {"B": b"a"}},
    "set-for-string": {"pk": {"SS": ["a"]}},
    "bool-for-string": {"pk": {"BOOL": True}},
    "null-for-string": {"pk": {"NULL": True}},
    "map-for-string": {"pk": {"M": {}}},
    "list-for-string": {"pk": {"L": []}},
}


@pytest.mark.parametrize("shape", sorted(KEY_SHAPES))
@pytest.mark.parametrize("operation", ["get", "delete", "update"])
def test_key_must_match_schema(ddb, hash_table, operation, shape):
    key = KEY_SHAPES[shape]
    call = {
        "get": lambda: ddb.get_item(TableName=hash_table, Key=key),
        "delete": lambda: ddb.delete_item(TableName=hash_table, Key=key),
        "update": lambda: ddb.update_item(TableName=hash_table, Key=key),
    }[operation]
    with expect_error("ValidationException", KEY_MISMATCH):
        call()


@pytest.mark.parametrize(
    "key",
    [{"pk": {"S": "a"}}, {"sk": {"N": "1"}}, {"pk": {"S": "a"}, "sk": {"S": "1"}}, {"pk": {"S": "a"}, "sk": {"N": "1"}, "x": {"N": "1"}}],
    ids=["missing-range", "missing-hash", "range-wrong-type", "extra"],
)
def test_composite_key_must_match_schema(ddb, range_table, key):
    with expect_error("ValidationException", KEY_MISMATCH):
        ddb.get_item(TableName=range_table, Key=key)


def test_hash_key_size_limit(ddb, hash_table):
    ok = "k" * 2048
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": ok}})
    assert _get(ddb, hash_table, {"pk": {"S": ok}}) == {"pk": {"S": ok}}
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes",
    ):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "k" * 2049}})


def test_hash_key_size_is_measured_in_utf8_bytes(ddb, hash_table):
    with expect_error("ValidationException", contains=["Size of hashkey has exceeded the maximum size limit of"]):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "é" * 1025}})  # 1025 chars, 2050 bytes


def test_range_key_size_limit(ddb, make_table):
    table = make_table(("pk", "S"), ("sk", "S"))
    ddb.put_item(TableName=table, Item={"pk": {"S": "a"}, "sk": {"S": "r" * 1024}})
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes",
    ):
        ddb.put_item(TableName=table, Item={"pk": {"S": "a"}, "sk": {"S": "r" * 1025}})


def test_key_size_limits_apply_to_get(ddb, hash_table):
    with expect_error("ValidationException", contains=["Size of hashkey has exceeded the maximum size limit of"]):
        ddb.get_item(TableName=hash_table, Key={"pk": {"S": "k" * 2049}})


# ===========================================================================
# Item size
# ===========================================================================


def _sized_item(pk: str, total: int) -> dict:
    """An item whose DynamoDB size (attribute name bytes + value bytes) is exactly `total`."""
    overhead = len("pk") + len(pk.encode()) + len("data")
    return {"pk": {"S": pk}, "data": {"S": "a" * (total - overhead)}}


def test_item_of_exactly_400kb_is_accepted(ddb, hash_table):
    item = _sized_item("size-ok", MAX_ITEM_BYTES)
    ddb.put_item(TableName=hash_table, Item=item)
    assert _get(ddb, hash_table, _key("size-ok")) == item


def test_item_over_400kb_is_rejected(ddb, hash_table):
    with expect_error("ValidationException", "Item size has exceeded the maximum allowed size"):
        ddb.put_item(TableName=hash_table, Item=_sized_item("size-big", MAX_ITEM_BYTES + 1))
    assert _get(ddb, hash_table, _key("size-big")) is None


def test_item_size_counts_attribute_names(ddb, hash_table):
    name = "n" * 1000
    filler = MAX_ITEM_BYTES - (len("pk") + len("size-names") + len(name)) + 1
    with expect_error("ValidationException", "Item size has exceeded the maximum allowed size"):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "size-names"}, name: {"S": "a" * filler}})


def test_item_size_counts_utf8_bytes(ddb, hash_table):
    # 210,000 characters but 420,000 bytes.
    with expect_error("ValidationException", "Item size has exceeded the maximum allowed size"):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "size-utf8"}, "data": {"S": "é" * 210_000}})


def test_item_size_counts_binary_bytes(ddb, hash_table):
    with expect_error("ValidationException", "Item size has exceeded the maximum allowed size"):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "size-bin"}, "data": {"B": b"\x00" * MAX_ITEM_BYTES}})


# ===========================================================================
# Missing tables
# ===========================================================================


@pytest.mark.parametrize("operation", ["put", "get", "delete", "update"])
def test_item_operations_on_missing_table(ddb, operation):
    table = unique_name("missing")
    call = {
        "put": lambda: ddb.put_item(TableName=table, Item=_key("a")),
        "get": lambda: ddb.get_item(TableName=table, Key=_key("a")),
        "delete": lambda: ddb.delete_item(TableName=table, Key=_key("a")),
        "update": lambda: ddb.update_item(TableName=table, Key=_key("a")),
    }[operation]
    with expect_error("ResourceNotFoundException", NOT_FOUND):
        call()


def test_resource_not_found_raw_body(raw):
    resp = raw.call("GetItem", {"TableName": unique_name("missing"), "Key": _key("a")})
    assert resp.status == 400
    assert resp.json() == {
        "__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
        "message": NOT_FOUND,
    }


# ===========================================================================
# ReturnValues
# ===========================================================================


def test_put_return_values_all_old(ddb, hash_table):
    pk = unique_name("rv")
    first = ddb.put_item(TableName=hash_table, Item={"pk": {"S": pk}, "n": {"N": "-0015.789e6"}}, ReturnValues="ALL_OLD")
    assert "Attributes" not in first
    second = ddb.put_item(TableName=hash_table, Item={"pk": {"S": pk}, "n": {"S": "new"}}, ReturnValues="ALL_OLD")
    assert second["Attributes"] == {"pk": {"S": pk}, "n": {"N": "-15789000"}}


def test_put_return_values_none(ddb, hash_table):
    pk = unique_name("rv")
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": pk}})
    resp = ddb.put_item(TableName=hash_table, Item={"pk": {"S": pk}, "x": {"S": "y"}}, ReturnValues="NONE")
    assert _body(resp) == {}


@pytest.mark.parametrize("rv", ["UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"])
def test_put_rejects_other_return_values(ddb, hash_table, rv):
    with expect_error("ValidationException", RETURN_VALUES_PUT_DELETE):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "rv-bad"}}, ReturnValues=rv)
    assert _get(ddb, hash_table, _key("rv-bad")) is None


@pytest.mark.parametrize("rv", ["UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"])
def test_delete_rejects_other_return_values(ddb, hash_table, rv):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "rv-del-bad"}})
    with expect_error("ValidationException", RETURN_VALUES_PUT_DELETE):
        ddb.delete_item(TableName=hash_table, Key=_key("rv-del-bad"), ReturnValues=rv)
    assert _get(ddb, hash_table, _key("rv-del-bad")) is not None


ENUM_RETURN_VALUES = (
    "1 validation error detected: Value 'INVALID' at 'returnValues' failed to satisfy constraint: "
    "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
)
ENUM_RETURN_VALUES_2026 = (
    "1 validation error detected: Failed to satisfy constraint: Member must satisfy enum value set: "
    "[ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]"
)


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_return_values_outside_the_enum(ddb, hash_table, operation):
    call = {
        "put": lambda: ddb.put_item(TableName=hash_table, Item=_key("rv-enum"), ReturnValues="INVALID"),
        "delete": lambda: ddb.delete_item(TableName=hash_table, Key=_key("rv-enum"), ReturnValues="INVALID"),
        "update": lambda: ddb.update_item(TableName=hash_table, Key=_key("rv-enum"), ReturnValues="INVALID"),
    }[operation]
    with expect_error("ValidationException", ENUM_RETURN_VALUES, alternatives=[ENUM_RETURN_VALUES_2026]):
        call()


# ===========================================================================
# DeleteItem
# ===========================================================================


def test_delete_item(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "del"}, "v": {"S": "x"}})
    resp = ddb.delete_item(TableName=hash_table, Key=_key("del"))
    assert _body(resp) == {}
    assert _get(ddb, hash_table, _key("del")) is None


def test_delete_missing_item_succeeds(ddb, hash_table):
    resp = ddb.delete_item(TableName=hash_table, Key=_key(unique_name("never")), ReturnValues="ALL_OLD")
    assert _body(resp) == {}


def test_delete_return_values_all_old(ddb, hash_table):
    item = {"pk": {"S": "del-old"}, "v": {"SS": ["a", "b"]}, "n": {"N": "1.10"}}
    ddb.put_item(TableName=hash_table, Item=item)
    resp = ddb.delete_item(TableName=hash_table, Key=_key("del-old"), ReturnValues="ALL_OLD")
    assert _canonical(resp["Attributes"]) == _canonical({**item, "n": {"N": "1.1"}})
    assert _get(ddb, hash_table, _key("del-old")) is None


def test_delete_with_range_key_only_removes_that_item(ddb, range_table):
    ddb.put_item(TableName=range_table, Item={"pk": {"S": "delr"}, "sk": {"N": "1"}})
    ddb.put_item(TableName=range_table, Item={"pk": {"S": "delr"}, "sk": {"N": "2"}})
    ddb.delete_item(TableName=range_table, Key={"pk": {"S": "delr"}, "sk": {"N": "1.0"}})
    assert _get(ddb, range_table, {"pk": {"S": "delr"}, "sk": {"N": "1"}}) is None
    assert _get(ddb, range_table, {"pk": {"S": "delr"}, "sk": {"N": "2"}}) is not None


# ===========================================================================
# UpdateItem with legacy AttributeUpdates
# ===========================================================================


def test_update_with_only_a_key_creates_the_item(ddb, hash_table):
    pk = unique_name("upd")
    resp = ddb.update_item(TableName=hash_table, Key=_key(pk))
    assert _body(resp) == {}
    assert _get(ddb, hash_table, _key(pk)) == _key(pk)


def test_update_put_creates_and_replaces_attributes(ddb, hash_table):
    pk = unique_name("upd")
    ddb.update_item(
        TableName=hash_table,
        Key=_key(pk),
        AttributeUpdates={"a": {"Action": "PUT", "Value": {"S": "1"}}, "b": {"Value": {"N": "2"}}},
    )
    assert _get(ddb, hash_table, _key(pk)) == {"pk": {"S": pk}, "a": {"S": "1"}, "b": {"N": "2"}}
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"a": {"Value": {"L": [{"S": "x"}]}}})
    assert _get(ddb, hash_table, _key(pk)) == {"pk": {"S": pk}, "a": {"L": [{"S": "x"}]}, "b": {"N": "2"}}


def test_update_add_numbers(ddb, hash_table):
    pk = unique_name("upd")
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"n": {"Action": "ADD", "Value": {"N": "5"}}})
    assert _get(ddb, hash_table, _key(pk))["n"] == {"N": "5"}
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"n": {"Action": "ADD", "Value": {"N": "-7.5"}}})
    assert _get(ddb, hash_table, _key(pk))["n"] == {"N": "-2.5"}
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"n": {"Action": "ADD", "Value": {"N": "2.5"}}})
    assert _get(ddb, hash_table, _key(pk))["n"] == {"N": "0"}


def test_update_add_decimal_precision(ddb, hash_table):
    pk = unique_name("upd")
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"n": {"Value": {"N": "0.1"}}})
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"n": {"Action": "ADD", "Value": {"N": "0.2"}}})
    assert _get(ddb, hash_table, _key(pk))["n"] == {"N": "0.3"}


def test_update_add_to_sets(ddb, hash_table):
    pk = unique_name("upd")
    ddb.update_item(
        TableName=hash_table,
        Key=_key(pk),
        AttributeUpdates={
            "ss": {"Value": {"SS": ["a", "b"]}},
            "ns": {"Value": {"NS": ["1", "2"]}},
            "bs": {"Value": {"BS": [b"\x01", b"\x02"]}},
        },
    )
    ddb.update_item(
        TableName=hash_table,
        Key=_key(pk),
        AttributeUpdates={
            "ss": {"Action": "ADD", "Value": {"SS": ["b", "c", "d"]}},
            "ns": {"Action": "ADD", "Value": {"NS": ["2", "3", "4"]}},
            "bs": {"Action": "ADD", "Value": {"BS": [b"\x02", b"\x03"]}},
            "new": {"Action": "ADD", "Value": {"SS": ["z"]}},
        },
    )
    item = _get(ddb, hash_table, _key(pk))
    assert sorted(item["ss"]["SS"]) == ["a", "b", "c", "d"]
    assert sorted(item["ns"]["NS"], key=float) == ["1", "2", "3", "4"]
    assert sorted(item["bs"]["BS"]) == [b"\x01", b"\x02", b"\x03"]
    assert item["new"] == {"SS": ["z"]}


def test_update_delete_from_sets(ddb, hash_table):
    pk = unique_name("upd")
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"ns": {"Value": {"NS": ["1", "2", "3"]}}, "c": {"Value": {"S": "keep"}}})
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"ns": {"Action": "DELETE", "Value": {"NS": ["1", "4"]}}})
    assert sorted(_get(ddb, hash_table, _key(pk))["ns"]["NS"]) == ["2", "3"]
    # Removing the last members removes the attribute: sets are never empty.
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"ns": {"Action": "DELETE", "Value": {"NS": ["2", "3"]}}})
    assert _get(ddb, hash_table, _key(pk)) == {"pk": {"S": pk}, "c": {"S": "keep"}}


def test_update_delete_without_value_removes_attribute(ddb, hash_table):
    pk = unique_name("upd")
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": pk}, "a": {"S": "x"}, "b": {"M": {"c": {"N": "1"}}}})
    ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"a": {"Action": "DELETE"}, "b": {"Action": "DELETE"}})
    assert _get(ddb, hash_table, _key(pk)) == {"pk": {"S": pk}}


def test_update_on_missing_item_ignores_deletes(ddb, hash_table):
    pk = unique_name("upd")
    resp = ddb.update_item(
        TableName=hash_table,
        Key=_key(pk),
        AttributeUpdates={
            "b": {"Action": "DELETE"},
            "c": {"Action": "DELETE", "Value": {"SS": ["a", "b"]}},
            "d": {"Action": "ADD", "Value": {"N": "5"}},
            "e": {"Action": "ADD", "Value": {"SS": ["a", "b"]}},
        },
        ReturnValues="UPDATED_NEW",
    )
    assert _canonical(resp["Attributes"]) == {"d": {"N": "5"}, "e": {"SS": ["a", "b"]}}
    assert _canonical(_get(ddb, hash_table, _key(pk))) == {"pk": {"S": pk}, "d": {"N": "5"}, "e": {"SS": ["a", "b"]}}


def _seed(ddb, table, pk):
    ddb.put_item(TableName=table, Item={"pk": {"S": pk}, "a": {"S": "old-a"}, "b": {"N": "1"}, "c": {"S": "untouched"}})


def _updates():
    return {"a": {"Value": {"S": "new-a"}}, "b": {"Action": "ADD", "Value": {"N": "2"}}, "d": {"Value": {"BOOL": True}}}


def test_update_return_values_none(ddb, hash_table):
    pk = unique_name("urv")
    _seed(ddb, hash_table, pk)
    resp = ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates=_updates(), ReturnValues="NONE")
    assert _body(resp) == {}


def test_update_return_values_all_old(ddb, hash_table):
    pk = unique_name("urv")
    _seed(ddb, hash_table, pk)
    resp = ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates=_updates(), ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": {"S": pk}, "a": {"S": "old-a"}, "b": {"N": "1"}, "c": {"S": "untouched"}}


def test_update_return_values_updated_old(ddb, hash_table):
    pk = unique_name("urv")
    _seed(ddb, hash_table, pk)
    resp = ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates=_updates(), ReturnValues="UPDATED_OLD")
    # Only attributes that existed before and were updated; "d" is new.
    assert resp["Attributes"] == {"a": {"S": "old-a"}, "b": {"N": "1"}}


def test_update_return_values_all_new(ddb, hash_table):
    pk = unique_name("urv")
    _seed(ddb, hash_table, pk)
    resp = ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates=_updates(), ReturnValues="ALL_NEW")
    expected = {"pk": {"S": pk}, "a": {"S": "new-a"}, "b": {"N": "3"}, "c": {"S": "untouched"}, "d": {"BOOL": True}}
    assert resp["Attributes"] == expected
    assert _get(ddb, hash_table, _key(pk)) == expected


def test_update_return_values_updated_new(ddb, hash_table):
    pk = unique_name("urv")
    _seed(ddb, hash_table, pk)
    resp = ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates=_updates(), ReturnValues="UPDATED_NEW")
    assert resp["Attributes"] == {"a": {"S": "new-a"}, "b": {"N": "3"}, "d": {"BOOL": True}}


def test_update_return_values_on_new_item(ddb, hash_table):
    pk = unique_name("urv")
    old = ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"a": {"Value": {"S": "1"}}}, ReturnValues="ALL_OLD")
    assert "Attributes" not in old
    pk2 = unique_name("urv")
    new = ddb.update_item(TableName=hash_table, Key=_key(pk2), AttributeUpdates={"a": {"Value": {"S": "1"}}}, ReturnValues="ALL_NEW")
    assert new["Attributes"] == {"pk": {"S": pk2}, "a": {"S": "1"}}


@pytest.mark.parametrize("action", ["PUT", "ADD", "DELETE"])
def test_update_cannot_touch_hash_key(ddb, hash_table, action):
    value = {"SS": ["x"]} if action == "DELETE" else ({"N": "1"} if action == "ADD" else {"S": "other"})
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key",
    ):
        ddb.update_item(TableName=hash_table, Key=_key("keyupd"), AttributeUpdates={"pk": {"Action": action, "Value": value}})


def test_update_cannot_touch_range_key(ddb, range_table):
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key",
    ):
        ddb.update_item(
            TableName=range_table,
            Key={"pk": {"S": "a"}, "sk": {"N": "1"}},
            AttributeUpdates={"v": {"Value": {"S": "x"}}, "sk": {"Value": {"N": "2"}}},
        )


@pytest.mark.parametrize("value", [{"S": "1"}, {"B": b"b"}, {"BOOL": True}, {"NULL": True}, {"M": {}}], ids=lambda v: next(iter(v)))
def test_update_add_unsupported_type(ddb, hash_table, value):
    with expect_error(
        "ValidationException",
        f"One or more parameter values were invalid: ADD action is not supported for the type {next(iter(value))}",
    ):
        ddb.update_item(TableName=hash_table, Key=_key("addbad"), AttributeUpdates={"x": {"Action": "ADD", "Value": value}})


@pytest.mark.parametrize(
    "value", [{"S": "1"}, {"N": "1"}, {"B": b"b"}, {"BOOL": True}, {"NULL": True}, {"M": {}}, {"L": []}], ids=lambda v: next(iter(v))
)
def test_update_delete_with_non_set_value(ddb, hash_table, value):
    with expect_error(
        "ValidationException",
        f"One or more parameter values were invalid: DELETE action with value is not supported for the type {next(iter(value))}",
    ):
        ddb.update_item(TableName=hash_table, Key=_key("delbad"), AttributeUpdates={"x": {"Action": "DELETE", "Value": value}})


@pytest.mark.parametrize("action", ["PUT", "ADD", None])
def test_update_without_value_only_for_delete(ddb, hash_table, action):
    update = {} if action is None else {"Action": action}
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified",
    ):
        ddb.update_item(TableName=hash_table, Key=_key("noval"), AttributeUpdates={"x": update})


@pytest.mark.parametrize(
    "existing,update",
    [
        ({"SS": ["1"]}, {"Action": "ADD", "Value": {"NS": ["1"]}}),
        ({"SS": ["1"]}, {"Action": "DELETE", "Value": {"NS": ["1"]}}),
        ({"SS": ["1"]}, {"Action": "DELETE", "Value": {"BS": [b"a"]}}),
        ({"N": "1"}, {"Action": "DELETE", "Value": {"NS": ["1"]}}),
        ({"NS": ["1"]}, {"Action": "ADD", "Value": {"N": "1"}}),
    ],
    ids=["add-NS-to-SS", "delete-NS-from-SS", "delete-BS-from-SS", "delete-NS-from-N", "add-N-to-NS"],
)
def test_update_type_mismatch(ddb, hash_table, existing, update):
    pk = unique_name("mismatch")
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": pk}, "x": existing})
    with expect_error("ValidationException", "Type mismatch for attribute to update"):
        ddb.update_item(TableName=hash_table, Key=_key(pk), AttributeUpdates={"x": update})
    assert _get(ddb, hash_table, _key(pk))["x"] == existing


def test_update_validates_values(ddb, hash_table):
    with expect_error("ValidationException", "One or more parameter values were invalid: An string set  may not be empty"):
        ddb.update_item(TableName=hash_table, Key=_key("updval"), AttributeUpdates={"x": {"Value": {"SS": []}}})
    with expect_error("ValidationException", OVERFLOW):
        ddb.update_item(TableName=hash_table, Key=_key("updval"), AttributeUpdates={"x": {"Action": "ADD", "Value": {"N": "1e126"}}})
    assert _get(ddb, hash_table, _key("updval")) is None


def test_update_preserves_other_attributes_and_key(ddb, range_table):
    key = {"pk": {"S": "upd-range"}, "sk": {"N": "5"}}
    ddb.put_item(TableName=range_table, Item={**key, "a": {"S": "1"}, "b": {"S": "2"}})
    ddb.update_item(TableName=range_table, Key={"pk": {"S": "upd-range"}, "sk": {"N": "5.0"}}, AttributeUpdates={"b": {"Value": {"S": "3"}}})
    assert _get(ddb, range_table, key) == {**key, "a": {"S": "1"}, "b": {"S": "3"}}


def _nested(wrappers: int) -> dict:
    value = {"S": "leaf"}
    for level in range(wrappers):
        value = {"M": {"x": value}} if level % 2 else {"L": [value]}
    return value


def test_nesting_limit_is_32_levels(ddb, hash_table):
    """31 maps/lists above a scalar are stored; 32 are refused (DynamoDB's 32-level limit)."""
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "deep-ok"}, "d": _nested(31)})
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "deep-ok"}})["Item"]["d"] == _nested(31)
    with expect_error("ValidationException",
                      "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": "deep-bad"}, "d": _nested(32)})
