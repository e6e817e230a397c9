"""PartiQL's answers as the public 2026-10 recordings of the service give them (eu-west-2;
us-east-1, eu-west-1 and us-west-2 gave the same strings): parameters that are numbers, a
table's FROM-first UPDATE, RETURNING in a batch, the Responses of a transaction of writes,
index reads and their refusals. Exact messages throughout."""

from __future__ import annotations

import pytest

from ddb_helpers import expect_error, unique_name, wait_until_active

UNCONVERTIBLE = "The parameter cannot be converted to a numeric value"
UNDERFLOW = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
NEST = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
ENVELOPE = "Statement wasn't well formed, can't be processed: "
MULTI = ("PartiQL statements cannot be executed on tables with multi-attribute HASH keys or multi-attribute RANGE "
         "keys.")
BATCH_KEY = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."


@pytest.fixture
def table(ddb, make_table):
    name = make_table(("pk", "S"), ("sk", "S"))
    ddb.put_item(TableName=name, Item={"pk": {"S": "p"}, "sk": {"S": "s"}, "n": {"N": "1"}, "b": {"S": "bee"}})
    return name


def _positions(t):
    return [
        f"SELECT * FROM \"{t}\" WHERE pk = 'p' AND n = ?",
        f"INSERT INTO \"{t}\" VALUE {{'pk': 'ins', 'sk': 's', 'n': ?}}",
        f"UPDATE \"{t}\" SET n = ? WHERE pk = 'p' AND sk = 's'",
        f"SELECT * FROM \"{t}\" WHERE pk = ?",
    ]


@pytest.mark.parametrize("value", ["1e99999999999", "-1e99999999999", "1e-99999999999", "1e2147483648", "1e-2147483648"])
def test_a_parameter_that_cannot_be_converted(ddb, table, value):
    for statement in _positions(table):
        with expect_error("ValidationException", f"{UNCONVERTIBLE}: {value}"):
            ddb.execute_statement(Statement=statement, Parameters=[{"N": value}])


def test_parameter_number_rules(ddb, table):
    for statement in _positions(table):
        with expect_error("ValidationException", UNDERFLOW):
            ddb.execute_statement(Statement=statement, Parameters=[{"N": "1e2147483647"}])
        with expect_error("ValidationException", UNCONVERTIBLE):
            ddb.execute_statement(Statement=statement, Parameters=[{"N": ""}])
    where = _positions(table)[0]
    for parameter in [{"L": [{"N": "1"}, {"N": "1e99999999999"}]}, {"M": {"x": {"N": "1e99999999999"}}},
                      {"NS": ["1", "1e99999999999"]}]:
        with expect_error("ValidationException", f"{UNCONVERTIBLE}: 1e99999999999"):
            ddb.execute_statement(Statement=where, Parameters=[parameter])
    with expect_error("ValidationException", f"{UNCONVERTIBLE}: 1e99999999999"):
        ddb.execute_transaction(TransactStatements=[
            {"Statement": _positions(table)[2], "Parameters": [{"N": "1e99999999999"}]}])


def _deep(depth, leaf=None):
    value = leaf or {"S": "leaf"}
    for _ in range(depth):
        value = {"M": {"n": value}}
    return value


@pytest.mark.parametrize("depth", [40, 100])
def test_nesting_is_reported_in_document_order(ddb, table, depth):
    pair = f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND x = ? AND y = ?"
    single = f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND x = ?"
    with expect_error("ValidationException", NEST):
        ddb.execute_statement(Statement=pair, Parameters=[_deep(depth), {"N": "abc"}])
    with expect_error("ValidationException", f"{UNCONVERTIBLE}: abc"):
        ddb.execute_statement(Statement=pair, Parameters=[{"N": "abc"}, _deep(depth)])
    with expect_error("ValidationException", NEST):
        ddb.execute_statement(Statement=single, Parameters=[_deep(depth, {"N": "abc"})])
    with expect_error("ValidationException", NEST):
        ddb.execute_statement(Statement=pair, Parameters=[_deep(depth), {"N": "1e126"}])
    # A deep parameter whose numbers are all fine is refused too.
    with expect_error("ValidationException", NEST):
        ddb.execute_statement(Statement=single, Parameters=[_deep(depth)])
    with expect_error("ValidationException", NEST):
        ddb.execute_transaction(TransactStatements=[{
            "Statement": f"UPDATE \"{table}\" SET x = ? SET y = ? WHERE pk = 'p' AND sk = 's'",
            "Parameters": [_deep(depth), {"N": "abc"}]}])


@pytest.mark.parametrize("depth", [40, 100])
def test_map_members_are_read_as_written(ddb, table, depth):
    single = f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND x = ?"
    with expect_error("ValidationException", NEST):
        ddb.execute_statement(Statement=single, Parameters=[{"M": {"d": _deep(depth), "bad": {"N": "abc"}}}])
    with expect_error("ValidationException", f"{UNCONVERTIBLE}: abc"):
        ddb.execute_statement(Statement=single, Parameters=[{"M": {"bad": {"N": "abc"}, "d": _deep(depth)}}])


@pytest.mark.parametrize("depth", [40, 100])
def test_batch_answers_a_parameter_problem_per_statement(ddb, table, depth):
    pair = f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND x = ? AND y = ?"
    keyed = f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND sk = 's' AND n = ?"
    out = ddb.batch_execute_statement(Statements=[
        {"Statement": keyed, "Parameters": [{"N": "1e99999999999"}]},
        {"Statement": pair, "Parameters": [_deep(depth), {"N": "abc"}]},
        {"Statement": f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND sk = 's'"},
    ])
    responses = out["Responses"]
    assert len(responses) == 3
    assert responses[0]["Error"] == {"Code": "ValidationError", "Message": f"{UNCONVERTIBLE}: 1e99999999999"}
    assert responses[1]["Error"] == {"Code": "ValidationError", "Message": NEST}
    assert "Error" not in responses[2]


@pytest.mark.parametrize("type_name", ["INT4", "INT8", "DOUBLE PRECISION", "CHARACTER VARYING"])
def test_a_bare_type_test_is_an_unsupported_operation(ddb, type_name):
    with expect_error("ValidationException", "Unsupported operation: IsType"):
        ddb.execute_statement(Statement=f"x IS {type_name}")


def test_or_branches_overlapping_on_the_sort_key(ddb, table):
    for sk in "123":
        ddb.put_item(TableName=table, Item={"pk": {"S": "ov"}, "sk": {"S": sk}})
    for condition in ["x = '1'", "x <> '1'"]:
        with expect_error("ValidationException", "Overlapping conditions with range keys are not supported in where clause"):
            ddb.execute_statement(Statement=f"SELECT * FROM \"{table}\" WHERE pk = 'ov' AND {condition} OR pk = 'ov' AND sk = '2'")

    def sort_keys(where):
        out = ddb.execute_statement(Statement=f"SELECT * FROM \"{table}\" WHERE {where}", ConsistentRead=True)
        return sorted(item["sk"]["S"] for item in out["Items"])

    # A negated sort-key condition is not refused: the answer is the union of the branches.
    for left, expected in [("NOT sk = '1'", ["2", "3"]), ("sk <> '1'", ["2", "3"]), ("NOT begins_with(sk, 'x')", ["1", "2", "3"]),
                           ("NOT sk IN ['1', '3']", ["2"]), ("NOT sk > '5'", ["1", "2", "3"]), ("NOT (sk = '1')", ["2", "3"])]:
        assert sort_keys(f"pk = 'ov' AND {left} OR pk = 'ov' AND sk = '2'") == expected
    assert sort_keys("pk = 'ov' OR pk = 'ov' AND NOT sk = '1'") == ["1", "2", "3"]
    assert sort_keys("pk = 'ov' AND sk = '1' OR pk = 'ov' AND sk = '3'") == ["1", "3"]


def test_from_first_update(ddb, table):
    out = ddb.execute_statement(Statement=f"FROM \"{table}\" WHERE pk = ? AND sk = 's' SET c = ? REMOVE b RETURNING ALL NEW *",
                                Parameters=[{"S": "p"}, {"N": "7"}])
    assert out["Items"] == [{"pk": {"S": "p"}, "sk": {"S": "s"}, "n": {"N": "1"}, "c": {"N": "7"}}]
    with expect_error("ConditionalCheckFailedException"):
        ddb.execute_statement(Statement=f"FROM \"{table}\" WHERE pk = 'p' AND sk = 's' AND n = 2 SET c = 5")
    with expect_error("ConditionalCheckFailedException"):
        ddb.execute_statement(Statement=f"from \"{table}\" where pk = 'absent' and sk = 's' set c = 1")
    with expect_error("ValidationException", "Where clause does not contain a mandatory equality on all key attributes"):
        ddb.execute_statement(Statement=f"FROM \"{table}\" SET c = 1")
    with expect_error("ValidationException", ENVELOPE + "Unexpected token after expression"):
        ddb.execute_statement(Statement=f"FROM \"{table}\" SET c = 1 WHERE pk = 'p' AND sk = 's'")
    with expect_error("ResourceNotFoundException", "Requested resource not found"):
        ddb.execute_statement(Statement=f"FROM \"{table}-never\" WHERE pk = 'x' SET c = 1")
    out = ddb.batch_execute_statement(Statements=[{"Statement": f"FROM \"{table}\" WHERE pk = 'p' AND sk = 's' SET d = 1"}])
    assert "Error" not in out["Responses"][0]
    ddb.execute_transaction(TransactStatements=[{"Statement": f"FROM \"{table}\" WHERE pk = 'p' AND sk = 's' SET e = 1"}])
    item = ddb.get_item(TableName=table, Key={"pk": {"S": "p"}, "sk": {"S": "s"}})["Item"]
    assert item["d"] == {"N": "1"} and item["e"] == {"N": "1"}


def test_batch_honours_returning(ddb, table):
    ddb.put_item(TableName=table, Item={"pk": {"S": "gone"}, "sk": {"S": "s"}, "data": {"S": "batchgone"}})
    out = ddb.batch_execute_statement(Statements=[
        {"Statement": f"DELETE FROM \"{table}\" WHERE pk = 'gone' AND sk = 's' RETURNING ALL OLD *"},
        {"Statement": f"UPDATE \"{table}\" SET b = 'new' WHERE pk = 'p' AND sk = 's' RETURNING ALL NEW *"},
        {"Statement": f"UPDATE \"{table}\" SET b = 'newer' WHERE pk = 'p' AND sk = 's' RETURNING MODIFIED NEW *"},
        {"Statement": f"UPDATE \"{table}\" REMOVE zz WHERE pk = 'p' AND sk = 's' RETURNING MODIFIED NEW *"},
        {"Statement": f"DELETE FROM \"{table}\" WHERE pk = 'x' AND sk = 's' RETURNING MODIFIED OLD *"},
    ])
    responses = out["Responses"]
    assert responses[0]["Item"] == {"pk": {"S": "gone"}, "sk": {"S": "s"}, "data": {"S": "batchgone"}}
    assert responses[1]["Item"] == {"pk": {"S": "p"}, "sk": {"S": "s"}, "n": {"N": "1"}, "b": {"S": "new"}}
    assert responses[2]["Item"] == {"b": {"S": "newer"}}
    assert "Item" not in responses[3] and "Error" not in responses[3] and responses[3]["TableName"] == table
    assert responses[4]["Error"] == {
        "Code": "ValidationError",
        "Message": "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE statements."}


def test_transaction_of_writes_answers_empty_responses(ddb, table):
    out = ddb.execute_transaction(TransactStatements=[
        {"Statement": f"UPDATE \"{table}\" SET a = 2 WHERE pk = 'p' AND sk = 's'"},
        {"Statement": f"INSERT INTO \"{table}\" VALUE {{'pk': 'new', 'sk': 's'}}"},
    ], ReturnConsumedCapacity="TOTAL")
    assert out["Responses"] == []
    assert out["ConsumedCapacity"][0]["TableName"] == table


def test_batch_select_names_one_item_by_its_key(ddb, table):
    out = ddb.batch_execute_statement(Statements=[
        {"Statement": f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND sk = 's' AND attribute_exists(n)"},
        {"Statement": f"SELECT * FROM \"{table}\" WHERE pk = 'p'"},
        {"Statement": f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND sk = 's'"},
    ])
    assert [r.get("Error") for r in out["Responses"][:2]] == [{"Code": "ValidationError", "Message": BATCH_KEY}] * 2
    assert out["Responses"][2]["Item"]["n"] == {"N": "1"}


def test_transaction_names_the_statement_in_its_errors(ddb, table):
    with expect_error("ValidationException", "Validation failed in TransactStatements[0]: Select statements within "
                      "ExecuteTransaction must specify the primary key in the where clause."):
        ddb.execute_transaction(TransactStatements=[
            {"Statement": f"SELECT * FROM \"{table}\" WHERE pk = 'p' AND sk = 's' AND attribute_exists(n)"}])
    with expect_error("ValidationException", f"Validation failed in TransactStatements[0]: {ENVELOPE}Unexpected term"):
        ddb.execute_transaction(TransactStatements=[{"Statement": f"SELECT * FROM \"{table}\" WHERE"}])
    with expect_error("ValidationException", "Validation failed in TransactStatements[0]: EXISTS() must contain a single "
                      "item read with additional condition"):
        ddb.execute_transaction(TransactStatements=[
            {"Statement": f"EXISTS(SELECT * FROM \"{table}\" WHERE pk = 'p' AND sk = 's')"},
            {"Statement": f"UPDATE \"{table}\" SET z = 1 WHERE pk = 'other' AND sk = 's'"}])


@pytest.fixture
def multi(ddb):
    """A table with a GSI of two HASH and one RANGE attribute, and a plain one beside it."""
    name = unique_name("pqmulti")
    strings = ["id", "h1", "h2", "r1", "g"]
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in strings],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[
            {"IndexName": "gsi", "Projection": {"ProjectionType": "ALL"},
             "KeySchema": [{"AttributeName": "h1", "KeyType": "HASH"}, {"AttributeName": "h2", "KeyType": "HASH"},
                           {"AttributeName": "r1", "KeyType": "RANGE"}]},
            {"IndexName": "single", "Projection": {"ProjectionType": "ALL"},
             "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}])
    wait_until_active(ddb, name)
    ddb.put_item(TableName=name, Item={k: {"S": k + "1"} for k in strings})
    yield name
    ddb.delete_table(TableName=name)


def test_multi_attribute_index_reads_are_refused(ddb, multi):
    index = f"\"{multi}\".\"gsi\""
    for statement in [f"SELECT * FROM {index} WHERE h1 = 'a'", f"SELECT * FROM {index} WHERE h1 = 5",
                      f"SELECT * FROM {index} WHERE id = 'i1'", f"SELECT * FROM {index}",
                      f"SELECT id FROM {index} WHERE h1 = 'a' AND h2 = 'x' ORDER BY r1 DESC",
                      f"SELECT COUNT(*) FROM {index}"]:
        with expect_error("ValidationException", MULTI):
            ddb.execute_statement(Statement=statement)
    # A call in the select list is refused after the index's checks: of another index, and of
    # the table, the call's own refusal.
    for source in [f"\"{multi}\".\"single\"", f"\"{multi}\""]:
        with expect_error("ValidationException", "Unexpected path component at 1:8:5"):
            ddb.execute_statement(Statement=f"SELECT COUNT(*) FROM {source}")
    # What comes before the refusal: syntax, literals, parameters.
    with expect_error("ValidationException", ENVELOPE + "Unexpected term"):
        ddb.execute_statement(Statement=f"SELECT * FROM {index} WHERE")
    with expect_error("ValidationException", ENVELOPE):
        ddb.execute_statement(Statement=f"SELECT * FROM {index} WHERE h1 = 1e99999999999")
    with expect_error("ValidationException", f"{UNCONVERTIBLE}: 1e99999999999"):
        ddb.execute_statement(Statement=f"SELECT * FROM {index} WHERE h1 = ?", Parameters=[{"N": "1e99999999999"}])
    # The rest of the table reads.
    assert len(ddb.execute_statement(Statement=f"SELECT * FROM \"{multi}\".\"single\" WHERE g = 'g1'")["Items"]) == 1
    assert len(ddb.execute_statement(Statement=f"SELECT * FROM \"{multi}\" WHERE id = 'id1'")["Items"]) == 1
    out = ddb.batch_execute_statement(Statements=[
        {"Statement": f"SELECT * FROM \"{multi}\".\"single\" WHERE g = 'g1'"},
        {"Statement": f"SELECT * FROM {index} WHERE h1 = 'a' AND h2 = 'x' AND r1 = 'm'"},
        {"Statement": f"SELECT * FROM \"{multi}\" WHERE id = 'id1'"},
    ])
    control, refused, base = out["Responses"]
    assert control["Error"] == {"Code": "ValidationError", "Message": BATCH_KEY}
    assert refused["Error"] == {"Code": "ValidationError", "Message": MULTI}
    assert base["Item"]["id"] == {"S": "id1"}


@pytest.fixture
def indexed(ddb):
    """A GSI and an LSI that project only `inc` beyond the keys."""
    name = unique_name("pqidx")
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ["pk", "sk", "g", "l"]],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["inc"]}}],
        LocalSecondaryIndexes=[{"IndexName": "lsi", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                  {"AttributeName": "l", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["inc"]}}])
    wait_until_active(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "p"}, "sk": {"S": "s"}, "g": {"S": "g1"}, "l": {"S": "l1"},
                                       "inc": {"S": "i"}, "np": {"S": "np1"}})
    yield name
    ddb.delete_table(TableName=name)


def test_index_filters_on_attributes_the_index_does_not_project(ddb, indexed):
    for index, key in [("gsi", "g = 'g1'"), ("lsi", "pk = 'p'")]:
        # With the index's partition key the read is a Query, refused.
        with expect_error("ValidationException", "One or more parameter values were invalid: Secondary index "
                          f"{index} does not project one or more filter attributes: [np]"):
            ddb.execute_statement(Statement=f"SELECT pk FROM \"{indexed}\".\"{index}\" WHERE {key} AND np = 'np1'")
        # Without it the read is a scan of the index, whose rows hold no `np`: nothing matches.
        out = ddb.execute_statement(Statement=f"SELECT pk FROM \"{indexed}\".\"{index}\" WHERE np = 'np1'")
        assert out["Items"] == []
        assert ddb.execute_statement(Statement=f"SELECT pk FROM \"{indexed}\".\"{index}\" WHERE inc = 'i'")["Items"] == [
            {"pk": {"S": "p"}}]
    with expect_error("ValidationException", "One or more parameter values were invalid: Global secondary index gsi does "
                      "not project [np]"):
        ddb.execute_statement(Statement=f"SELECT np FROM \"{indexed}\".\"gsi\"")
