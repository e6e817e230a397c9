"""PartiQL ExecuteStatement: SELECT / INSERT / UPDATE / DELETE, parameters, paging, indexes, errors."""

from __future__ import annotations

import base64
from decimal import Decimal

import pytest

from ddb_helpers import expect_error

WELL_FORMED = "Statement wasn't well formed, can't be processed: "


def run(ddb, statement, parameters=None, **kwargs):
    if parameters is not None:
        kwargs["Parameters"] = parameters
    return ddb.execute_statement(Statement=statement, **kwargs)


@pytest.fixture
def orders(ddb, make_table):
    """pk S / sk N with a GSI on status and a few items."""
    name = make_table(
        ("pk", "S"),
        ("sk", "N"),
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
            {"AttributeName": "status", "AttributeType": "S"},
        ],
        GlobalSecondaryIndexes=[{
            "IndexName": "by_status",
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"},
        }],
    )
    for pk in ("a", "b"):
        for sk in range(1, 6):
            ddb.put_item(TableName=name, Item={
                "pk": {"S": pk}, "sk": {"N": str(sk)}, "status": {"S": "open" if sk % 2 else "done"},
                "n": {"N": str(sk * 10)}, "tags": {"SS": ["x", f"t{sk}"]}, "m": {"M": {"k": {"L": [{"S": "z"}, {"N": str(sk)}]}}},
            })
    return name


def test_select_by_partition_key_is_a_query_in_sort_order(ddb, orders):
    items = run(ddb, f'SELECT * FROM "{orders}" WHERE pk = ?', [{"S": "a"}])["Items"]
    assert [i["sk"]["N"] for i in items] == ["1", "2", "3", "4", "5"]
    desc = run(ddb, f'SELECT sk FROM "{orders}" WHERE pk = \'a\' AND sk BETWEEN 2 AND 4 ORDER BY sk DESC')["Items"]
    assert desc == [{"sk": {"N": "4"}}, {"sk": {"N": "3"}}, {"sk": {"N": "2"}}]


def test_select_in_on_partition_key_and_filters(ddb, orders):
    items = run(ddb, f'SELECT pk, sk FROM "{orders}" WHERE pk IN [\'b\', \'a\'] AND n > 30 ORDER BY pk')["Items"]
    assert [(i["pk"]["S"], i["sk"]["N"]) for i in items] == [("a", "4"), ("a", "5"), ("b", "4"), ("b", "5")]
    scanned = run(ddb, f'SELECT * FROM "{orders}" WHERE contains(tags, \'t3\') OR begins_with(status, \'d\')')["Items"]
    assert sorted((i["pk"]["S"], i["sk"]["N"]) for i in scanned) == sorted(
        [("a", "2"), ("a", "3"), ("a", "4"), ("b", "2"), ("b", "3"), ("b", "4")])


def test_select_projection_of_nested_paths_uses_last_step(ddb, orders):
    items = run(ddb, f'SELECT m.k[1], "n", tags FROM "{orders}" WHERE pk = \'a\' AND sk = 2')["Items"]
    assert items == [{"k[1]": {"N": "2"}, "n": {"N": "20"}, "tags": {"SS": ["t2", "x"]}}] or \
        items == [{"k[1]": {"N": "2"}, "n": {"N": "20"}, "tags": {"SS": ["x", "t2"]}}]


def test_select_functions_and_is_missing(ddb, orders):
    q = f'SELECT sk FROM "{orders}" WHERE pk = \'a\' AND size(tags) = 2 AND attribute_type(n, \'N\') AND missing_attr IS MISSING AND NOT (sk IN [1, 2])'
    assert [i["sk"]["N"] for i in run(ddb, q)["Items"]] == ["3", "4", "5"]
    q = f'SELECT sk FROM "{orders}" WHERE pk = \'a\' AND n IS NOT MISSING AND status <> \'open\''
    assert [i["sk"]["N"] for i in run(ddb, q)["Items"]] == ["2", "4"]


def test_index_read(ddb, orders):
    items = run(ddb, f'SELECT pk, sk FROM "{orders}"."by_status" WHERE status = \'done\'')["Items"]
    assert sorted((i["pk"]["S"], i["sk"]["N"]) for i in items) == [("a", "2"), ("a", "4"), ("b", "2"), ("b", "4")]
    with expect_error("ValidationException", "Strongly consistent read is not supported on Global Secondary Indexes"):
        run(ddb, f'SELECT * FROM "{orders}"."by_status" WHERE status = \'done\'', ConsistentRead=True)
    with expect_error("ValidationException", "The table does not have the specified index"):
        run(ddb, f'SELECT * FROM "{orders}"."nope"')


def test_paging_with_limit_and_next_token(ddb, orders):
    seen = []
    token = None
    pages = 0
    while True:
        kwargs = {"Limit": 3}
        if token:
            kwargs["NextToken"] = token
        page = run(ddb, f'SELECT pk, sk FROM "{orders}" WHERE pk IN [\'a\', \'b\']', **kwargs)
        seen += [(i["pk"]["S"], i["sk"]["N"]) for i in page["Items"]]
        pages += 1
        token = page.get("NextToken")
        if not token:
            break
    assert sorted(seen) == sorted((p, str(s)) for p in "ab" for s in range(1, 6))
    assert len(seen) == 10 and pages >= 4
    # A scan page with a filter counts the items read, not the matches.
    page = run(ddb, f'SELECT * FROM "{orders}" WHERE n > 1000', Limit=4)
    assert page["Items"] == [] and "NextToken" in page
    assert sorted(page["LastEvaluatedKey"]) == ["pk", "sk"]
    with expect_error("ValidationException", "Invalid NextToken"):
        run(ddb, f'SELECT * FROM "{orders}"', NextToken="bm90IGEgdG9rZW4=")
    other = run(ddb, f'SELECT * FROM "{orders}"', Limit=1)["NextToken"]
    with expect_error("ValidationException", "The provided starting key is invalid"):
        run(ddb, f'SELECT pk FROM "{orders}"', NextToken=other)


def test_one_megabyte_pages(ddb, make_table):
    name = make_table(("pk", "S"))
    blob = "x" * 100_000
    for i in range(15):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}, "v": {"S": blob}})
    first = run(ddb, f'SELECT pk FROM "{name}"')
    assert 0 < len(first["Items"]) < 15 and "NextToken" in first
    second = run(ddb, f'SELECT pk FROM "{name}"', NextToken=first["NextToken"])
    assert len(first["Items"]) + len(second["Items"]) == 15


def test_insert_update_delete_round_trip(ddb, orders):
    run(ddb, f'INSERT INTO "{orders}" VALUE {{\'pk\': \'c\', \'sk\': 1, \'n\': 1, \'l\': [1], \'s\': <<\'a\'>>}}')
    with expect_error("DuplicateItemException", "Duplicate primary key exists in table"):
        run(ddb, f'INSERT INTO "{orders}" VALUE {{\'pk\': \'c\', \'sk\': 1}}')
    out = run(ddb, f'UPDATE "{orders}" SET n = n + 5 SET l = list_append(l, [2]) SET s = set_add(s, <<\'b\'>>) '
                   f'REMOVE status WHERE pk = \'c\' AND sk = 1 RETURNING ALL NEW *')
    item = out["Items"][0]
    assert item["n"] == {"N": "6"} and item["l"] == {"L": [{"N": "1"}, {"N": "2"}]}
    assert sorted(item["s"]["SS"]) == ["a", "b"]
    modified = run(ddb, f'UPDATE "{orders}" SET n = 7 WHERE pk = \'c\' AND sk = 1 RETURNING MODIFIED OLD *')["Items"]
    assert modified == [{"n": {"N": "6"}}]
    assert run(ddb, f'UPDATE "{orders}" SET s = set_delete(s, <<\'a\'>>) WHERE pk = \'c\' AND sk = 1')["Items"] == []
    got = ddb.get_item(TableName=orders, Key={"pk": {"S": "c"}, "sk": {"N": "1"}})["Item"]
    assert got["s"] == {"SS": ["b"]} and got["n"] == {"N": "7"}
    deleted = run(ddb, f'DELETE FROM "{orders}" WHERE pk = \'c\' AND sk = 1 RETURNING ALL OLD *')["Items"]
    assert deleted[0]["pk"] == {"S": "c"}
    assert run(ddb, f'DELETE FROM "{orders}" WHERE pk = \'c\' AND sk = 1 RETURNING ALL OLD *')["Items"] == []
    assert "Item" not in ddb.get_item(TableName=orders, Key={"pk": {"S": "c"}, "sk": {"N": "1"}})


def test_write_conditions(ddb, orders):
    with expect_error("ConditionalCheckFailedException", "The conditional request failed"):
        run(ddb, f'UPDATE "{orders}" SET n = 1 WHERE pk = \'zz\' AND sk = 1')
    assert "Item" not in ddb.get_item(TableName=orders, Key={"pk": {"S": "zz"}, "sk": {"N": "1"}})
    with expect_error("ConditionalCheckFailedException") as info:
        run(ddb, f'UPDATE "{orders}" SET n = 1 WHERE pk = \'a\' AND sk = 1 AND n > 100',
            ReturnValuesOnConditionCheckFailure="ALL_OLD")
    assert info.value.response["Item"]["n"] == {"N": "10"}
    with expect_error("ConditionalCheckFailedException"):
        run(ddb, f'DELETE FROM "{orders}" WHERE pk = \'a\' AND sk = 1 AND status = \'done\'')
    # A DELETE of a missing item with a condition succeeds quietly.
    assert run(ddb, f'DELETE FROM "{orders}" WHERE pk = \'nope\' AND sk = 1 AND status = \'done\'')["Items"] == []
    run(ddb, f'DELETE FROM "{orders}" WHERE pk = \'a\' AND sk = 1 AND status = \'open\'')
    assert "Item" not in ddb.get_item(TableName=orders, Key={"pk": {"S": "a"}, "sk": {"N": "1"}})


PARAMETER_VALUES = [
    {"S": "text"}, {"N": "-12.50"}, {"B": base64.b64encode(b"\x00\x01").decode()}, {"BOOL": True}, {"NULL": True},
    {"SS": ["a", "b"]}, {"NS": ["1", "2"]}, {"BS": [base64.b64encode(b"x").decode()]},
    {"L": [{"S": "x"}, {"N": "1"}]}, {"M": {"k": {"S": "v"}}},
]


@pytest.mark.parametrize("value", PARAMETER_VALUES, ids=[next(iter(v)) for v in PARAMETER_VALUES])
def test_parameters_of_every_type(ddb, make_table, value):
    name = make_table(("pk", "S"))
    run(ddb, f'INSERT INTO "{name}" VALUE {{\'pk\': ?, \'v\': ?}}', [{"S": "k"}, value])
    item = run(ddb, f'SELECT v FROM "{name}" WHERE pk = ? AND v = ?', [{"S": "k"}, value])["Items"]
    stored = ddb.get_item(TableName=name, Key={"pk": {"S": "k"}})["Item"]["v"]
    assert item == [{"v": stored}]


@pytest.mark.parametrize("statement, parameters, code, message", [
    ("SELECT * FROM \"{t}\" WHERE pk = ?", None, "ValidationException", "Number of parameters in request and statement don't match."),
    ("SELECT * FROM \"{t}\" WHERE pk = ? AND sk = ?", [{"S": "a"}], "ValidationException",
     "Number of parameters in request and statement don't match."),
    ("SELEC * FROM \"{t}\"", None, "ValidationException", WELL_FORMED + "Expected data manipulation"),
    ("SELECT * FROM \"{t}\" WHERE pad = 'x'", None, "ValidationException", WELL_FORMED + "Unexpected keyword"),
    ("SELECT * FROM \"{t}\" LIMIT 3", None, "ValidationException", "Unsupported clause: LIMIT"),
    ("SELECT * FROM \"{t}\" ORDER BY sk", None, "ValidationException",
     "Must have WHERE clause in the statement when using ORDER BY clause."),
    ("SELECT * FROM \"{t}\" WHERE n = 1 ORDER BY sk", None, "ValidationException",
     "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause."),
    ("SELECT * FROM \"{t}\" WHERE pk = 'a' ORDER BY n", None, "ValidationException",
     "Variable reference n in ORDER BY clause must be part of the primary key"),
    ("UPDATE \"{t}\" SET n = 1 WHERE pk = 'a'", None, "ValidationException",
     "Where clause does not contain a mandatory equality on all key attributes"),
    ("DELETE FROM \"{t}\" WHERE pk = 'a' OR sk = 1", None, "ValidationException",
     "Where clause does not contain a mandatory equality on all key attributes"),
    ("UPDATE \"{t}\" SET n = 1", None, "ValidationException",
     "Where clause does not contain a mandatory equality on all key attributes"),
    ("INSERT INTO \"{t}\" VALUE {{'pk': 'a'}}", None, "ValidationException", "Key attribute should be present in the item: Key sk"),
    ("INSERT INTO \"{t}\" VALUE {{'pk': 'a', 'sk': 'x'}}", None, "ValidationException",
     "Key attribute's data type should match its data type in table's schema: Key sk"),
    ("INSERT INTO \"{t}\" VALUE {{'pk': 'a', 'sk': 1, 's': <<>>}}", None, "ValidationException", "Empty bags are not supported"),
    ("INSERT INTO \"{t}\" VALUE {{'pk': 'a', 'sk': 1, 's': <<1, 'a'>>}}", None, "ValidationException",
     "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags"),
    ("SELECT * FROM \"nope_table\"", None, "ResourceNotFoundException", "Requested resource not found"),
    ("SELECT * FROM \"{t}\" WHERE n = MISSING", None, "ValidationException", "MISSING must be compared using IS operator"),
    ("EXISTS(SELECT * FROM \"{t}\" WHERE pk = 'a' AND sk = 1)", None, "ValidationException",
     "EXISTS can only be used in ExecuteTransaction write requests."),
    ("UPDATE \"{t}\".\"by_status\" SET n = 1 WHERE pk = 'a' AND sk = 1", None, "ValidationException",
     "This operation is not supported on an index"),
    ("DELETE FROM \"no_such_table\".\"by_status\" WHERE pk = 'a' AND sk = 1", None, "ValidationException",
     "This operation is not supported on an index"),
])
def test_errors(ddb, orders, statement, parameters, code, message):
    with expect_error(code, message):
        run(ddb, statement.format(t=orders), parameters)


def test_consumed_capacity(ddb, orders):
    out = run(ddb, f'SELECT * FROM "{orders}" WHERE pk = \'a\' AND sk = 1', ReturnConsumedCapacity="TOTAL")
    assert out["ConsumedCapacity"] == {"TableName": orders, "CapacityUnits": 0.5}
    out = run(ddb, f'UPDATE "{orders}" SET n = 3 WHERE pk = \'a\' AND sk = 1', ReturnConsumedCapacity="INDEXES")
    assert out["ConsumedCapacity"]["TableName"] == orders and out["ConsumedCapacity"]["Table"]["CapacityUnits"] == 1.0


def test_comparisons_with_a_missing_attribute_match_nothing(ddb, make_table):
    name = make_table(("pk", "S"))
    ddb.put_item(TableName=name, Item={"pk": {"S": "with"}, "a": {"S": "x"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "without"}})

    def keys(where):
        return sorted(i["pk"]["S"] for i in run(ddb, f'SELECT pk FROM "{name}" WHERE {where}')["Items"])

    assert keys("a <> 'y'") == ["with"]
    assert keys("NOT (a = 'y')") == ["with"]
    assert keys("a IS MISSING OR a = 'x'") == ["with", "without"]
    assert keys("NOT (a IS MISSING)") == ["with"]


@pytest.mark.parametrize("value, type_name", [({"BOOL": True}, "BOOL"), ({"NULL": True}, "NULL"), ({"L": []}, "L"),
                                              ({"M": {}}, "M"), ({"SS": ["a"]}, "SS")])
def test_ordering_comparisons_refuse_unorderable_operands(ddb, value, type_name):
    # Refused before the table is looked up: the table does not exist.
    with expect_error("ValidationException",
                      f"Incorrect operand type for operator or function; operator or function: <, operand type: {type_name}"):
        run(ddb, 'SELECT * FROM "no_such_table" WHERE a < ?', [value])
    with expect_error("ValidationException",
                      f"Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: {type_name}"):
        run(ddb, 'SELECT * FROM "no_such_table" WHERE a BETWEEN ? AND ?', [value, value])
    # = and <> take any type.
    with expect_error("ResourceNotFoundException"):
        run(ddb, 'SELECT * FROM "no_such_table" WHERE a <> ?', [value])


def _values(count, prefix="v"):
    return ", ".join(f"'{prefix}{i}'" for i in range(count))


def test_in_lists_are_limited_as_dynamodb_limits_them(ddb, orders):
    """At most 50 key reads (partition values times sort-key IN values), at most 100 IN operands."""
    too_many_reads = "Too many decomposed read operations for a given query."
    for where in (f"pk IN [{_values(51)}]", f"pk IN [{_values(26)}] AND sk IN [1, 2]", f"pk = 'a' AND sk IN [{', '.join(str(n) for n in range(51))}]"):
        with expect_error("ValidationException", too_many_reads):
            run(ddb, f'SELECT sk FROM "{orders}" WHERE {where}')
    # 50 reads are allowed, and an IN on a non-key attribute may hold 100 values.
    items = run(ddb, f'SELECT sk FROM "{orders}" WHERE pk IN [{_values(49)}, \'a\'] AND status IN [{_values(99)}, \'done\']')["Items"]
    assert sorted(i["sk"]["N"] for i in items) == ["2", "4"]
    # A WHERE that does not fix the partition key scans, whatever its IN holds.
    run(ddb, f'SELECT sk FROM "{orders}" WHERE pk IN [{_values(51)}] OR n = 10')
    for statement in (f'SELECT sk FROM "{orders}" WHERE pk = \'a\' AND status IN [{_values(101)}]',
                      f'UPDATE "{orders}" SET t = 1 WHERE pk = \'a\' AND sk = 1 AND status IN [{_values(101)}]'):
        with expect_error("ValidationException", "The IN operator is provided with too many operands; number of operands: 101"):
            run(ddb, statement)
    assert "t" not in ddb.get_item(TableName=orders, Key={"pk": {"S": "a"}, "sk": {"N": "1"}})["Item"]


def test_a_select_over_several_partitions_pages_by_ten_items(ddb, orders):
    for sk in range(6, 9):
        ddb.put_item(TableName=orders, Item={"pk": {"S": "a"}, "sk": {"N": str(sk)}})
    statement = f'SELECT pk, sk FROM "{orders}" WHERE pk IN [\'a\', \'b\', \'c\']'
    first = run(ddb, statement)
    assert len(first["Items"]) == 10 and "NextToken" in first
    second = run(ddb, statement, NextToken=first["NextToken"])
    assert "NextToken" not in second
    keys = [(i["pk"]["S"], i["sk"]["N"]) for i in first["Items"] + second["Items"]]
    assert sorted(keys) == sorted([("a", str(s)) for s in range(1, 9)] + [("b", str(s)) for s in range(1, 6)])
    # One partition is one Query: its page is not cut at ten.
    assert len(run(ddb, f'SELECT sk FROM "{orders}" WHERE pk = \'a\'')["Items"]) == 8
