"""GetItem with ProjectionExpression: top-level and nested paths, list indexes, errors.

Behaviour and messages are those of real DynamoDB, as recorded by suites that
were run against it (ScyllaDB's alternator tests, dynalite's tests, the
nubo-db dynamodb-conformance captures). Where only part of a message is
established, the test checks the error code and that part.
"""

from __future__ import annotations

import pytest

from ddb_helpers import expect_error, unique_name

VE = "ValidationException"


def N(x) -> dict:
    return {"N": str(x)}


def S(x: str) -> dict:
    return {"S": x}


def L(*xs) -> dict:
    return {"L": list(xs)}


def M(**kw) -> dict:
    return {"M": dict(kw)}


def _key(pk: str) -> dict:
    return {"pk": {"S": pk}}


def _project(ddb, table, pk, expression, names=None):
    params = dict(TableName=table, Key=_key(pk), ConsistentRead=True, ProjectionExpression=expression)
    if names is not None:
        params["ExpressionAttributeNames"] = names
    return ddb.get_item(**params)


DOC = {
    "a": M(b=L(N(2), N(4), M(x=S("hi"), y=S("yo"))), c=N(5)),
    "b": S("hello"),
    "l": L(S("l0"), S("l1"), S("l2")),
    "m": M(a=S("A"), b=S("B"), c=S("C")),
    "bin": {"B": b"\x00\xff"},
    "ss": {"SS": ["x"]},
}


@pytest.fixture(scope="module")
def doc_item(ddb, hash_table):
    pk = unique_name("proj")
    ddb.put_item(TableName=hash_table, Item={"pk": S(pk), **DOC})
    return pk


# ===========================================================================
# Top-level attributes
# ===========================================================================


@pytest.mark.parametrize(
    "expression,expected",
    [
        ("b", {"b": S("hello")}),
        ("b, bin", {"b": S("hello"), "bin": {"B": b"\x00\xff"}}),
        ("  b  ,   ss  ", {"b": S("hello"), "ss": {"SS": ["x"]}}),
        ("nonexistent", {}),
        ("b, nonexistent", {"b": S("hello")}),
    ],
)
def test_top_level_projection(ddb, hash_table, doc_item, expression, expected):
    # Key attributes are returned only when asked for; an item with none of the
    # requested attributes comes back as an empty Item.
    assert _project(ddb, hash_table, doc_item, expression)["Item"] == expected


def test_key_attributes_only_when_requested(ddb, range_table):
    key = {"pk": S(unique_name("proj")), "sk": N(3)}
    ddb.put_item(TableName=range_table, Item={**key, "a": S("hello"), "b": S("hi")})
    get = lambda expr: ddb.get_item(TableName=range_table, Key=key, ConsistentRead=True, ProjectionExpression=expr)["Item"]
    assert get("a") == {"a": S("hello")}
    assert get("sk, a") == {"sk": N(3), "a": S("hello")}
    assert get("pk, sk") == key


def test_projection_of_a_missing_item_returns_no_item(ddb, hash_table):
    resp = _project(ddb, hash_table, unique_name("proj-absent"), "a, b")
    assert "Item" not in resp


# ===========================================================================
# Nested paths
# ===========================================================================


@pytest.mark.parametrize(
    "expression,expected",
    [
        ("a", {"a": DOC["a"]}),
        ("a.b", {"a": M(b=L(N(2), N(4), M(x=S("hi"), y=S("yo"))))}),
        ("a.b[0]", {"a": M(b=L(N(2)))}),
        ("a.b[2]", {"a": M(b=L(M(x=S("hi"), y=S("yo"))))}),
        ("a.b[2].y", {"a": M(b=L(M(y=S("yo"))))}),
        ("l[1]", {"l": L(S("l1"))}),
        ("m.a, m.b", {"m": M(a=S("A"), b=S("B"))}),
        ("a.b[0], a.b[1]", {"a": M(b=L(N(2), N(4)))}),
        ("a.b[0], a.c", {"a": M(b=L(N(2)), c=N(5))}),
        ("a.c, b", {"a": M(c=N(5)), "b": S("hello")}),
        ("l[2], l[0]", {"l": L(S("l0"), S("l2"))}),
        ("l[0], l[2], a.b[2].x, m.c", {"l": L(S("l0"), S("l2")), "a": M(b=L(M(x=S("hi")))), "m": M(c=S("C"))}),
    ],
)
def test_nested_paths_return_nested_sub_documents(ddb, hash_table, doc_item, expression, expected):
    assert _project(ddb, hash_table, doc_item, expression)["Item"] == expected


@pytest.mark.parametrize(
    "expression",
    ["x", "a.b[3]", "a.x", "a.x.y", "a.b[3].x", "a.b.x", "a[0]", "a.b[0].x", "a.b[0][0]", "b.x", "b[0]", "l[3]", "m.a.b"],
)
def test_paths_that_do_not_resolve_are_left_out(ddb, hash_table, doc_item, expression):
    assert _project(ddb, hash_table, doc_item, expression)["Item"] == {}


def test_unresolvable_paths_are_ignored_next_to_resolvable_ones(ddb, hash_table, doc_item):
    item = _project(ddb, hash_table, doc_item, "a.x, a.b[0], x, a.b[3].x")["Item"]
    assert item == {"a": M(b=L(N(2)))}


def test_names_in_projection_paths(ddb, hash_table):
    pk = unique_name("proj")
    ddb.put_item(
        TableName=hash_table,
        Item={"pk": S(pk), "a": M(b=N(1), c=N(2)), "a.b": S("dotted"), "status": S("on"), "b": S("hi")},
    )
    assert _project(ddb, hash_table, pk, "a.b")["Item"] == {"a": M(b=N(1))}
    assert _project(ddb, hash_table, pk, "#n1.b", {"#n1": "a"})["Item"] == {"a": M(b=N(1))}
    assert _project(ddb, hash_table, pk, "a.#n2", {"#n2": "b"})["Item"] == {"a": M(b=N(1))}
    assert _project(ddb, hash_table, pk, "#n1.#n2", {"#n1": "a", "#n2": "b"})["Item"] == {"a": M(b=N(1))}
    # A single name reference is one attribute name, even when it contains a dot.
    assert _project(ddb, hash_table, pk, "#d", {"#d": "a.b"})["Item"] == {"a.b": S("dotted")}
    # Reserved words are usable through names.
    assert _project(ddb, hash_table, pk, "pk, #s", {"#s": "status"})["Item"] == {"pk": S(pk), "status": S("on")}


# ===========================================================================
# Overlapping and conflicting paths
# ===========================================================================


def _two_paths(kind: str, one: str, two: str):
    base = (
        "Invalid ProjectionExpression: Two document paths {} with each other; "
        "must remove or rewrite one of these paths; path one: {}, path two: {}"
    )
    return base.format(kind, one, two), [base.format(kind, two, one)]


@pytest.mark.parametrize(
    "expression,one,two",
    [
        ("a, a", "[a]", "[a]"),
        ("a.b, a.b", "[a, b]", "[a, b]"),
        ("a[1], a[1]", "[a, [1]]", "[a, [1]]"),
        ("a, a.b", "[a]", "[a, b]"),
        ("a.b, a", "[a, b]", "[a]"),
        ("a.b, a.b[2]", "[a, b]", "[a, b, [2]]"),
        ("a.b, a.b.c", "[a, b]", "[a, b, c]"),
        ("a, a.b[2].c", "[a]", "[a, b, [2], c]"),
        ("a.b.d.e, a.b", "[a, b, d, e]", "[a, b]"),
        ("a, #a[1]", "[a]", "[a, [1]]"),
        ("#a, #a", "[a]", "[a]"),
    ],
)
def test_overlapping_paths_are_rejected(ddb, hash_table, expression, one, two):
    names = {"#a": "a"} if "#a" in expression else None
    message, alternatives = _two_paths("overlap", one, two)
    with expect_error(VE, message, alternatives=alternatives):
        _project(ddb, hash_table, unique_name("proj"), expression, names)


@pytest.mark.parametrize(
    "expression,one,two",
    [
        ("a.b, a[1]", "[a, b]", "[a, [1]]"),
        ("a.b[1], #a[1]", "[a, b, [1]]", "[a, [1]]"),
        ("a[3].b, #a.#b.b", "[a, [3], b]", "[a, [3], b]"),
    ],
)
def test_conflicting_paths_are_rejected(ddb, hash_table, expression, one, two):
    names = {k: v for k, v in {"#a": "a", "#b": "[3]"}.items() if k in expression} or None
    message, alternatives = _two_paths("conflict", one, two)
    with expect_error(VE, message, alternatives=alternatives):
        _project(ddb, hash_table, unique_name("proj"), expression, names)


@pytest.mark.parametrize("expression", ["a, b", "a.b, a.c", "a.b.d, a.b.e", "a[1], a[2]", "a.b, a.c[2]", "a.b, a.c[1]"])
def test_disjoint_paths_are_accepted(ddb, hash_table, expression):
    # Checked on the paths alone: the item need not exist.
    assert "Item" not in _project(ddb, hash_table, unique_name("proj"), expression)


# ===========================================================================
# Other errors
# ===========================================================================


def test_projection_syntax_error_message(ddb, hash_table):
    # Captured from the real service (nubo-db/dynamodb-conformance).
    with expect_error(VE, 'Invalid ProjectionExpression: Syntax error; token: "!", near: "!!"'):
        _project(ddb, hash_table, "proj", "!!! INVALID !!!")


@pytest.mark.parametrize(
    "expression,token",
    [
        ("a,", "<EOF>"),
        (",a", ","),
        ("a,,b", ","),
        ("a..b", "."),
        ("a[b]", "b"),
        ("a-b", "-"),
        (":a", ":a"),
        ("whatever(stuff)", "("),
        ("a[-1]", "-"),
        ("_a", "_"),
    ],
)
def test_projection_syntax_errors_name_the_offending_token(ddb, hash_table, expression, token):
    with expect_error(VE, contains=[f'Invalid ProjectionExpression: Syntax error; token: "{token}", near: "']):
        _project(ddb, hash_table, "proj", expression)


@pytest.mark.parametrize("expression", ["(a)", "(a),(b)", "(a,b)", "(a.b).c", "a[:v]"])
def test_projection_grammar_has_no_parentheses_or_values(ddb, hash_table, expression):
    with expect_error(VE, contains=["Invalid ProjectionExpression: Syntax error; "]):
        _project(ddb, hash_table, "proj", expression)


def test_empty_projection_expression(ddb, hash_table):
    with expect_error(VE, "Invalid ProjectionExpression: The expression can not be empty;"):
        _project(ddb, hash_table, "proj", "")


@pytest.mark.parametrize(
    "expression,word", [("pk, status", "status"), ("a.abORt", "abORt"), ("name", "name"), ("b, data.x", "data")]
)
def test_reserved_words_in_projection(ddb, hash_table, expression, word):
    with expect_error(VE, f"Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: {word}"):
        _project(ddb, hash_table, "proj", expression)


def test_undefined_name_in_projection(ddb, hash_table):
    with expect_error(
        VE,
        "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; "
        "attribute name: #a",
    ):
        _project(ddb, hash_table, "proj", "a, b, #a")


def test_unused_name_in_projection(ddb, hash_table):
    with expect_error(VE, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}"):
        _project(ddb, hash_table, "proj", "#a, c", {"#a": "a", "#b": "b"})


def test_empty_expression_attribute_names_with_projection(ddb, hash_table):
    with expect_error(VE, "ExpressionAttributeNames must not be empty"):
        _project(ddb, hash_table, "proj", "a", {})


def test_names_without_a_projection_expression(ddb, hash_table):
    with expect_error(VE, "ExpressionAttributeNames can only be specified when using expressions"):
        ddb.get_item(TableName=hash_table, Key=_key("proj"), ExpressionAttributeNames={"#a": "a"})


def test_projection_and_attributes_to_get_together(ddb, hash_table):
    with expect_error(
        VE,
        "Can not use both expression and non-expression parameters in the same request: "
        "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}",
    ):
        ddb.get_item(TableName=hash_table, Key=_key("proj"), ProjectionExpression="a", AttributesToGet=["b"])


@pytest.mark.parametrize("expression,names", [("pk.b.c", None), ("#k[0]", {"#k": "pk"}), ("#k.b", {"#k": "pk"})])
def test_key_attributes_cannot_be_dereferenced(ddb, hash_table, expression, names):
    with expect_error(
        VE, "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk"
    ):
        _project(ddb, hash_table, unique_name("proj"), expression, names)


def test_range_key_attribute_cannot_be_dereferenced(ddb, range_table):
    with expect_error(
        VE, "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: sk"
    ):
        ddb.get_item(
            TableName=range_table, Key={"pk": S("proj"), "sk": N(1)}, ProjectionExpression="a, sk[0]"
        )
