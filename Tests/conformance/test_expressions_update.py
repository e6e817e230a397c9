"""UpdateItem with UpdateExpression: SET, REMOVE, ADD, DELETE and ReturnValues.

Behaviour and messages are those of real DynamoDB, as recorded by suites that
were run against it (ScyllaDB's alternator tests, dynalite's tests, the
nubo-db dynamodb-conformance captures) and by error texts users reported from
the service. Where only part of a message is established, the test checks the
error code and that part.
"""

from __future__ import annotations

import pytest

from ddb_helpers import expect_error, unique_name

VE = "ValidationException"
NOT_IN_ITEM = "The provided expression refers to an attribute that does not exist in the item"
BAD_PATH = "The document path provided in the update expression is invalid for update"
BAD_OPERAND = "An operand in the update expression has an incorrect data type"
KEY_ATTR = "One or more parameter values were invalid: Cannot update attribute {}. This attribute is part of the key"


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


def SS(*xs) -> dict:
    return {"SS": list(xs)}


def NS(*xs) -> dict:
    return {"NS": [str(x) for x in xs]}


def BS(*xs) -> dict:
    return {"BS": list(xs)}


def _key(pk: str) -> dict:
    return {"pk": {"S": pk}}


def _canon(value):
    """Make attribute maps comparable: set members are unordered."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("SS", "BS") and isinstance(v, list):
                out[k] = sorted(v)
            elif k == "NS" and isinstance(v, list):
                out[k] = sorted(v, key=float)
            else:
                out[k] = _canon(v)
        return out
    if isinstance(value, list):
        return [_canon(v) for v in value]
    return value


class Item:
    """One item of the module's hash table, with terse update/get helpers."""

    def __init__(self, ddb, table, **attrs):
        self.ddb = ddb
        self.table = table
        self.pk = unique_name("upd")
        if attrs:
            ddb.put_item(TableName=table, Item={"pk": S(self.pk), **attrs})

    @property
    def key(self) -> dict:
        return _key(self.pk)

    def update(self, expression, values=None, names=None, **extra):
        params = dict(TableName=self.table, Key=self.key, UpdateExpression=expression, **extra)
        if values is not None:
            params["ExpressionAttributeValues"] = values
        if names is not None:
            params["ExpressionAttributeNames"] = names
        return self.ddb.update_item(**params)

    def get(self):
        return self.ddb.get_item(TableName=self.table, Key=self.key, ConsistentRead=True).get("Item")

    def attrs(self):
        """The stored item without its key (None when there is no item)."""
        item = self.get()
        if item is None:
            return None
        return {k: v for k, v in item.items() if k != "pk"}


@pytest.fixture
def item(ddb, hash_table):
    def make(**attrs) -> Item:
        return Item(ddb, hash_table, **attrs)

    return make


# ===========================================================================
# SET
# ===========================================================================


def test_set_creates_the_item(item):
    it = item()
    resp = it.update("SET b = :v", {":v": N(4)})
    assert {k: v for k, v in resp.items() if k != "ResponseMetadata"} == {}
    assert it.get() == {"pk": S(it.pk), "b": N(4)}


def test_set_several_attributes_and_replace_values_of_any_type(item):
    it = item(a=S("old"), keep=N(1))
    it.update("SET a = :v1, b = :v1, c = :v2", {":v1": L(N(1), S("x")), ":v2": M(k=SS("q"))})
    assert it.attrs() == {"a": L(N(1), S("x")), "b": L(N(1), S("x")), "c": M(k=SS("q")), "keep": N(1)}


def test_set_stores_empty_strings_lists_and_maps(item):
    it = item()
    it.update("SET d = :v1, e = :v2, f = :v3, g = :v4", {":v1": L(), ":v2": M(), ":v3": S(""), ":v4": B(b"")})
    assert it.attrs() == {"d": L(), "e": M(), "f": S(""), "g": B(b"")}


def test_set_empty_set_is_rejected(item):
    """UpdateItem's 2026 validator reports the value's own message in its envelope (the 2025
    wording wrapped it: `ExpressionAttributeValues contains invalid value: ... for key :v`)."""
    it = item()
    with expect_error(
        VE,
        "1 validation error detected: One or more parameter values were invalid: An string set  may not be empty",
    ):
        it.update("SET a = :v", {":v": {"SS": []}})
    assert it.get() is None


def test_set_copies_attributes(item):
    it = item(a=S("hello"), n=N(7))
    it.update("SET b = a")
    it.update("SET #one = #two", names={"#one": "c", "#two": "a"})
    it.update("SET a = a")
    it.update("SET d = pk")
    assert it.attrs() == {"a": S("hello"), "b": S("hello"), "c": S("hello"), "n": N(7), "d": S(it.pk)}


@pytest.mark.parametrize(
    "expression,values",
    [
        ("SET c = z", None),
        ("SET z = z", None),
        ("SET x = :v, y = x", {":v": N(4)}),
        ("SET c = list_append(z, :l)", {":l": L(N(1))}),
        ("SET c = z + :n", {":n": N(1)}),
        ("SET c = :n - z", {":n": N(1)}),
    ],
)
def test_reading_an_absent_attribute_is_an_error(item, expression, values):
    it = item(a=S("hello"))
    with expect_error(VE, NOT_IN_ITEM):
        it.update(expression, values)
    assert it.attrs() == {"a": S("hello")}


def test_right_hand_sides_read_the_item_before_the_update(item):
    it = item(a=S("one"), b=S("two"))
    it.update("SET a = b, b = a")
    assert it.attrs() == {"a": S("two"), "b": S("one")}
    it.update("REMOVE a SET c = a")
    assert it.attrs() == {"b": S("one"), "c": S("two")}
    it.update("SET d = c REMOVE c")
    assert it.attrs() == {"b": S("one"), "d": S("two")}


# ---------------------------------------------------------------------------
# + and -
# ---------------------------------------------------------------------------


def test_plus_and_minus(item):
    it = item(a=N(2))
    it.update("SET b = :x + :y", {":x": N(4), ":y": N(3)})
    it.update("SET c = :x - :y", {":x": N(5), ":y": N(7)})
    it.update("SET a = a + :x", {":x": N(3)})
    it.update("SET d = :x - a", {":x": N(10)})
    it.update("SET e = a + b")
    it.update("SET #f = #f - :x", {":x": N("0.5")}, names={"#f": "a"})
    assert it.attrs() == {"a": N("4.5"), "b": N(7), "c": N(-2), "d": N(5), "e": N(12)}


@pytest.mark.parametrize(
    "x,op,y,result",
    [
        ("0.1", "+", "0.2", "0.3"),
        ("1.5", "+", "1.5", "3"),
        ("1", "-", "1", "0"),
        ("-0.000001", "+", "1e-6", "0"),
        ("12345678901234567890123456789012345678", "-", "12345678901234567890123456789012345677", "1"),
        ("1E+2", "+", "0.01", "100.01"),
        ("1e-130", "+", "1e-130", "0." + "0" * 129 + "2"),
        ("9.99", "-", "10", "-0.01"),
    ],
)
def test_arithmetic_is_exact_decimal(item, x, op, y, result):
    it = item()
    it.update(f"SET r = :x {op} :y", {":x": N(x), ":y": N(y)})
    assert it.attrs() == {"r": N(result)}


def test_adding_more_than_two_operands_is_a_syntax_error(item):
    it = item()
    with expect_error(VE, contains=['Invalid UpdateExpression: Syntax error; token: "+", near: "']):
        it.update("SET b = :x + :y + :z", {":x": N(4), ":y": N(3), ":z": N(2)})


@pytest.mark.parametrize("op", ["+", "-"])
@pytest.mark.parametrize(
    "value,type_name",
    [
        (S("dog"), "S"),
        (B(b"a"), "B"),
        ({"BOOL": True}, "BOOL"),
        ({"NULL": True}, "NULL"),
        (SS("a"), "SS"),
        (NS(1), "NS"),
        (BS(b"a"), "BS"),
        (M(), "M"),
        (L(), "L"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_arithmetic_on_non_number_values_is_rejected(item, op, value, type_name):
    it = item(a=N(1))
    with expect_error(
        VE,
        "Invalid UpdateExpression: Incorrect operand type for operator or function; "
        f"operator or function: {op}, operand type: {type_name}",
    ):
        it.update(f"SET a = a {op} :x", {":x": value})


def test_arithmetic_on_non_number_attributes_fails_at_run_time(item):
    it = item(s=S("5"), m=M(), n=N(1))
    with expect_error(VE, BAD_OPERAND):
        it.update("SET r = s + :x", {":x": N(1)})
    with expect_error(VE, BAD_OPERAND):
        it.update("SET r = :x - m", {":x": N(1)})
    assert it.attrs() == {"s": S("5"), "m": M(), "n": N(1)}


@pytest.mark.parametrize(
    "expression,values",
    [
        ("SET n = :a + :b", {":a": N("9.9e125"), ":b": N("9.9e125")}),
        ("SET n = :a - :b", {":a": N("-9.9e125"), ":b": N("9.9e125")}),
    ],
    ids=["plus", "minus"],
)
def test_arithmetic_overflow_is_rejected(item, expression, values):
    it = item()
    with expect_error(VE, contains=["Number overflow"]):
        it.update(expression, values)
    assert it.get() is None


def test_add_overflow_is_rejected(item):
    it = item(n=N("9.9e125"))
    with expect_error(VE, contains=["Number overflow"]):
        it.update("ADD n :big", {":big": N("9.9e125")})
    assert it.attrs() == {"n": N("99" + "0" * 124)}


# ---------------------------------------------------------------------------
# if_not_exists and list_append
# ---------------------------------------------------------------------------


def test_if_not_exists(item):
    it = item(a=N(2), m=M(c=N(1)))
    it.update("SET a = if_not_exists(a, :v)", {":v": N(3)})
    it.update("SET b = if_not_exists(b, :v)", {":v": N(4)})
    it.update("SET c = if_not_exists(a, :v)", {":v": N(5)})  # a exists: c gets a's value
    it.update("SET d = if_not_exists(zz, a)")  # the fallback may be a path
    it.update("SET m.c = if_not_exists(m.c, :v), m.d = if_not_exists(m.d, :v)", {":v": N(9)})
    assert it.attrs() == {"a": N(2), "b": N(4), "c": N(2), "d": N(2), "m": M(c=N(1), d=N(9))}


def test_counter_idioms(item):
    it = item()
    for _ in range(3):
        it.update("SET n = if_not_exists(n, :zero) + :one", {":zero": N(0), ":one": N(1)})
    assert it.attrs() == {"n": N(3)}


def test_if_not_exists_requires_a_path_as_first_operand(item):
    it = item()
    message = "Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"
    with expect_error(VE, message):
        it.update("SET b = if_not_exists(:v2, :v1)", {":v1": N(6), ":v2": N(3)})
    with expect_error(VE, message):
        it.update("SET b = if_not_exists(if_not_exists(a, :v2), :v1)", {":v1": N(6), ":v2": N(3)})


@pytest.mark.parametrize(
    "expression,function,count",
    [
        ("SET a = if_not_exists(c)", "if_not_exists", 1),
        ("SET a = if_not_exists(c, d, e)", "if_not_exists", 3),
        ("SET a = list_append(c)", "list_append", 1),
        ("SET a = list_append(c, d, e)", "list_append", 3),
    ],
)
def test_update_function_operand_count(item, expression, function, count):
    with expect_error(
        VE,
        "Invalid UpdateExpression: Incorrect number of operands for operator or function; "
        f"operator or function: {function}, number of operands: {count}",
    ):
        item().update(expression)


def test_list_append(item):
    it = item(a=L(S("hi"), N(2)))
    it.update("SET a = list_append(a, :v)", {":v": L(N(4), S("hello"))})
    it.update("SET a = list_append(:v, a)", {":v": L(S("dog"))})
    it.update("SET b = list_append(a, :v)", {":v": L(S("cat"))})
    it.update("SET c = list_append(:x, :y)", {":x": L(N(1)), ":y": L()})
    it.update("SET #d = list_append(#a, :l)", {":l": L(N(2))}, names={"#d": "d", "#a": "c"})
    assert it.attrs() == {
        "a": L(S("dog"), S("hi"), N(2), N(4), S("hello")),
        "b": L(S("dog"), S("hi"), N(2), N(4), S("hello"), S("cat")),
        "c": L(N(1)),
        "d": L(N(1), N(2)),
    }


def test_list_append_with_if_not_exists(item):
    it = item()
    expression = "SET l = list_append(if_not_exists(l, :empty), :v)"
    it.update(expression, {":empty": L(), ":v": L(S("a"))})
    it.update(expression, {":empty": L(), ":v": L(S("b"), S("c"))})
    assert it.attrs() == {"l": L(S("a"), S("b"), S("c"))}


def test_list_append_cannot_nest_itself(item):
    with expect_error(
        VE, "Invalid UpdateExpression: The function is not allowed to be used this way in an expression; function: list_append"
    ):
        item().update(
            "SET a = list_append(list_append(:v1, :v2), :v3)", {":v1": L(S("a")), ":v2": L(S("1")), ":v3": L(S("hi"))}
        )


@pytest.mark.parametrize(
    "value,type_name",
    [(S("a"), "S"), (N(1), "N"), (B(b"a"), "B"), ({"BOOL": False}, "BOOL"), ({"NULL": True}, "NULL"),
     (SS("a"), "SS"), (NS(1), "NS"), (BS(b"a"), "BS"), (M(), "M")],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_list_append_needs_lists(item, value, type_name):
    with expect_error(
        VE,
        "Invalid UpdateExpression: Incorrect operand type for operator or function; "
        f"operator or function: list_append, operand type: {type_name}",
    ):
        item().update("SET a = list_append(:x, :l)", {":x": value, ":l": L(N(1))})


def test_list_append_on_a_non_list_attribute_fails_at_run_time(item):
    it = item(s=S("x"), ns=NS(1))
    with expect_error(VE, BAD_OPERAND):
        it.update("SET r = list_append(s, :l)", {":l": L(N(1))})
    with expect_error(VE, BAD_OPERAND):
        it.update("SET r = list_append(:l, ns)", {":l": L(N(1))})


def test_function_results_combine_with_plus_but_not_inside_arguments(item):
    it = item()
    it.update("SET b = if_not_exists(b, :v1) + :v2", {":v1": N(2), ":v2": N(3)})
    assert it.attrs() == {"b": N(5)}
    with expect_error(VE, contains=['Invalid UpdateExpression: Syntax error; token: "+", near: "']):
        it.update("SET c = if_not_exists(c, :v1 + :v2)", {":v1": N(5), ":v2": N(4)})


@pytest.mark.parametrize("name", ["f", "f123_hi", "LIST_APPEND", "If_Not_Exists"])
def test_unknown_update_function(item, name):
    with expect_error(VE, f"Invalid UpdateExpression: Invalid function name; function: {name}"):
        item().update(f"SET a = {name}(b, c)")


# ===========================================================================
# Nested paths with SET
# ===========================================================================


def test_set_nested_map_members(item):
    it = item(a=M(b=N(3), c=N(4)), d=N(5))
    it.update("SET a.c = :v", {":v": N(7)})
    it.update("SET a.e = :v", {":v": N(3)})
    it.update("SET a.b = :v", {":v": M(one=N(1))})
    assert it.attrs() == {"a": M(b=M(one=N(1)), c=N(7), e=N(3)), "d": N(5)}
    # A name that contains a dot is a top-level attribute, not a path.
    it.update("SET #n = :v", {":v": N(9)}, names={"#n": "a.c"})
    assert it.attrs()["a.c"] == N(9)
    assert it.attrs()["a"] == M(b=M(one=N(1)), c=N(7), e=N(3))


def test_set_list_elements_and_deep_paths(item):
    it = item(a=M(b=N(3), c=L(S("hi"), M(x=M(y=L(N(3), N(5), N(7)))))), l=L(S("one"), S("two"), S("three")))
    it.update("SET l[1] = :v", {":v": S("hello")})
    it.update("SET a.c[1].#n.y[1] = :v", {":v": N(9)}, names={"#n": "x"})
    it.update("SET a.z = a.c[1].#n.y[1]", names={"#n": "x"})
    assert it.attrs() == {
        "a": M(b=N(3), c=L(S("hi"), M(x=M(y=L(N(3), N(9), N(7))))), z=N(9)),
        "l": L(S("one"), S("hello"), S("three")),
    }


def test_set_beyond_the_end_of_a_list_appends(item):
    it = item(a=L(S("one"), S("two"), S("three")), e=L())
    it.update("SET a[7] = :v", {":v": S("hello")})
    assert it.attrs()["a"] == L(S("one"), S("two"), S("three"), S("hello"))
    # Several out-of-range indexes are appended in index order.
    it.update(
        "SET a[84] = :v1, a[37] = :v2, a[17] = :v3, a[50] = :v4",
        {":v1": S("a1"), ":v2": S("a2"), ":v3": S("a3"), ":v4": S("a4")},
    )
    assert it.attrs()["a"] == L(
        S("one"), S("two"), S("three"), S("hello"), S("a3"), S("a2"), S("a4"), S("a1")
    )
    it.update("SET e[0] = :v", {":v": S("first")})
    assert it.attrs()["e"] == L(S("first"))


@pytest.mark.parametrize(
    "expression,token",
    [("SET a[:i] = :v", ":i"), ("SET a[#i] = :v", "#i"), ("SET a[-1] = :v", "-")],
)
def test_list_index_must_be_a_literal_integer(item, expression, token):
    it = item(a=L(S("one"), S("two")))
    values = {":v": S("x")}
    if ":i" in expression:
        values[":i"] = N(1)
    names = {"#i": "i"} if "#i" in expression else None
    with expect_error(VE, contains=[f'Invalid UpdateExpression: Syntax error; token: "{token}"']):
        it.update(expression, values, names)


@pytest.mark.parametrize(
    "expression",
    [
        "SET s.c = :v",      # s is a string
        "SET l.c = :v",      # l is a list
        "SET zz.c = :v",     # zz does not exist
        "SET m.zz.c = :v",   # intermediate map member missing
        "SET s[0] = :v",     # not a list
        "SET m[0] = :v",     # a map is not a list
        "SET zz[0] = :v",    # does not exist
        "REMOVE s.c",
        "REMOVE l.c",
        "REMOVE zz.c",
        "REMOVE s[0]",
        "REMOVE zz[0]",
        "ADD s.c :n",
        "ADD zz.c :n",
        "DELETE zz.c :ss",
    ],
)
def test_invalid_document_paths_for_update(item, expression):
    it = item(s=S("hello"), l=L(S("hi")), m=M(x=N(1)))
    values = {}
    if ":v" in expression:
        values[":v"] = N(7)
    if ":n" in expression:
        values[":n"] = N(1)
    if ":ss" in expression:
        values[":ss"] = SS("a")
    with expect_error(VE, BAD_PATH):
        it.update(expression, values or None)
    assert it.attrs() == {"s": S("hello"), "l": L(S("hi")), "m": M(x=N(1))}


@pytest.mark.parametrize("expression", ["SET c.c = :v", "SET b[0] = :v"])
def test_invalid_document_path_on_a_missing_item(item, expression):
    it = item()
    with expect_error(VE, BAD_PATH):
        it.update(expression, {":v": N(7)})
    assert it.get() is None


# ===========================================================================
# REMOVE
# ===========================================================================


def test_remove_attributes(item):
    it = item(a=S("hello"), b=S("hi"), c=N(1))
    it.update("REMOVE a")
    assert it.attrs() == {"b": S("hi"), "c": N(1)}
    it.update("REMOVE b, c, zz")
    assert it.get() == {"pk": S(it.pk)}


def test_remove_nested_members_and_list_elements(item):
    it = item(a=M(b=N(3), c=L(S("hi"), M(x=M(y=L(N(3), N(5), N(7))), q=N(2)))))
    it.update("REMOVE a.c[1].x.y[1], a.c[1].q")
    assert it.attrs() == {"a": M(b=N(3), c=L(S("hi"), M(x=M(y=L(N(3), N(7))))))}


def test_remove_list_elements_shifts_the_rest(item):
    it = item(l=L(S("a"), S("b"), S("c"), S("d")))
    it.update("REMOVE l[1]")
    assert it.attrs() == {"l": L(S("a"), S("c"), S("d"))}
    it.update("REMOVE l[2]")
    assert it.attrs() == {"l": L(S("a"), S("c"))}


def test_list_indexes_refer_to_positions_before_the_update(item):
    it = item(l=L(S("a"), S("b"), S("c"), S("d")), n=L(N(2), N(3), N(4), N(5), N(6), N(7)))
    it.update("REMOVE l[1], l[2]")
    assert it.attrs()["l"] == L(S("a"), S("d"))
    it.update("REMOVE n[1] SET n[3] = :v", {":v": N(17)})
    assert it.attrs()["n"] == L(N(2), N(4), N(17), N(6), N(7))
    it.update("SET n[3] = :v REMOVE n[0]", {":v": N(99)})
    assert it.attrs()["n"] == L(N(4), N(17), N(99), N(7))


def test_remove_beyond_the_end_of_a_list_is_ignored(item):
    it = item(a=L(N(4), N(5), N(6)))
    it.update("REMOVE a[17]")
    assert it.attrs() == {"a": L(N(4), N(5), N(6))}


def test_removing_the_last_member_leaves_an_empty_map_or_list(item):
    it = item(m=M(b=N(1)), l=L(N(1)))
    it.update("REMOVE m.b, l[0]")
    assert it.attrs() == {"m": M(), "l": L()}


def test_remove_absent_members_is_a_no_op(item):
    it = item(m=M(real=S("value")), keep=S("x"))
    it.update("REMOVE ghost, m.nonexistent")
    assert it.attrs() == {"m": M(real=S("value")), "keep": S("x")}


def test_remove_on_a_missing_item_creates_nothing(item):
    it = item()
    resp = it.update("REMOVE b", ReturnValues="ALL_NEW")
    assert "Attributes" not in resp
    assert it.get() is None
    it.update("REMOVE x.y")
    it.update("REMOVE x[0]")


# ===========================================================================
# ADD
# ===========================================================================


def test_add_numbers(item):
    it = item(a=N(3), s=S("hi"))
    it.update("ADD a :v", {":v": N(4)})
    it.update("ADD b :v", {":v": N("-2.5")})
    it.update("ADD c :v, d :w", {":v": N("0.1"), ":w": N(0)})
    it.update("ADD c :v", {":v": N("0.2")})
    assert it.attrs() == {"a": N(7), "b": N("-2.5"), "c": N("0.3"), "d": N(0), "s": S("hi")}


def test_add_creates_the_item(item):
    it = item()
    it.update("ADD b :v", {":v": N(8)})
    assert it.get() == {"pk": S(it.pk), "b": N(8)}


def test_add_to_sets(item):
    it = item(ss=SS("dog", "cat", "mouse"), ns=NS(1, 2), bs=BS(b"\x01", b"\x02"))
    it.update(
        "ADD ss :ss, ns :ns, bs :bs, fresh :fresh",
        {":ss": SS("pig", "cat"), ":ns": NS(2, 3, 4), ":bs": BS(b"\x02", b"\x03"), ":fresh": SS("z")},
    )
    assert _canon(it.attrs()) == _canon(
        {
            "ss": SS("dog", "cat", "mouse", "pig"),
            "ns": NS(1, 2, 3, 4),
            "bs": BS(b"\x01", b"\x02", b"\x03"),
            "fresh": SS("z"),
        }
    )


def test_sets_are_answered_in_the_services_order(item):
    """A set's members come back bytewise (strings, binaries) or by value (numbers), not as
    written: ADD of [""] onto ["a"] reads back ["", "a"] (paritysuite/dynamodb-conformance
    tests/tier1/updateItem/basic.test.ts, eu-west-2, 2026-10-09)."""
    it = item(tags=SS("a"))
    it.update("ADD tags :v", {":v": SS("")})
    assert it.attrs() == {"tags": SS("", "a")}
    it = item(ss=SS("dog", "cat", "Zebra", "é", "mouse"), ns=NS(10, 9, -1.5), bs=BS(b"\x02", b"\x01\xff", b"\x01"))
    assert it.attrs() == {"ss": SS("Zebra", "cat", "dog", "mouse", "é"), "ns": NS(-1.5, 9, 10),
                          "bs": BS(b"\x01", b"\x01\xff", b"\x02")}
    returned = it.update("ADD ss :ss, ns :ns, bs :bs", {":ss": SS("ant", "pig"), ":ns": NS(2), ":bs": BS(b"\x00")},
                         ReturnValues="UPDATED_NEW")["Attributes"]
    assert returned == {"ss": SS("Zebra", "ant", "cat", "dog", "mouse", "pig", "é"), "ns": NS(-1.5, 2, 9, 10),
                        "bs": BS(b"\x00", b"\x01", b"\x01\xff", b"\x02")}
    assert it.attrs() == returned


def test_add_to_nested_numbers_and_sets(item):
    it = item(m=M(n=N(1), tags=SS("a")), l=L(N(1), NS(5)))
    it.update("ADD m.n :one, m.tags :t, m.fresh :one, l[1] :ns", {":one": N(1), ":t": SS("b"), ":ns": NS(6)})
    assert _canon(it.attrs()) == _canon({"m": M(n=N(2), tags=SS("a", "b"), fresh=N(1)), "l": L(N(1), NS(5, 6))})


@pytest.mark.parametrize(
    "value,type_name",
    [(S("1"), "STRING"), (B(b"a"), "BINARY"), ({"BOOL": True}, "BOOLEAN"), ({"NULL": True}, "NULL"),
     (M(a=L(N(1))), "MAP"), (L(N(1)), "LIST")],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_add_operand_must_be_a_number_or_set(item, value, type_name):
    it = item()
    with expect_error(
        VE, f"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: {type_name}, typeSet: ALLOWED_FOR_ADD_OPERAND"
    ):
        it.update("ADD a :v", {":v": value})
    assert it.get() is None


@pytest.mark.parametrize(
    "stored,value",
    [(S("hi"), N(1)), (NS(1), N(1)), (N(1), NS(1)), (SS("1"), NS(1)), (NS(1), SS("1")), (L(N(1)), N(1)), (M(), SS("a"))],
    ids=["N-to-S", "N-to-NS", "NS-to-N", "NS-to-SS", "SS-to-NS", "N-to-L", "SS-to-M"],
)
def test_add_to_an_attribute_of_another_type_fails(item, stored, value):
    it = item(a=stored)
    with expect_error(VE, BAD_OPERAND):
        it.update("ADD a :v", {":v": value})
    assert it.attrs() == {"a": stored}


# ===========================================================================
# DELETE
# ===========================================================================


def test_delete_set_members(item):
    it = item(ss=SS("dog", "cat", "mouse"), ns=NS(1, 2, 3), bs=BS(b"\x01", b"\x02"), keep=S("k"))
    it.update("DELETE ss :ss, ns :ns, bs :bs", {":ss": SS("cat", "mouse"), ":ns": NS(1, 4), ":bs": BS(b"\x02")})
    assert _canon(it.attrs()) == {"ss": SS("dog"), "ns": NS(2, 3), "bs": BS(b"\x01"), "keep": S("k")}
    # Deleting members that are not there changes nothing.
    it.update("DELETE ss :ss", {":ss": SS("pig")})
    assert it.attrs()["ss"] == SS("dog")


def test_deleting_every_member_removes_the_attribute(item):
    it = item(ss=SS("a", "b"), m=M(tags=NS(1)), keep=S("k"))
    it.update("DELETE ss :ss, m.tags :ns", {":ss": SS("a", "b"), ":ns": NS(1)})
    assert it.attrs() == {"m": M(), "keep": S("k")}


def test_delete_from_an_absent_attribute_or_item_is_a_no_op(item):
    it = item(keep=S("k"))
    it.update("DELETE ss :ss", {":ss": SS("a")})
    assert it.attrs() == {"keep": S("k")}
    missing = item()
    missing.update("DELETE ss :ss", {":ss": SS("a")})
    assert missing.get() is None


@pytest.mark.parametrize(
    "value,type_name",
    [(S("1"), "STRING"), (N(1), "NUMBER"), (B(b"a"), "BINARY"), ({"BOOL": False}, "BOOLEAN"),
     ({"NULL": True}, "NULL"), (M(a=L(N(1))), "MAP"), (L(N(1)), "LIST")],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_delete_operand_must_be_a_set(item, value, type_name):
    with expect_error(
        VE,
        f"Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: {type_name}, typeSet: ALLOWED_FOR_DELETE_OPERAND",
    ):
        item(a=SS("1")).update("DELETE a :v", {":v": value})


@pytest.mark.parametrize(
    "stored,value",
    [(NS(1), SS("1")), (SS("1"), NS(1)), (SS("1"), BS(b"a")), (N(1), NS(1)), (M(a=SS("1")), NS(1))],
    ids=["SS-from-NS", "NS-from-SS", "BS-from-SS", "NS-from-N", "NS-from-M"],
)
def test_delete_from_an_attribute_of_another_type_fails(item, stored, value):
    it = item(a=stored)
    with expect_error(VE, BAD_OPERAND):
        it.update("DELETE a :v", {":v": value})
    assert it.attrs() == {"a": stored}


# ===========================================================================
# Clauses
# ===========================================================================


def test_clauses_combine_in_any_order(item):
    it = item(b=S("gone"), c=SS("a", "b", "c"), d=N(1))
    it.update(
        "REMOVE b DELETE c :c ADD d :d, e :e SET f = :f",
        {":c": SS("a"), ":d": N(5), ":e": SS("x"), ":f": L(S("a"), N(1))},
    )
    assert _canon(it.attrs()) == _canon({"c": SS("b", "c"), "d": N(6), "e": SS("x"), "f": L(S("a"), N(1))})
    it.update("SET g = :g ADD d :d REMOVE f", {":g": N(0), ":d": N(1)})
    assert _canon(it.attrs()) == _canon({"c": SS("b", "c"), "d": N(7), "e": SS("x"), "g": N(0)})


def test_clause_keywords_are_case_insensitive_and_whitespace_is_free(item):
    it = item()
    it.update("set a = :v", {":v": N(4)})
    it.update("sEt b = :v", {":v": N(5)})
    it.update("  SET   c=:v  ", {":v": N(6)})
    it.update("Add d :v remove a", {":v": N(1)})
    it.update("delete e :s", {":s": SS("x")})
    assert it.attrs() == {"b": N(5), "c": N(6), "d": N(1)}


def test_every_action_on_a_missing_item_with_updated_new(item):
    it = item()
    resp = it.update(
        "REMOVE b DELETE c :c ADD d :d, e :e SET f = :f",
        {":c": SS("a", "b"), ":d": N(5), ":e": SS("a", "b"), ":f": L(S("a"), N(1))},
        ReturnValues="UPDATED_NEW",
    )
    expected = {"d": N(5), "e": SS("a", "b"), "f": L(S("a"), N(1))}
    assert _canon(resp["Attributes"]) == _canon(expected)
    assert _canon(it.attrs()) == _canon(expected)


@pytest.mark.parametrize(
    "expression,section",
    [
        ("SET a = :v SET b = :v", "SET"),
        ("SET a = :v REMOVE c SET b = :v", "SET"),
        ("REMOVE a SET b = :v REMOVE c", "REMOVE"),
        ("ADD a :n SET b = :v ADD c :n", "ADD"),
        ("DELETE a :s SET b = :v DELETE c :s", "DELETE"),
    ],
)
def test_each_clause_may_appear_only_once(item, expression, section):
    values = {":v": N(1)}
    if ":n" in expression:
        values[":n"] = N(1)
    if ":s" in expression:
        values[":s"] = SS("x")
    with expect_error(VE, f'Invalid UpdateExpression: The "{section}" section can only be used once in an update expression;'):
        item().update(expression, values)


# ===========================================================================
# Overlapping and conflicting paths
# ===========================================================================


def _two_paths(kind: str, one: str, two: str):
    base = "Invalid UpdateExpression: Two document paths {} with each other; must remove or rewrite one of these paths; path one: {}, path two: {}"
    return base.format(kind, one, two), [base.format(kind, two, one)]


@pytest.mark.parametrize(
    "expression,names",
    [
        ("SET a = :v1, a = :v2", None),
        ("SET a = :v1 REMOVE a", None),
        ("REMOVE a SET a = :v1", None),
        ("REMOVE a, a", None),
        ("SET #a1 = :v1, #a2 = :v2", {"#a1": "a", "#a2": "a"}),
        ("ADD a :v1 SET a = :v2", None),
        ("ADD a :v1 DELETE a :s", None),
    ],
)
def test_the_same_path_twice_is_rejected(item, expression, names):
    values = {k: N(1) for k in (":v1", ":v2") if k in expression}
    if ":s" in expression:
        values[":s"] = NS(1)
    it = item(a=N(1))
    message, alternatives = _two_paths("overlap", "[a]", "[a]")
    with expect_error(VE, message, alternatives=alternatives):
        it.update(expression, values or None, names)
    assert it.attrs() == {"a": N(1)}


@pytest.mark.parametrize(
    "expression,one,two",
    [
        ("SET a = :v1, a.b = :v2", "[a]", "[a, b]"),
        ("SET a.b = :v1, a = :v2", "[a, b]", "[a]"),
        ("SET a.b = :v1, a.b.c = :v2", "[a, b]", "[a, b, c]"),
        ("SET a.b = :v1, a.b.c.d.e = :v2", "[a, b]", "[a, b, c, d, e]"),
        ("SET a = :v1, a[1] = :v2", "[a]", "[a, [1]]"),
        ("SET a[1] = :v1, a[1] = :v2", "[a, [1]]", "[a, [1]]"),
        ("SET a[1][1] = :v1, a[1] = :v2", "[a, [1], [1]]", "[a, [1]]"),
        ("SET a[1] = :v1 REMOVE a[1][2]", "[a, [1]]", "[a, [1], [2]]"),
        ("SET #c[3].#d = :v1, #c[3] = :v2", "[c, [3], [3]]", "[c, [3]]"),
    ],
)
def test_overlapping_paths_are_rejected(item, expression, one, two):
    names = {"#c": "c", "#d": "[3]"} if "#c" in expression else None
    message, alternatives = _two_paths("overlap", one, two)
    with expect_error(VE, message, alternatives=alternatives):
        item().update(expression, {":v1": N(2), ":v2": S("there")} if ":v2" in expression else {":v1": N(2)}, names)


@pytest.mark.parametrize(
    "expression,one,two",
    [
        ("SET a.b = :v1, a[1] = :v2", "[a, b]", "[a, [1]]"),
        ("SET a.b.c = :v1, a.b[2] = :v2", "[a, b, c]", "[a, b, [2]]"),
        ("REMOVE a.c SET a[1] = :v2", "[a, c]", "[a, [1]]"),
    ],
)
def test_conflicting_paths_are_rejected(item, expression, one, two):
    values = {k: N(2) for k in (":v1", ":v2") if k in expression}
    message, alternatives = _two_paths("conflict", one, two)
    with expect_error(VE, message, alternatives=alternatives):
        item().update(expression, values)


def test_disjoint_nested_paths_in_one_update(item):
    it = item(a=M(x=N(3), y=N(4), c=M(y=N(3))), b=M(x=N(1), y=N(2)), l=L(N(0), N(1)))
    it.update(
        "SET a.b = :v1, a.c.d = :v2, b.x = :v3, l[0] = :v1, l[1] = :v2 REMOVE a.x, b.y",
        {":v1": N(10), ":v2": S("dog"), ":v3": N(17)},
    )
    assert it.attrs() == {
        "a": M(y=N(4), b=N(10), c=M(y=N(3), d=S("dog"))),
        "b": M(x=N(17)),
        "l": L(N(10), S("dog")),
    }


# ===========================================================================
# Key attributes
# ===========================================================================


@pytest.mark.parametrize(
    "expression,values",
    [
        ("SET pk = :v", {":v": S("other")}),
        ("REMOVE pk", None),
        ("ADD pk :n", {":n": N(1)}),
        ("DELETE pk :s", {":s": SS("x")}),
        ("SET extra = :v, pk = :v", {":v": S("x")}),
        ("ADD pk.b :n", {":n": N(1)}),
        ("SET pk.b = :v", {":v": S("x")}),
    ],
)
def test_hash_key_cannot_be_updated(ddb, hash_table, expression, values):
    params = dict(TableName=hash_table, Key=_key(unique_name("upd")), UpdateExpression=expression)
    if values:
        params["ExpressionAttributeValues"] = values
    with expect_error(VE, KEY_ATTR.format("pk")):
        ddb.update_item(**params)


@pytest.mark.parametrize(
    "expression,values",
    [("SET sk = :v", {":v": N(2)}), ("REMOVE sk", None), ("ADD sk :v", {":v": N(1)}), ("SET v = :v ADD sk :v", {":v": N(1)})],
)
def test_range_key_cannot_be_updated(ddb, range_table, expression, values):
    params = dict(TableName=range_table, Key={"pk": S(unique_name("upd")), "sk": N(1)}, UpdateExpression=expression)
    if values:
        params["ExpressionAttributeValues"] = values
    with expect_error(VE, KEY_ATTR.format("sk")):
        ddb.update_item(**params)


def test_key_attributes_can_be_read(ddb, range_table):
    key = {"pk": S(unique_name("upd")), "sk": N(7)}
    ddb.update_item(TableName=range_table, Key=key)
    ddb.update_item(TableName=range_table, Key=key, UpdateExpression="SET #n = #p, #nn = #s + #s",
                    ExpressionAttributeNames={"#n": "n", "#p": "pk", "#nn": "nn", "#s": "sk"})
    assert ddb.get_item(TableName=range_table, Key=key, ConsistentRead=True)["Item"] == {**key, "n": key["pk"], "nn": N(14)}


# ===========================================================================
# Names, values, reserved words, syntax
# ===========================================================================


def test_attribute_name_tokens(item):
    it = item()
    it.update("SET alnum = :v, Alpha_Numeric_123 = :v, A123_ = :v", {":v": N(1)})
    silly = "3can include any character!.#="
    it.update("SET #123a = :Alpha_Numeric_123, #_ = :123", {":Alpha_Numeric_123": N(2), ":123": N(3)},
              {"#123a": silly, "#_": "under"})
    it.update("SET b = :_", {":_": N(4)})
    assert it.attrs() == {"alnum": N(1), "Alpha_Numeric_123": N(1), "A123_": N(1), silly: N(2), "under": N(3), "b": N(4)}


@pytest.mark.parametrize(
    "expression,values,message",
    [
        # Captured from the real service (nubo-db/dynamodb-conformance, 2026-06).
        ("INVALID SYNTAX HERE", {":v": S("val")}, 'Invalid UpdateExpression: Syntax error; token: "INVALID", near: "INVALID SYNTAX"'),
        # Reported by a user of the real service (aws/aws-cdk issue #7591).
        ("ADD hits : incr", {":incr": N(1)}, 'Invalid UpdateExpression: Syntax error; token: ":", near: "hits : incr"'),
        # Quoted in ScyllaDB's alternator tests, which were run against DynamoDB.
        ("SET _123 = :val1", {":val1": N(3)}, 'Invalid UpdateExpression: Syntax error; token: "_", near: "SET _123"'),
        ("SET hi-there = :v", {":v": N(3)}, 'Invalid UpdateExpression: Syntax error; token: "-", near: "hi-there"'),
    ],
    ids=["leading-word", "split-value-reference", "underscore-name", "dash-in-name"],
)
def test_update_syntax_error_messages(item, expression, values, message):
    with expect_error(VE, message):
        item().update(expression, values)


@pytest.mark.parametrize(
    "expression,token",
    [
        ("HELLO b = :v", "HELLO"),
        ("SET a", "<EOF>"),
        ("SET a = ", "<EOF>"),
        ("SET :v = :v", ":v"),
        ("REMOVE :v", ":v"),
        ("ADD a = :v", "="),
        ("SET a = :v,", "<EOF>"),
        ("SET a = b * :v", "*"),
        ("SET a = :v REMOVE", "<EOF>"),
        ("SET a = _f(b)", "_"),
    ],
)
def test_update_syntax_errors_name_the_offending_token(item, expression, token):
    values = {":v": N(1)} if ":v" in expression else None
    with expect_error(VE, contains=[f'Invalid UpdateExpression: Syntax error; token: "{token}", near: "']):
        item().update(expression, values)


@pytest.mark.parametrize(
    "expression,word",
    [("SET status = :v", "status"), ("REMOVE Absolute", "Absolute"), ("SET a.#c = :v, b.data = :v", "data"),
     ("ADD counter :v", "counter"), ("SET a = if_not_exists(name, :v)", "name")],
)
def test_reserved_words_in_update_expressions(item, expression, word):
    names = {"#c": "c"} if "#c" in expression else None
    values = {":v": N(1)} if ":v" in expression else None
    with expect_error(VE, f"Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: {word}"):
        item().update(expression, values, names)


def test_reserved_words_through_names(item):
    it = item()
    it.update("SET #s = :v, #c = :v", {":v": N(1)}, {"#s": "status", "#c": "counter"})
    assert it.attrs() == {"status": N(1), "counter": N(1)}


def test_undefined_name_and_value(item):
    with expect_error(
        VE,
        "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #name",
    ):
        item().update("SET #name = :v", {":v": N(1)}, {"#other": "x"})
    with expect_error(
        VE, "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :v"
    ):
        item().update("SET attr1 = :v")
    with expect_error(
        VE, "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :val1"
    ):
        item().update("SET b = :val1", {":val2": N(4)})


def test_unused_names_and_values(item):
    with expect_error(VE, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}"):
        item().update("SET attr1 = :v", {":v": S("val"), ":unused": S("extra")})
    with expect_error(VE, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}"):
        item().update("SET attr1 = :v", {":v": S("val")}, {"#unused": "someattr"})
    with expect_error(VE, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#three}"):
        item(a=N(1)).update("SET #one = #two", names={"#one": "c", "#two": "a", "#three": "z"})


def test_empty_update_expression(item):
    with expect_error(VE, "Invalid UpdateExpression: The expression can not be empty;"):
        item().update("")


def test_update_expression_errors_come_before_table_lookup(ddb):
    with expect_error(VE, contains=["Invalid UpdateExpression: Syntax error; "]):
        ddb.update_item(TableName=unique_name("missing"), Key=_key("a"), UpdateExpression="whatever")


def test_names_and_values_without_expressions(ddb, hash_table):
    with expect_error(VE, "ExpressionAttributeNames can only be specified when using expressions"):
        ddb.update_item(TableName=hash_table, Key=_key("no-expr"), ExpressionAttributeNames={"#s": "status"})
    with expect_error(
        VE,
        "ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and ConditionExpression are null",
        alternatives=["ExpressionAttributeValues can only be specified when using expressions"],
    ):
        ddb.update_item(TableName=hash_table, Key=_key("no-expr"), ExpressionAttributeValues={":v": N(1)})


# ===========================================================================
# Item size
# ===========================================================================


def test_update_that_makes_the_item_too_large(item):
    it = item(a=S("x" * 300_000))
    with expect_error(VE, "Item size to update has exceeded the maximum allowed size"):
        it.update("SET b = :v", {":v": S("y" * 150_000)})
    assert it.attrs() == {"a": S("x" * 300_000)}
    with expect_error(VE, "Item size to update has exceeded the maximum allowed size"):
        it.update("SET b = a, c = a")
    with expect_error(VE, "Item size to update has exceeded the maximum allowed size"):
        it.update("SET a = list_append(:l, :l)", {":l": L(S("z" * 210_000))})


# ===========================================================================
# ReturnValues
# ===========================================================================


def _body(resp):
    return {k: v for k, v in resp.items() if k != "ResponseMetadata"}


def test_return_values_none(item):
    it = item(a=S("hi"), b=S("dog"))
    assert _body(it.update("SET b = :v", {":v": S("cat")})) == {}
    assert _body(it.update("SET b = :v", {":v": S("cow")}, ReturnValues="NONE")) == {}


def test_return_values_all_old(item):
    it = item(a=S("hi"), b=S("dog"), m=M(x=L(N(1))))
    resp = it.update("SET b = :v REMOVE a", {":v": S("cat")}, ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": S(it.pk), "a": S("hi"), "b": S("dog"), "m": M(x=L(N(1)))}
    assert "Attributes" not in item().update("SET b = :v", {":v": S("cat")}, ReturnValues="ALL_OLD")


def test_return_values_updated_old(item):
    it = item(a=S("hi"), b=S("dog"))
    assert it.update("SET b = :v, c = :w", {":v": S("cat"), ":w": S("hello")}, ReturnValues="UPDATED_OLD")["Attributes"] == {
        "b": S("dog")
    }
    # Writing the same value again still counts as an update.
    assert it.update("SET b = :v", {":v": S("cat")}, ReturnValues="UPDATED_OLD")["Attributes"] == {"b": S("cat")}
    # A removed attribute is returned with its old value.
    assert it.update("REMOVE b", ReturnValues="UPDATED_OLD")["Attributes"] == {"b": S("cat")}
    # Writing only attributes that did not exist returns nothing.
    assert "Attributes" not in it.update("SET b = :v", {":v": S("cat")}, ReturnValues="UPDATED_OLD")
    assert it.update("SET b = :v, d = :w", {":v": S("dog"), ":w": S("lion")}, ReturnValues="UPDATED_OLD")["Attributes"] == {
        "b": S("cat")
    }
    # Removing an attribute that does not exist returns nothing for it.
    assert "Attributes" not in it.update("REMOVE zz", ReturnValues="UPDATED_OLD")


def test_return_values_all_new(item):
    it = item(a=S("hi"), b=S("dog"))
    assert it.update("SET b = :v", {":v": S("cat")}, ReturnValues="ALL_NEW")["Attributes"] == {
        "pk": S(it.pk), "a": S("hi"), "b": S("cat")
    }
    assert it.update("REMOVE b", ReturnValues="ALL_NEW")["Attributes"] == {"pk": S(it.pk), "a": S("hi")}
    fresh = item()
    assert fresh.update("SET b = :v", {":v": S("cat")}, ReturnValues="ALL_NEW")["Attributes"] == {
        "pk": S(fresh.pk), "b": S("cat")
    }
    it2 = item(s=S("dog"), d=S("foo"), n=N(3))
    resp = it2.update("REMOVE d SET s = :v ADD n :one", {":v": S("cat"), ":one": N(1)}, ReturnValues="ALL_NEW")
    assert resp["Attributes"] == {"pk": S(it2.pk), "s": S("cat"), "n": N(4)}


def test_return_values_updated_new(item):
    it = item(a=S("hi"), b=S("dog"))
    resp = it.update("SET b = :v, c = :w", {":v": S("cat"), ":w": S("hello")}, ReturnValues="UPDATED_NEW")
    assert resp["Attributes"] == {"b": S("cat"), "c": S("hello")}
    assert "Attributes" not in it.update("REMOVE b", ReturnValues="UPDATED_NEW")
    resp = it.update("SET a = :v, b = :w REMOVE c", {":v": S("dog"), ":w": S("tiger")}, ReturnValues="UPDATED_NEW")
    assert resp["Attributes"] == {"a": S("dog"), "b": S("tiger")}
    counter = item(a=N(1), tags=SS("x"))
    assert counter.update("SET a = a + :v", {":v": N(1)}, ReturnValues="UPDATED_NEW")["Attributes"] == {"a": N(2)}
    resp = counter.update("ADD tags :t", {":t": SS("y")}, ReturnValues="UPDATED_NEW")
    assert _canon(resp["Attributes"]) == {"tags": SS("x", "y")}
    # Key attributes are not returned, even when the update created the item.
    fresh = item()
    assert fresh.update("SET a = :v", {":v": N(1)}, ReturnValues="UPDATED_NEW")["Attributes"] == {"a": N(1)}


def test_return_values_with_nested_paths(item):
    it = item(a=M(b=S("dog"), c=L(N(1), N(2), N(3))), d=S("cat"))
    resp = it.update("SET a.b = :v", {":v": S("hi")}, ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": S(it.pk), "a": M(b=S("dog"), c=L(N(1), N(2), N(3))), "d": S("cat")}
    # UPDATED_* return only the touched sub-document, inside its parents.
    assert it.update("SET a.b = :v", {":v": S("yo")}, ReturnValues="UPDATED_OLD")["Attributes"] == {"a": M(b=S("hi"))}
    assert it.update("SET a.c[1] = :v", {":v": N(7)}, ReturnValues="UPDATED_OLD")["Attributes"] == {"a": M(c=L(N(2)))}
    resp = it.update("SET a.c[1] = :v, a.b = :w", {":v": N(8), ":w": S("dog")}, ReturnValues="UPDATED_OLD")
    assert resp["Attributes"] == {"a": M(b=S("yo"), c=L(N(7)))}
    assert it.update("SET a.b = :v", {":v": S("hello")}, ReturnValues="UPDATED_NEW")["Attributes"] == {"a": M(b=S("hello"))}
    assert it.update("SET a.c[1] = :v", {":v": N(4)}, ReturnValues="UPDATED_NEW")["Attributes"] == {"a": M(c=L(N(4)))}
    resp = it.update("SET a.c[1] = :v, a.b = :w", {":v": N(3), ":w": S("dog")}, ReturnValues="UPDATED_NEW")
    assert resp["Attributes"] == {"a": M(b=S("dog"), c=L(N(3)))}
    resp = it.update("SET a.b = :v", {":v": S("hi")}, ReturnValues="ALL_NEW")
    assert resp["Attributes"] == {"pk": S(it.pk), "a": M(b=S("hi"), c=L(N(1), N(3), N(3))), "d": S("cat")}
    # REMOVE of an existing and of a missing list element: only the existing one is returned.
    assert it.update("REMOVE a.c[1], a.c[3]", ReturnValues="UPDATED_OLD")["Attributes"] == {"a": M(c=L(N(3)))}
    # A new member is absent from UPDATED_OLD and present in UPDATED_NEW.
    assert "Attributes" not in it.update("SET a.x1 = :v", {":v": N(8)}, ReturnValues="UPDATED_OLD")
    assert it.update("SET a.x2 = :v", {":v": N(8)}, ReturnValues="UPDATED_NEW")["Attributes"] == {"a": M(x2=N(8))}
    # Setting beyond the end of a list appends, and UPDATED_NEW (which looks
    # at the index written) returns nothing.
    assert "Attributes" not in it.update("SET a.c[100] = :v", {":v": N(70)}, ReturnValues="UPDATED_NEW")
    assert it.attrs()["a"]["M"]["c"] == L(N(1), N(3), N(70))
    # After REMOVE a.c[1] the element that moved into position 1 is reported.
    assert it.update("REMOVE a.c[1]", ReturnValues="UPDATED_NEW")["Attributes"] == {"a": M(c=L(N(70)))}
