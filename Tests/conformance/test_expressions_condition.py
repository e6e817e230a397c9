"""ConditionExpression on PutItem / DeleteItem / UpdateItem.

Behaviour and messages are those of real DynamoDB, as recorded by suites that
were run against it (ScyllaDB's alternator tests, dynalite's tests, the
nubo-db dynamodb-conformance captures) and by error texts users reported from
the service. Where only part of a message is established, the test checks the
error code and that part.
"""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from ddb_helpers import check_raw_error, expect_error, unique_name, wire_type

CCF = "ConditionalCheckFailedException"
CCF_MSG = "The conditional request failed"
VE = "ValidationException"


# ---------------------------------------------------------------------------
# Small helpers (typed attribute values, item access)
# ---------------------------------------------------------------------------


def N(x) -> dict:
    return {"N": str(x)}


def S(x: str) -> dict:
    return {"S": x}


def B(x: bytes) -> dict:
    return {"B": x}


def L(*xs) -> dict:
    return {"L": list(xs)}


def M(**kw) -> dict:
    return {"M": dict(kw)}


def _key(pk: str) -> dict:
    return {"pk": {"S": pk}}


def _get(ddb, table, pk):
    return ddb.get_item(TableName=table, Key=_key(pk), ConsistentRead=True).get("Item")


def _canon(value):
    """Make attribute maps comparable: set members are unordered."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("SS", "NS", "BS") and isinstance(v, list):
                out[k] = sorted(v)
            else:
                out[k] = _canon(v)
        return out
    if isinstance(value, list):
        return [_canon(v) for v in value]
    return value


def _seed(ddb, table, **attrs) -> str:
    """Put a fresh item with the given (typed) attributes; returns its key value."""
    pk = unique_name("cond")
    ddb.put_item(TableName=table, Item={"pk": S(pk), **attrs})
    return pk


def _holds(ddb, table, pk, condition, values=None, names=None) -> bool:
    """Run an UpdateItem guarded by `condition` against item `pk`.

    Returns True when the update was applied and False when DynamoDB answered
    ConditionalCheckFailedException (whose message is checked). Any other error
    propagates.
    """
    params = dict(
        TableName=table,
        Key=_key(pk),
        UpdateExpression="ADD cond_hits :cond_one",
        ConditionExpression=condition,
        ExpressionAttributeValues={":cond_one": N(1), **(values or {})},
    )
    if names:
        params["ExpressionAttributeNames"] = names
    try:
        ddb.update_item(**params)
    except ClientError as e:
        err = e.response["Error"]
        if err.get("Code") == CCF:
            assert err.get("Message") == CCF_MSG
            return False
        raise
    return True


def _update_error(ddb, table, condition, values=None, names=None, pk=None):
    """UpdateItem with only a condition; used by tests that expect an error."""
    params = dict(
        TableName=table,
        Key=_key(pk or "cond-error"),
        UpdateExpression="SET touched = :touched",
        ConditionExpression=condition,
        ExpressionAttributeValues={":touched": N(1), **(values or {})},
    )
    if names:
        params["ExpressionAttributeNames"] = names
    return ddb.update_item(**params)


ALL_TYPES = {
    "S": S("hello"),
    "N": N("42.5"),
    "B": B(b"\x00xyz\xff"),
    "BOOL": {"BOOL": True},
    "NULL": {"NULL": True},
    "L": L(S("hello"), N(42)),
    "M": M(hello=S("world"), n=N(1)),
    "SS": {"SS": ["hello", "world"]},
    "NS": {"NS": ["1", "2", "3"]},
    "BS": {"BS": [b"xyz", b"hi"]},
}


# ===========================================================================
# Comparators: = and <>
# ===========================================================================


@pytest.mark.parametrize("type_name", sorted(ALL_TYPES))
def test_equality_holds_for_every_type(ddb, hash_table, type_name):
    value = ALL_TYPES[type_name]
    pk = _seed(ddb, hash_table, a=value, b=value)
    assert _holds(ddb, hash_table, pk, "a = :v", {":v": value})
    assert _holds(ddb, hash_table, pk, "a = b")
    assert not _holds(ddb, hash_table, pk, "a <> :v", {":v": value})
    assert not _holds(ddb, hash_table, pk, "a <> b")


@pytest.mark.parametrize(
    "stored,given",
    [
        (N(1), S("1")),
        (S("xyz"), B(b"xyz")),
        (N(1), {"BOOL": True}),
        ({"BOOL": False}, {"NULL": True}),
        ({"SS": ["1", "2"]}, {"NS": ["1", "2"]}),
        ({"NS": ["1", "2"]}, L(N(1), N(2))),
        (L(S("a")), {"SS": ["a"]}),
        (M(a=S("b")), L(S("b"))),
        ({"BS": [b"a"]}, {"SS": ["a"]}),
    ],
    ids=["N-vs-S", "S-vs-B", "N-vs-BOOL", "BOOL-vs-NULL", "SS-vs-NS", "NS-vs-L", "L-vs-SS", "M-vs-L", "BS-vs-SS"],
)
def test_values_of_different_types_are_never_equal(ddb, hash_table, stored, given):
    pk = _seed(ddb, hash_table, a=stored)
    assert not _holds(ddb, hash_table, pk, "a = :v", {":v": given})
    assert _holds(ddb, hash_table, pk, "a <> :v", {":v": given})


def test_equality_of_same_type_different_value(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), s=S("cat"))
    assert not _holds(ddb, hash_table, pk, "a = :v", {":v": N(2)})
    assert _holds(ddb, hash_table, pk, "a <> :v", {":v": N(2)})
    assert not _holds(ddb, hash_table, pk, "s = :v", {":v": S("Cat")})


def test_numbers_compare_by_value_not_text(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N("1.50"), big=N("1e3"))
    assert _holds(ddb, hash_table, pk, "a = :v", {":v": N("1.5000")})
    assert _holds(ddb, hash_table, pk, "big = :v", {":v": N("1000")})
    assert _holds(ddb, hash_table, pk, "a < :v", {":v": N("10")})  # textually "1.5" > "10"


def test_set_equality_ignores_member_order(ddb, hash_table):
    pk = _seed(ddb, hash_table, a={"SS": ["dog", "chinchilla", "cat", "mouse"]}, n={"NS": ["3", "1", "2"]})
    assert _holds(ddb, hash_table, pk, "a = :v", {":v": {"SS": ["mouse", "cat", "chinchilla", "dog"]}})
    assert _holds(ddb, hash_table, pk, "n = :v", {":v": {"NS": ["1", "2", "3"]}})
    assert not _holds(ddb, hash_table, pk, "a = :v", {":v": {"SS": ["mouse", "cat", "chinchilla", "horse"]}})
    assert _holds(ddb, hash_table, pk, "a <> :v", {":v": {"SS": ["mouse", "cat", "chinchilla", "horse"]}})


def test_document_equality_is_deep_and_ignores_set_order(ddb, hash_table):
    doc = M(b=S("c"), d=L(S("e"), S("f"), {"SS": ["g", "h", "l"]}), i={"SS": ["j", "k"]})
    pk = _seed(ddb, hash_table, a=doc)
    same = M(i={"SS": ["k", "j"]}, b=S("c"), d=L(S("e"), S("f"), {"SS": ["l", "h", "g"]}))
    assert _holds(ddb, hash_table, pk, "a = :v", {":v": same})
    other = M(i={"SS": ["k", "j"]}, b=S("c"), d=L(S("e"), S("f"), {"SS": ["l", "h", "bad"]}))
    assert not _holds(ddb, hash_table, pk, "a = :v", {":v": other})
    reordered_list = M(i={"SS": ["k", "j"]}, b=S("c"), d=L(S("f"), S("e"), {"SS": ["g", "h", "l"]}))
    assert not _holds(ddb, hash_table, pk, "a = :v", {":v": reordered_list})


def test_missing_attribute_is_never_equal_and_always_not_equal(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    assert not _holds(ddb, hash_table, pk, "q = :v", {":v": N(1)})
    assert _holds(ddb, hash_table, pk, "q <> :v", {":v": N(1)})
    # Two missing attributes are neither equal ...
    assert not _holds(ddb, hash_table, pk, "q = z")
    # ... nor "equal" under <>: <> is true.
    assert _holds(ddb, hash_table, pk, "q <> z")


# ===========================================================================
# Ordering comparators
# ===========================================================================

ORDERING = [
    # (operator, stored, given, expected)
    ("<", N(1), N(2), True),
    ("<", N(1), N(1), False),
    ("<", N(1), N(0), False),
    ("<=", N(1), N(1), True),
    ("<=", N(1), N(0), False),
    (">", N(1), N(0), True),
    (">", N(1), N(1), False),
    (">=", N(1), N(1), True),
    (">=", N(1), N(2), False),
    ("<", N(-5), N("-4.9"), True),
    ("<", S("cat"), S("dog"), True),
    ("<", S("cat"), S("cat"), False),
    ("<", S("cat"), S("aardvark"), False),
    ("<", S("Zebra"), S("apple"), True),  # code-point order: 'Z' < 'a'
    ("<=", S("cat"), S("cat"), True),
    (">", S("cat"), S("aardvark"), True),
    (">=", S("cat"), S("dog"), False),
    ("<", B(b"cat"), B(b"dog"), True),
    ("<", B(b"cat"), B(b"cat"), False),
    ("<=", B(b"cat"), B(b"cat"), True),
    (">", B(b"cat"), B(b"aardvark"), True),
    (">=", B(b"cat"), B(b"dog"), False),
]


def _av_id(av: dict) -> str:
    (t, v), = av.items()
    return f"{t}:{v.hex() if isinstance(v, bytes) else v}"


@pytest.mark.parametrize(
    "op,stored,given,expected", ORDERING, ids=[f"{_av_id(s)}{o}{_av_id(g)}" for o, s, g, _ in ORDERING]
)
def test_ordering_comparators(ddb, hash_table, op, stored, given, expected):
    pk = _seed(ddb, hash_table, a=stored)
    assert _holds(ddb, hash_table, pk, f"a {op} :v", {":v": given}) is expected
    # Same comparison with the operands swapped and the operator mirrored.
    mirrored = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
    assert _holds(ddb, hash_table, pk, f":v {mirrored} a", {":v": given}) is expected


def test_binary_is_ordered_as_unsigned_bytes(ddb, hash_table):
    pk = _seed(ddb, hash_table, b=B(bytes([127])))
    assert _holds(ddb, hash_table, pk, "b < :v", {":v": B(bytes([128]))})
    assert _holds(ddb, hash_table, pk, "b <= :v", {":v": B(bytes([128]))})
    assert _holds(ddb, hash_table, pk, "b BETWEEN :lo AND :hi", {":lo": B(bytes([126])), ":hi": B(bytes([128]))})
    pk2 = _seed(ddb, hash_table, b=B(bytes([128])))
    assert _holds(ddb, hash_table, pk2, "b > :v", {":v": B(bytes([127]))})
    assert _holds(ddb, hash_table, pk2, "b >= :v", {":v": B(bytes([127]))})


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_ordering_across_types_is_false(ddb, hash_table, op):
    pk = _seed(ddb, hash_table, a=N(1), s=S("5"))
    assert not _holds(ddb, hash_table, pk, f"a {op} :v", {":v": S("17")})
    assert not _holds(ddb, hash_table, pk, f"s {op} :v", {":v": N(5)})


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_ordering_with_missing_attributes_is_false(ddb, hash_table, op):
    pk = _seed(ddb, hash_table, a=N(1))
    assert not _holds(ddb, hash_table, pk, f"q {op} :v", {":v": N(1)})
    assert not _holds(ddb, hash_table, pk, f":v {op} q", {":v": N(1)})
    assert not _holds(ddb, hash_table, pk, f"q {op} z")


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_ordering_on_unorderable_item_attribute_is_false(ddb, hash_table, op):
    # A list (or other non-scalar) read from the item just makes the comparison false.
    pk = _seed(ddb, hash_table, x=L(N(1), N(2), N(3)), t={"BOOL": True})
    assert not _holds(ddb, hash_table, pk, f"x {op} :v", {":v": N(1)})
    assert not _holds(ddb, hash_table, pk, f":v {op} x", {":v": N(1)})
    assert not _holds(ddb, hash_table, pk, f"t {op} :v", {":v": N(1)})


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
@pytest.mark.parametrize(
    "value", [L(N(1), N(2)), {"BOOL": True}, {"NULL": True}, M(a=N(1)), {"SS": ["a"]}], ids=["L", "BOOL", "NULL", "M", "SS"]
)
def test_ordering_with_unorderable_expression_value_is_rejected(ddb, hash_table, op, value):
    # An unorderable *constant* is a request error, not a false condition.
    pk = _seed(ddb, hash_table, a=N(1))
    with expect_error(VE, contains=["Invalid ConditionExpression: ", "Incorrect operand type for operator or function"]):
        _update_error(ddb, hash_table, f"a {op} :v", {":v": value}, pk=pk)
    with expect_error(VE, contains=["Invalid ConditionExpression: ", "Incorrect operand type for operator or function"]):
        _update_error(ddb, hash_table, f":v {op} a", {":v": value}, pk=pk)


# ===========================================================================
# BETWEEN
# ===========================================================================


@pytest.mark.parametrize(
    "stored,lo,hi,expected",
    [
        (N(1), N(0), N(2), True),
        (N(1), N(1), N(1), True),
        (N(1), N(2), N(7), False),
        (N(1), N(-1), N(0), False),
        (S("cat"), S("aardvark"), S("dog"), True),
        (S("cat"), S("cat"), S("cat"), True),
        (S("cat"), S("dog"), S("zebra"), False),
        (B(b"cat"), B(b"aardvark"), B(b"dog"), True),
        (B(b"cat"), B(b"dog"), B(b"zebra"), False),
    ],
)
def test_between_inclusive_bounds(ddb, hash_table, stored, lo, hi, expected):
    pk = _seed(ddb, hash_table, a=stored)
    assert _holds(ddb, hash_table, pk, "a BETWEEN :lo AND :hi", {":lo": lo, ":hi": hi}) is expected


def test_between_keywords_are_case_insensitive_and_bounds_may_be_attributes(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), x=N(0), y=N(2))
    assert _holds(ddb, hash_table, pk, "a BETWEEN x AND y")
    assert _holds(ddb, hash_table, pk, "a between x and y")
    assert _holds(ddb, hash_table, pk, "a bEtWeEn :lo aNd y", {":lo": N(0)})


def test_between_with_different_types_or_missing_attribute_is_false(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), x=L(N(1)), y=L(N(2)), two=N(2))
    assert not _holds(ddb, hash_table, pk, "a BETWEEN :lo AND :hi", {":lo": S("0"), ":hi": S("2")})
    assert not _holds(ddb, hash_table, pk, "q BETWEEN :lo AND :hi", {":lo": N(0), ":hi": N(2)})
    assert not _holds(ddb, hash_table, pk, "a BETWEEN x AND y")
    # Bounds read from the item are never a request error, even in the wrong order.
    assert not _holds(ddb, hash_table, pk, "a BETWEEN two AND :v", {":v": N(1)})
    assert not _holds(ddb, hash_table, pk, "a BETWEEN :v AND two", {":v": N(3)})
    assert not _holds(ddb, hash_table, pk, "a BETWEEN two AND :v", {":v": S("dog")})


def test_between_constant_bounds_in_wrong_order_are_rejected(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to "
        "lower bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}",
    ):
        _update_error(ddb, hash_table, "a BETWEEN :lo AND :hi", {":lo": N(2), ":hi": N(1)})
    with expect_error(
        VE,
        "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to "
        "lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}",
    ):
        _update_error(ddb, hash_table, "a between :lo and :hi", {":lo": S("b"), ":hi": S("a")})


def test_between_constant_bounds_of_different_types_are_rejected(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; "
        "lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}",
    ):
        _update_error(ddb, hash_table, "a between :lo and :hi", {":lo": N(1), ":hi": S("a")})


def test_between_with_unorderable_constant_bounds_is_rejected(ddb, hash_table):
    with expect_error(VE, contains=["Invalid ConditionExpression: "]):
        _update_error(ddb, hash_table, "a BETWEEN :lo AND :hi", {":lo": L(N(1)), ":hi": L(N(2))})


# ===========================================================================
# IN
# ===========================================================================


@pytest.mark.parametrize("type_name", sorted(ALL_TYPES))
def test_in_matches_any_type(ddb, hash_table, type_name):
    value = ALL_TYPES[type_name]
    pk = _seed(ddb, hash_table, a=value, b=value)
    assert _holds(ddb, hash_table, pk, "a IN (:v)", {":v": value})
    assert _holds(ddb, hash_table, pk, "a IN (b)")


def test_in_list_membership(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=S("b"))
    assert _holds(ddb, hash_table, pk, "a in (:x, :y)", {":x": S("c"), ":y": S("b")})
    assert not _holds(ddb, hash_table, pk, "a IN (:x, :y)", {":x": S("c"), ":y": S("d")})
    # Unlike legacy IN, the candidates may have different types.
    assert _holds(ddb, hash_table, pk, "a IN (:x, :y)", {":x": N(1), ":y": S("b")})
    assert not _holds(ddb, hash_table, pk, "q IN (:x, :y)", {":x": N(1), ":y": S("b")})


def test_in_accepts_ninety_nine_candidates(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(74))
    values = {f":v{i}": N(i) for i in range(99)}
    assert _holds(ddb, hash_table, pk, "a IN ({})".format(", ".join(values)), values)
    pk2 = _seed(ddb, hash_table, a=N(174))
    assert not _holds(ddb, hash_table, pk2, "a IN ({})".format(", ".join(values)), values)


def test_in_with_too_many_candidates_is_rejected(ddb, hash_table):
    values = {f":v{i}": N(i) for i in range(101)}
    with expect_error(VE, contains=["Invalid ConditionExpression: ", "The IN operator is provided with too many operands"]):
        _update_error(ddb, hash_table, "a IN ({})".format(", ".join(values)), values)


def test_in_with_no_candidates_is_a_syntax_error(ddb, hash_table):
    with expect_error(VE, contains=['Invalid ConditionExpression: Syntax error; token: ")"']):
        _update_error(ddb, hash_table, "a IN ()")


# ===========================================================================
# Functions
# ===========================================================================


def test_attribute_exists_and_not_exists(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), n={"NULL": True}, m=M(x=N(1)))
    assert _holds(ddb, hash_table, pk, "attribute_exists(a)")
    assert _holds(ddb, hash_table, pk, "attribute_exists (a)")
    assert _holds(ddb, hash_table, pk, "attribute_exists(n)")  # a NULL value exists
    assert _holds(ddb, hash_table, pk, "attribute_exists(m.x)")
    assert not _holds(ddb, hash_table, pk, "attribute_exists(z)")
    assert not _holds(ddb, hash_table, pk, "attribute_exists(m.y)")
    assert _holds(ddb, hash_table, pk, "attribute_not_exists(z)")
    assert _holds(ddb, hash_table, pk, "attribute_not_exists(m.y)")
    assert not _holds(ddb, hash_table, pk, "attribute_not_exists(a)")
    assert not _holds(ddb, hash_table, pk, "attribute_not_exists(pk)")


def test_attribute_exists_requires_a_path(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists",
    ):
        _update_error(ddb, hash_table, "attribute_exists(:v)", {":v": N(3)})
    with expect_error(
        VE,
        "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_not_exists",
    ):
        _update_error(ddb, hash_table, "attribute_not_exists(:v)", {":v": N(3)})


@pytest.mark.parametrize("type_name", sorted(ALL_TYPES))
def test_attribute_type_for_every_type(ddb, hash_table, type_name):
    pk = _seed(ddb, hash_table, a=ALL_TYPES[type_name])
    assert _holds(ddb, hash_table, pk, "attribute_type(a, :t)", {":t": S(type_name)})
    for other in ALL_TYPES:
        if other != type_name:
            assert not _holds(ddb, hash_table, pk, "attribute_type(a, :t)", {":t": S(other)}), other
    assert not _holds(ddb, hash_table, pk, "attribute_type(absent, :t)", {":t": S(type_name)})


def test_attribute_type_of_an_expression_value(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    assert _holds(ddb, hash_table, pk, "attribute_type(:v, :t)", {":v": N(0), ":t": S("N")})


def test_attribute_type_with_unknown_type_name_is_rejected(ddb, hash_table):
    with expect_error(VE, contains=["Invalid ConditionExpression: Invalid attribute type name found; type: DOG, valid types: {"]):
        _update_error(ddb, hash_table, "attribute_type(a, :t)", {":t": S("DOG")})


def test_attribute_type_with_non_string_type_operand_is_rejected(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: Incorrect operand type for operator or function; "
        "operator or function: attribute_type, operand type: N",
    ):
        _update_error(ddb, hash_table, "attribute_type(a, :t)", {":t": N(1)})


def test_attribute_type_second_operand_must_be_a_value(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), b=S("N"))
    with expect_error(
        VE,
        contains=["Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: attribute_type"],
    ):
        _update_error(ddb, hash_table, "attribute_type(a, b)", pk=pk)


def test_begins_with(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=S("hello"), b=B(b"hi there"), n=N(12), c=S("he"))
    assert _holds(ddb, hash_table, pk, "begins_with(a, :p)", {":p": S("hell")})
    assert _holds(ddb, hash_table, pk, "begins_with(a, :p)", {":p": S("hello")})
    assert not _holds(ddb, hash_table, pk, "begins_with(a, :p)", {":p": S("dog")})
    assert not _holds(ddb, hash_table, pk, "begins_with(a, :p)", {":p": S("Hell")})
    assert _holds(ddb, hash_table, pk, "begins_with(b, :p)", {":p": B(b"hi")})
    assert not _holds(ddb, hash_table, pk, "begins_with(b, :p)", {":p": B(b"ho")})
    # A string prefix never matches a binary value (different types) and vice versa.
    assert not _holds(ddb, hash_table, pk, "begins_with(b, :p)", {":p": S("hi")})
    # Attribute of the wrong type, or missing: simply false.
    assert not _holds(ddb, hash_table, pk, "begins_with(n, :p)", {":p": S("1")})
    assert not _holds(ddb, hash_table, pk, "begins_with(q, :p)", {":p": S("1")})
    # Both operands may be paths, in either order; or the value may come first.
    assert _holds(ddb, hash_table, pk, "begins_with(a, c)")
    assert not _holds(ddb, hash_table, pk, "begins_with(c, a)")
    assert _holds(ddb, hash_table, pk, "begins_with(:s, a)", {":s": S("hellohi")})


@pytest.mark.parametrize("first", ["a", ":x"], ids=["path-first", "value-first"])
def test_begins_with_number_operand_is_rejected(ddb, hash_table, first):
    condition = "begins_with(a, :p)" if first == "a" else "begins_with(:p, a)"
    with expect_error(
        VE,
        "Invalid ConditionExpression: Incorrect operand type for operator or function; "
        "operator or function: begins_with, operand type: N",
    ):
        _update_error(ddb, hash_table, condition, {":p": N(1)})


def test_contains(ddb, hash_table):
    pk = _seed(
        ddb,
        hash_table,
        s=S("hello"),
        ns={"NS": ["2", "4", "7"]},
        ss={"SS": ["cat", "dog"]},
        bs={"BS": [b"\x01", b"\x02"]},
        l=L(N(2), S("dog"), N(7)),
        b=B(b"hi there"),
        nested=L(S("hi"), {"NS": ["1", "2"]}, L(N(3), N(4))),
        needle=S("ell"),
    )
    assert _holds(ddb, hash_table, pk, "contains(s, :v)", {":v": S("ell")})
    assert _holds(ddb, hash_table, pk, "contains(s, needle)")
    assert not _holds(ddb, hash_table, pk, "contains(s, :v)", {":v": S("dog")})
    assert _holds(ddb, hash_table, pk, "contains(ns, :v)", {":v": N(4)})
    assert not _holds(ddb, hash_table, pk, "contains(ns, :v)", {":v": N(5)})
    assert not _holds(ddb, hash_table, pk, "contains(ns, :v)", {":v": S("4")})
    assert _holds(ddb, hash_table, pk, "contains(ss, :v)", {":v": S("dog")})
    assert not _holds(ddb, hash_table, pk, "contains(ss, :v)", {":v": S("do")})
    assert _holds(ddb, hash_table, pk, "contains(bs, :v)", {":v": B(b"\x02")})
    assert _holds(ddb, hash_table, pk, "contains(l, :v)", {":v": S("dog")})
    assert _holds(ddb, hash_table, pk, "contains(l, :v)", {":v": N(7)})
    assert not _holds(ddb, hash_table, pk, "contains(l, :v)", {":v": N(3)})
    assert _holds(ddb, hash_table, pk, "contains(b, :v)", {":v": B(b"here")})
    assert not _holds(ddb, hash_table, pk, "contains(b, :v)", {":v": B(b"dog")})
    # The operand may be of any type: membership of a set or a list in a list.
    assert _holds(ddb, hash_table, pk, "contains(nested, :v)", {":v": {"NS": ["1", "2"]}})
    assert _holds(ddb, hash_table, pk, "contains(nested, :v)", {":v": L(N(3), N(4))})
    assert not _holds(ddb, hash_table, pk, "contains(b, :v)", {":v": {"NS": ["1", "2"]}})
    assert not _holds(ddb, hash_table, pk, "contains(absent, :v)", {":v": S("a")})


def test_contains_with_the_same_path_twice_is_rejected(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this "
        "operator or function; operator: contains, first operand: [data]",
    ):
        _update_error(ddb, hash_table, "contains(#a, #a)", names={"#a": "data"})


def test_comparing_a_path_with_itself_is_rejected(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this "
        "operator or function; operator: =, first operand: [a]",
    ):
        _update_error(ddb, hash_table, "a = a")


def test_size_of_each_type(ddb, hash_table):
    pk = _seed(
        ddb,
        hash_table,
        s=S("hello"),
        ns={"NS": ["2", "4", "7"]},
        l=L(N(2), S("dog"), N(7)),
        b=B(b"hi there"),
        m=M(x=N(2), y=M(m=N(3), n=N(4))),
        n=N(5),
        t={"BOOL": True},
        z={"NULL": True},
        e=S(""),
    )
    assert _holds(ddb, hash_table, pk, "size(s) = :v", {":v": N(5)})
    assert _holds(ddb, hash_table, pk, "size(ns) = :v", {":v": N(3)})
    assert _holds(ddb, hash_table, pk, "size(l) = :v", {":v": N(3)})
    assert _holds(ddb, hash_table, pk, "size(b) = :v", {":v": N(8)})
    assert _holds(ddb, hash_table, pk, "size(m) = :v", {":v": N(2)})
    assert _holds(ddb, hash_table, pk, "size(m.y) = :v", {":v": N(2)})
    assert _holds(ddb, hash_table, pk, "size(e) = :v", {":v": N(0)})
    # size() of a number, boolean, null or missing attribute: comparison is false.
    for attr in ("n", "t", "z", "absent"):
        assert not _holds(ddb, hash_table, pk, f"size({attr}) = :v", {":v": N(1)}), attr
        assert not _holds(ddb, hash_table, pk, f"size({attr}) > :v", {":v": N(0)}), attr
    # Comparing a size with a non-number is a false condition, not an error.
    assert not _holds(ddb, hash_table, pk, "size(s) = :v", {":v": S("dog")})
    # The other side may be an item attribute, and every comparator works.
    assert _holds(ddb, hash_table, pk, "size(s) = n")
    assert _holds(ddb, hash_table, pk, "size(s) <> :v", {":v": N(4)})
    assert _holds(ddb, hash_table, pk, "size(s) < :v", {":v": N(7)})
    assert _holds(ddb, hash_table, pk, "size(s) <= :v", {":v": N(5)})
    assert _holds(ddb, hash_table, pk, "size(s) > :v", {":v": N(2)})
    assert _holds(ddb, hash_table, pk, "size(s) >= :v", {":v": N(5)})
    assert _holds(ddb, hash_table, pk, "size(s) BETWEEN :lo AND :hi", {":lo": N(1), ":hi": N(9)})
    assert _holds(ddb, hash_table, pk, "size(s) IN (:x, :y)", {":x": N(4), ":y": N(5)})


def test_size_alone_is_not_a_condition(ddb, hash_table):
    with expect_error(
        VE, "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: size"
    ):
        _update_error(ddb, hash_table, "size(a)")


def test_boolean_function_in_a_comparison_is_rejected(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; "
        "function: attribute_exists",
    ):
        _update_error(ddb, hash_table, "attribute_exists(a) < :v", {":v": N(1)})


@pytest.mark.parametrize("name", ["dog", "ATTRIBUTE_EXISTS", "Size"])
def test_unknown_function_name_is_rejected(ddb, hash_table, name):
    # Function names are case sensitive.
    with expect_error(VE, f"Invalid ConditionExpression: Invalid function name; function: {name}"):
        _update_error(ddb, hash_table, f"{name}(a) = :v", {":v": N(5)})


@pytest.mark.parametrize("function", ["if_not_exists", "list_append"])
def test_update_functions_are_not_allowed_in_conditions(ddb, hash_table, function):
    with expect_error(VE, contains=["Invalid ConditionExpression: ", "not allowed"]):
        _update_error(ddb, hash_table, f"{function}(a, b) = :v", {":v": N(5)})


@pytest.mark.parametrize(
    "condition,function,count",
    [
        ("size(a, b) = :v", "size", 2),
        ("attribute_exists(a, b) AND a = :v", "attribute_exists", 2),
        ("attribute_not_exists(a, b) OR a = :v", "attribute_not_exists", 2),
        ("begins_with(a) AND a = :v", "begins_with", 1),
        ("contains(a) OR a = :v", "contains", 1),
        ("attribute_type(a) AND a = :v", "attribute_type", 1),
    ],
)
def test_wrong_number_of_function_operands(ddb, hash_table, condition, function, count):
    with expect_error(
        VE,
        "Invalid ConditionExpression: Incorrect number of operands for operator or function; "
        f"operator or function: {function}, number of operands: {count}",
    ):
        _update_error(ddb, hash_table, condition, {":v": N(5)})


# ===========================================================================
# AND / OR / NOT, precedence and parentheses
# ===========================================================================


@pytest.fixture
def abc(ddb, hash_table):
    """An item with a=1, b=2, c=3."""
    return _seed(ddb, hash_table, a=N(1), b=N(2), c=N(3))


@pytest.mark.parametrize(
    "condition,expected",
    [
        ("a < b AND b < c", True),
        ("a < b aNd b < c", True),
        ("a < b AND c < b", False),
        ("b < a AND b < c", False),
        ("a < b OR b < c", True),
        ("b < a OR b < c", True),
        ("a < b oR c < b", True),
        ("b < a OR c < b", False),
        ("NOT b < a", True),
        ("nOt b < a", True),
        ("NOT a < b", False),
        ("NOT NOT a < b", True),
        ("NOT NOT NOT NOT a < b", True),
        ("NOT (a < b AND c < b)", True),
    ],
)
def test_logical_operators(ddb, hash_table, abc, condition, expected):
    assert _holds(ddb, hash_table, abc, condition) is expected


@pytest.mark.parametrize(
    "condition,expected",
    [
        # AND binds tighter than OR: a<b OR (c<b AND b<c)
        ("a < b OR c < b AND b < c", True),
        # ... and explicit parentheses change the grouping.
        ("(a < b OR c < b) AND b < a", False),
        ("b < a AND c < b OR a < b", True),
        ("b < a AND (c < b OR a < b)", False),
        # NOT binds tighter than AND: (NOT a<b) AND c<b
        ("NOT a < b AND c < b", False),
        ("NOT (b < a AND c < b)", True),
        ("NOT b < a OR a < b", True),
        # The AND of BETWEEN is consumed by BETWEEN first.
        ("b BETWEEN a AND c AND a < b", True),
        ("b BETWEEN a AND c AND b < a", False),
        ("b BETWEEN a AND c OR b < a", True),
        ("(a < b OR b < a) AND (b < c AND (a < b OR b < c))", True),
        ("(attribute_exists(a)) AND (attribute_not_exists(z))", True),
        ("(attribute_exists(a) AND attribute_not_exists(z))", True),
        ("(attribute_exists(a) AND (attribute_not_exists(z)))", True),
    ],
)
def test_precedence_and_parentheses(ddb, hash_table, abc, condition, expected):
    assert _holds(ddb, hash_table, abc, condition) is expected


@pytest.mark.parametrize(
    "condition",
    ["((attribute_not_exists(pk)))", "a = :v AND ((b = :v))", "((a = :v OR b = :v))"],
)
def test_redundant_parentheses_are_rejected(ddb, hash_table, condition):
    with expect_error(VE, "Invalid ConditionExpression: The expression has redundant parentheses;"):
        _update_error(ddb, hash_table, condition, {":v": N(1)} if ":v" in condition else None)


def test_or_does_not_hide_unused_or_undefined_references(ddb, hash_table):
    # References are resolved before evaluation: a short-circuited branch still "uses" them ...
    pk = _seed(ddb, hash_table, a=N(1))
    ddb.update_item(
        TableName=hash_table,
        Key=_key(pk),
        ConditionExpression="#n1 = :v1 OR #n2 = :v2",
        UpdateExpression="SET #n1 = :v3",
        ExpressionAttributeNames={"#n1": "a", "#n2": "b"},
        ExpressionAttributeValues={":v1": N(1), ":v2": N(2), ":v3": N(3)},
    )
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "a": N(3)}
    # ... and an undefined one is an error even if evaluation would never reach it.
    with expect_error(
        VE,
        "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :nope",
    ):
        ddb.update_item(
            TableName=hash_table,
            Key=_key(pk),
            ConditionExpression="a = :v1 OR a = :nope",
            UpdateExpression="SET b = :v1",
            ExpressionAttributeValues={":v1": N(3)},
        )


# ===========================================================================
# Nested paths and expression attribute names
# ===========================================================================


def test_nested_paths(ddb, hash_table):
    pk = _seed(
        ddb,
        hash_table,
        a=M(b=L(N(0), M(c=S("deep"), d=L(N(-1), N(2), N(0))))),
        m=M(x=N(1), y=L(N(-1), N(2), N(0))),
    )
    assert _holds(ddb, hash_table, pk, "a.b[1].c = :v", {":v": S("deep")})
    assert _holds(ddb, hash_table, pk, "a.b[1].d[1] = :v", {":v": N(2)})
    assert _holds(ddb, hash_table, pk, "attribute_exists(a.b[1].c)")
    assert not _holds(ddb, hash_table, pk, "attribute_exists(a.b[2])")
    assert _holds(ddb, hash_table, pk, "m.x < m.y[1]")
    assert not _holds(ddb, hash_table, pk, "m.x < m.y[0]")
    # Paths through missing members, beyond list ends or of the wrong shape: false, not an error.
    assert not _holds(ddb, hash_table, pk, "m.z < m.y[100]")
    assert not _holds(ddb, hash_table, pk, "m.x[0] = :v", {":v": N(1)})
    assert not _holds(ddb, hash_table, pk, "m.y.x = :v", {":v": N(1)})
    assert _holds(ddb, hash_table, pk, "attribute_not_exists(a.b[0].c)")
    assert _holds(ddb, hash_table, pk, "size(a.b[1].d) = :v", {":v": N(3)})


def test_expression_attribute_names(ddb, hash_table):
    pk = _seed(ddb, hash_table, **{"and": M(**{"or": N(2)}), "a.b": S("dotted"), "a": M(b=S("nested"))})
    assert _holds(ddb, hash_table, pk, "attribute_exists(#n)", names={"#n": "and"})
    assert _holds(ddb, hash_table, pk, "#n1.#n2 = :two", {":two": N(2)}, names={"#n1": "and", "#n2": "or"})
    # A name containing a dot is one attribute name, not a path.
    assert _holds(ddb, hash_table, pk, "#d = :v", {":v": S("dotted")}, names={"#d": "a.b"})
    assert _holds(ddb, hash_table, pk, "a.b = :v", {":v": S("nested")})
    # The same name may be used more than once.
    assert _holds(ddb, hash_table, pk, "#n1.#n2 > :one AND attribute_exists(#n1)", {":one": N(1)}, names={"#n1": "and", "#n2": "or"})


@pytest.mark.parametrize("word", ["status", "name", "data", "count", "Status", "COMMENT"])
def test_reserved_words_must_be_aliased(ddb, hash_table, word):
    with expect_error(VE, f"Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: {word}"):
        _update_error(ddb, hash_table, f"{word} = :v", {":v": S("x")})
    pk = _seed(ddb, hash_table, **{word: S("x")})
    assert _holds(ddb, hash_table, pk, "#w = :v", {":v": S("x")}, names={"#w": word})


def test_reserved_word_inside_a_nested_path(ddb, hash_table):
    with expect_error(VE, "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status"):
        _update_error(ddb, hash_table, "a.status = :v", {":v": S("x")})


def test_undefined_expression_attribute_name(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; "
        "attribute name: #nope",
    ):
        _update_error(ddb, hash_table, "#nope = :v", {":v": N(1)})


def test_undefined_expression_attribute_value(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :nope",
    ):
        _update_error(ddb, hash_table, "a = :nope")


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_unused_expression_attribute_value(ddb, hash_table, operation):
    values = {":v1": N(1), ":x": N(3)}
    call = {
        "put": lambda: ddb.put_item(
            TableName=hash_table, Item=_key("unused"), ConditionExpression="a = :v1", ExpressionAttributeValues=values
        ),
        "delete": lambda: ddb.delete_item(
            TableName=hash_table, Key=_key("unused"), ConditionExpression="a = :v1", ExpressionAttributeValues=values
        ),
        "update": lambda: ddb.update_item(
            TableName=hash_table,
            Key=_key("unused"),
            UpdateExpression="SET b = :v1",
            ConditionExpression="a = :v1",
            ExpressionAttributeValues=values,
        ),
    }[operation]
    with expect_error(VE, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}"):
        call()


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_unused_expression_attribute_name(ddb, hash_table, operation):
    names = {"#a": "a", "#x": "x"}
    call = {
        "put": lambda: ddb.put_item(
            TableName=hash_table, Item=_key("unused"), ConditionExpression="attribute_exists(#a)", ExpressionAttributeNames=names
        ),
        "delete": lambda: ddb.delete_item(
            TableName=hash_table, Key=_key("unused"), ConditionExpression="attribute_exists(#a)", ExpressionAttributeNames=names
        ),
        "update": lambda: ddb.update_item(
            TableName=hash_table,
            Key=_key("unused"),
            UpdateExpression="REMOVE b",
            ConditionExpression="attribute_exists(#a)",
            ExpressionAttributeNames=names,
        ),
    }[operation]
    with expect_error(VE, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}"):
        call()


def test_unused_checks_happen_even_when_the_condition_would_fail(ddb, hash_table):
    pk = _seed(ddb, hash_table, b=N(2))
    for condition in ("#n2 = :v2", "#n2 <> :v2"):
        with expect_error(VE, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v3}"):
            ddb.update_item(
                TableName=hash_table,
                Key=_key(pk),
                UpdateExpression="SET #n1 = :v1",
                ConditionExpression=condition,
                ExpressionAttributeValues={":v1": N(1), ":v2": N(2), ":v3": N(3)},
                ExpressionAttributeNames={"#n1": "a", "#n2": "b"},
            )
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "b": N(2)}


def test_names_and_values_are_shared_between_condition_and_update(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    ddb.update_item(
        TableName=hash_table,
        Key=_key(pk),
        UpdateExpression="SET #b = :new",
        ConditionExpression="#a = :old",
        ExpressionAttributeNames={"#a": "a", "#b": "b"},
        ExpressionAttributeValues={":old": N(1), ":new": N(2)},
    )
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "a": N(1), "b": N(2)}


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_empty_expression_attribute_values(ddb, hash_table, operation):
    common = dict(TableName=hash_table, ConditionExpression="attribute_exists(a)", ExpressionAttributeValues={})
    call = {
        "put": lambda: ddb.put_item(Item=_key("empty-eav"), **common),
        "delete": lambda: ddb.delete_item(Key=_key("empty-eav"), **common),
        "update": lambda: ddb.update_item(Key=_key("empty-eav"), UpdateExpression="REMOVE b", **common),
    }[operation]
    with expect_error(VE, "ExpressionAttributeValues must not be empty"):
        call()


def test_empty_expression_attribute_names(ddb, hash_table):
    with expect_error(VE, "ExpressionAttributeNames must not be empty"):
        ddb.put_item(
            TableName=hash_table, Item=_key("empty-ean"), ConditionExpression="attribute_exists(a)", ExpressionAttributeNames={}
        )


def test_expression_attribute_name_keys_need_a_hash(ddb, hash_table):
    with expect_error(VE, 'ExpressionAttributeNames contains invalid key: Syntax error; key: "a"'):
        ddb.put_item(
            TableName=hash_table, Item=_key("bad-ean"), ConditionExpression="attribute_exists(#b)",
            ExpressionAttributeNames={"a": "a", "#b": "b"},
        )


def test_expression_attribute_value_keys_need_a_colon(ddb, hash_table):
    with expect_error(VE, 'ExpressionAttributeValues contains invalid key: Syntax error; key: "b"'):
        ddb.put_item(
            TableName=hash_table, Item=_key("bad-eav"), ConditionExpression="a = :a",
            ExpressionAttributeValues={":a": N(1), "b": S("a")},
        )


def test_invalid_expression_attribute_value(ddb, hash_table):
    """PutItem's 2026 validator reports the value's own message in its envelope; the 2025 one
    wrapped it (`ExpressionAttributeValues contains invalid value: ... for key :b`, asserted
    under `--error-wording 2025` by ErrorWordingTests)."""
    with expect_error(
        VE,
        "1 validation error detected: One or more parameter values were invalid: An string set  may not be empty",
    ):
        ddb.put_item(
            TableName=hash_table, Item=_key("bad-eav"), ConditionExpression="a = :b", ExpressionAttributeValues={":b": {"SS": []}}
        )


@pytest.mark.parametrize("operation", ["put", "delete"])
def test_names_and_values_without_a_condition_expression(ddb, hash_table, operation):
    target = {"put": {"Item": _key("no-expr")}, "delete": {"Key": _key("no-expr")}}[operation]
    call = ddb.put_item if operation == "put" else ddb.delete_item
    # DynamoDB's 2026 validator of the single-item writes (us-east-1, 2026-08-12): in the
    # envelope, without the ': ConditionExpression is null' tail; exactly, not either wording.
    with pytest.raises(ClientError) as caught:
        call(TableName=hash_table, ExpressionAttributeNames={"#a": "a"}, **target)
    assert caught.value.response["Error"]["Message"] == (
        "1 validation error detected: ExpressionAttributeNames can only be specified when using expressions")
    with pytest.raises(ClientError) as caught:
        call(TableName=hash_table, ExpressionAttributeValues={":a": N(1)}, **target)
    assert caught.value.response["Error"]["Message"] == (
        "1 validation error detected: ExpressionAttributeValues can only be specified when using expressions")


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_empty_condition_expression(ddb, hash_table, operation):
    call = {
        "put": lambda: ddb.put_item(TableName=hash_table, Item=_key("empty"), ConditionExpression=""),
        "delete": lambda: ddb.delete_item(TableName=hash_table, Key=_key("empty"), ConditionExpression=""),
        "update": lambda: ddb.update_item(
            TableName=hash_table, Key=_key("empty"), ConditionExpression="", UpdateExpression="SET a = :v",
            ExpressionAttributeValues={":v": N(1)},
        ),
    }[operation]
    with expect_error(VE, "Invalid ConditionExpression: The expression can not be empty;"):
        call()


# ===========================================================================
# Syntax errors
# ===========================================================================


@pytest.mark.parametrize(
    "condition,names,values,message",
    [
        # Reported by users of the real service (minidyn issue #21; a Lambda code comment).
        (
            "attribute_exists(pk) AND NOT #flag",
            {"#flag": "flag"},
            None,
            'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "#flag"',
        ),
        (
            "contains (themes, :theme",
            None,
            {":theme": S("x")},
            'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ":theme"',
        ),
    ],
    ids=["bare-attribute-after-NOT", "unclosed-call"],
)
def test_syntax_error_messages(ddb, hash_table, condition, names, values, message):
    params = dict(TableName=hash_table, Item=_key("syntax"), ConditionExpression=condition)
    if names:
        params["ExpressionAttributeNames"] = names
    if values:
        params["ExpressionAttributeValues"] = values
    with expect_error(VE, message):
        ddb.put_item(**params)


@pytest.mark.parametrize(
    "condition,token",
    [
        ("a", "<EOF>"),
        ("a = :v AND", "<EOF>"),
        ("a > 4", "4"),
        ("a == :v", "="),
        ("attribute_exists(a-b)", "-"),
        ("attribute_exists(_a)", "_"),
        ("attribute_exists(a._b)", "_"),
        ("attribute_exists(a[b])", "b"),
        ("attribute_exists(a[:v])", ":v"),
        ("a.:v < :v", ":v"),
        ("a IN :v", ":v"),
    ],
)
def test_syntax_errors_name_the_offending_token(ddb, hash_table, condition, token):
    values = {":v": N(1)} if ":v" in condition else None
    params = dict(TableName=hash_table, Item=_key("syntax"), ConditionExpression=condition)
    if values:
        params["ExpressionAttributeValues"] = values
    with expect_error(VE, contains=[f'Invalid ConditionExpression: Syntax error; token: "{token}", near: "']):
        ddb.put_item(**params)


def test_expression_errors_are_reported_before_the_table_is_looked_up(ddb):
    with expect_error(VE, contains=["Invalid ConditionExpression: Syntax error; "]):
        ddb.put_item(TableName=unique_name("missing"), Item=_key("a"), ConditionExpression="whatever")
    with expect_error(VE, "Invalid ConditionExpression: The expression can not be empty;"):
        ddb.delete_item(TableName=unique_name("missing"), Key=_key("a"), ConditionExpression="")


# ===========================================================================
# The three operations
# ===========================================================================


def test_put_item_condition(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "a": N(2)}, ConditionExpression="a = :old",
                 ExpressionAttributeValues={":old": N(1)})
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "a": N(2)}
    with expect_error(CCF, CCF_MSG):
        ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "a": N(3)}, ConditionExpression="a = :old",
                     ExpressionAttributeValues={":old": N(1)})
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "a": N(2)}


def test_put_if_absent_idiom(ddb, hash_table):
    pk = unique_name("cond")
    ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "v": N(1)}, ConditionExpression="attribute_not_exists(pk)")
    with expect_error(CCF, CCF_MSG):
        ddb.put_item(TableName=hash_table, Item={"pk": S(pk), "v": N(2)}, ConditionExpression="attribute_not_exists(pk)")
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "v": N(1)}


def test_put_condition_on_a_missing_item(ddb, hash_table):
    # Against a missing item every attribute is missing: = fails, <> holds.
    with expect_error(CCF, CCF_MSG):
        ddb.put_item(TableName=hash_table, Item=_key(unique_name("cond")), ConditionExpression="a = :v",
                     ExpressionAttributeValues={":v": N(1)})
    with expect_error(CCF, CCF_MSG):
        ddb.put_item(TableName=hash_table, Item=_key(unique_name("cond")), ConditionExpression="attribute_exists(pk)")
    pk = unique_name("cond")
    ddb.put_item(TableName=hash_table, Item=_key(pk), ConditionExpression="a <> :v", ExpressionAttributeValues={":v": N(1)})
    assert _get(ddb, hash_table, pk) == _key(pk)


def test_delete_item_condition(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    with expect_error(CCF, CCF_MSG):
        ddb.delete_item(TableName=hash_table, Key=_key(pk), ConditionExpression="a = :old",
                        ExpressionAttributeValues={":old": N(2)})
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "a": N(1)}
    resp = ddb.delete_item(TableName=hash_table, Key=_key(pk), ConditionExpression="a = :old",
                           ExpressionAttributeValues={":old": N(1)}, ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": S(pk), "a": N(1)}
    assert _get(ddb, hash_table, pk) is None
    # A condition that requires the item fails when it is gone.
    with expect_error(CCF, CCF_MSG):
        ddb.delete_item(TableName=hash_table, Key=_key(pk), ConditionExpression="attribute_exists(pk)")


def test_update_condition_on_a_missing_item_creates_nothing(ddb, hash_table):
    pk = unique_name("cond")
    with expect_error(CCF, CCF_MSG):
        ddb.update_item(TableName=hash_table, Key=_key(pk), UpdateExpression="ADD hits :one",
                        ConditionExpression="attribute_exists(pk)", ExpressionAttributeValues={":one": N(1)})
    assert _get(ddb, hash_table, pk) is None


def test_update_create_once_idioms(ddb, hash_table):
    pk = unique_name("cond")
    ddb.update_item(TableName=hash_table, Key=_key(pk), ConditionExpression="pk <> :p", ExpressionAttributeValues={":p": S(pk)})
    assert _get(ddb, hash_table, pk) == _key(pk)
    with expect_error(CCF, CCF_MSG):
        ddb.update_item(TableName=hash_table, Key=_key(pk), ConditionExpression="pk <> :p", ExpressionAttributeValues={":p": S(pk)})
    pk2 = unique_name("cond")
    ddb.update_item(TableName=hash_table, Key=_key(pk2), ConditionExpression="attribute_not_exists(pk)")
    assert _get(ddb, hash_table, pk2) == _key(pk2)
    with expect_error(CCF, CCF_MSG):
        ddb.update_item(TableName=hash_table, Key=_key(pk2), ConditionExpression="attribute_not_exists(pk)")


def test_failed_update_changes_nothing(ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1), b=S("keep"))
    with expect_error(CCF, CCF_MSG):
        ddb.update_item(TableName=hash_table, Key=_key(pk), UpdateExpression="SET b = :new REMOVE a ADD c :one",
                        ConditionExpression="a > :one", ExpressionAttributeValues={":one": N(1), ":new": S("changed")})
    assert _get(ddb, hash_table, pk) == {"pk": S(pk), "a": N(1), "b": S("keep")}


def test_condition_on_range_table_keys(ddb, range_table):
    key = {"pk": S(unique_name("cond")), "sk": N(5)}
    ddb.put_item(TableName=range_table, Item={**key, "v": N(1)})
    ddb.update_item(TableName=range_table, Key=key, UpdateExpression="SET v = :two",
                    ConditionExpression="sk = :five AND attribute_exists(pk)", ExpressionAttributeValues={":two": N(2), ":five": N("5.0")})
    with expect_error(CCF, CCF_MSG):
        ddb.delete_item(TableName=range_table, Key=key, ConditionExpression="sk > :five", ExpressionAttributeValues={":five": N(5)})
    assert ddb.get_item(TableName=range_table, Key=key, ConsistentRead=True)["Item"] == {**key, "v": N(2)}


def test_conditional_check_failed_wire_format(raw, ddb, hash_table):
    pk = _seed(ddb, hash_table, a=N(1))
    resp = raw.call(
        "PutItem",
        {"TableName": hash_table, "Item": {"pk": S(pk)}, "ConditionExpression": "attribute_not_exists(pk)"},
    )
    body = check_raw_error(resp, CCF, CCF_MSG)
    assert body["__type"] == wire_type(CCF)
    assert "Item" not in body


# ===========================================================================
# ReturnValuesOnConditionCheckFailure
# ===========================================================================

NESTED_ITEM_ATTRS = {
    "s": S("dog"),
    "m": M(a=L(N(1), {"SS": ["x", "y"]}), b={"NULL": True}),
    "bin": B(b"\x00\x01"),
}


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_return_values_on_condition_check_failure_all_old(ddb, hash_table, operation):
    pk = _seed(ddb, hash_table, **NESTED_ITEM_ATTRS)
    common = dict(
        TableName=hash_table,
        ConditionExpression="s = :v",
        ExpressionAttributeValues={":v": S("cat")},
        ReturnValuesOnConditionCheckFailure="ALL_OLD",
    )
    call = {
        "put": lambda: ddb.put_item(Item={"pk": S(pk), "s": S("new")}, **common),
        "delete": lambda: ddb.delete_item(Key=_key(pk), **common),
        "update": lambda: ddb.update_item(Key=_key(pk), UpdateExpression="REMOVE s", **common),
    }[operation]
    with expect_error(CCF, CCF_MSG) as excinfo:
        call()
    assert _canon(excinfo.value.response["Item"]) == _canon({"pk": S(pk), **NESTED_ITEM_ATTRS})
    assert _canon(_get(ddb, hash_table, pk)) == _canon({"pk": S(pk), **NESTED_ITEM_ATTRS})


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_return_values_on_condition_check_failure_none(ddb, hash_table, operation):
    pk = _seed(ddb, hash_table, s=S("dog"))
    common = dict(
        TableName=hash_table,
        ConditionExpression="s = :v",
        ExpressionAttributeValues={":v": S("cat")},
        ReturnValuesOnConditionCheckFailure="NONE",
    )
    call = {
        "put": lambda: ddb.put_item(Item={"pk": S(pk)}, **common),
        "delete": lambda: ddb.delete_item(Key=_key(pk), **common),
        "update": lambda: ddb.update_item(Key=_key(pk), UpdateExpression="REMOVE s", **common),
    }[operation]
    with expect_error(CCF, CCF_MSG) as excinfo:
        call()
    assert "Item" not in excinfo.value.response


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_return_values_on_condition_check_failure_for_missing_item(ddb, hash_table, operation):
    pk = unique_name("cond")
    common = dict(
        TableName=hash_table,
        ConditionExpression="s = :v",
        ExpressionAttributeValues={":v": S("dog")},
        ReturnValuesOnConditionCheckFailure="ALL_OLD",
    )
    call = {
        "put": lambda: ddb.put_item(Item={"pk": S(pk)}, **common),
        "delete": lambda: ddb.delete_item(Key=_key(pk), **common),
        "update": lambda: ddb.update_item(Key=_key(pk), UpdateExpression="SET s = :v", **common),
    }[operation]
    with expect_error(CCF, CCF_MSG) as excinfo:
        call()
    assert "Item" not in excinfo.value.response


@pytest.mark.parametrize("operation", ["put", "delete", "update"])
def test_return_values_on_condition_check_failure_when_condition_holds(ddb, hash_table, operation):
    pk = _seed(ddb, hash_table, s=S("dog"))
    common = dict(
        TableName=hash_table,
        ConditionExpression="s = :v",
        ExpressionAttributeValues={":v": S("dog")},
        ReturnValuesOnConditionCheckFailure="ALL_OLD",
    )
    call = {
        "put": lambda: ddb.put_item(Item={"pk": S(pk), "s": S("cat")}, **common),
        "delete": lambda: ddb.delete_item(Key=_key(pk), **common),
        "update": lambda: ddb.update_item(Key=_key(pk), UpdateExpression="SET t = :v", **common),
    }[operation]
    resp = call()
    assert "Attributes" not in resp
    assert "Item" not in resp


def test_return_values_on_condition_check_failure_raw_body(raw, ddb, hash_table):
    pk = _seed(ddb, hash_table, s=S("dog"), n=N("1.50"))
    resp = raw.call(
        "UpdateItem",
        {
            "TableName": hash_table,
            "Key": {"pk": {"S": pk}},
            "UpdateExpression": "SET s = :new",
            "ConditionExpression": "s = :old",
            "ExpressionAttributeValues": {":new": {"S": "cow"}, ":old": {"S": "rat"}},
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        },
    )
    body = check_raw_error(resp, CCF, CCF_MSG)
    assert body["Item"] == {"pk": {"S": pk}, "s": {"S": "dog"}, "n": {"N": "1.5"}}


@pytest.mark.parametrize("value", ["UPDATED_OLD", "ALL_NEW", "UPDATED_NEW", "DUMMY"])
def test_return_values_on_condition_check_failure_only_all_old_or_none(ddb, hash_table, value):
    with expect_error(VE):
        ddb.put_item(TableName=hash_table, Item=_key("rvoccf"), ConditionExpression="attribute_exists(pk)",
                     ReturnValuesOnConditionCheckFailure=value)
