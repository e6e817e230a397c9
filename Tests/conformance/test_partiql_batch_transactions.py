"""PartiQL BatchExecuteStatement and ExecuteTransaction."""

from __future__ import annotations

import uuid

import pytest

from ddb_helpers import expect_error


@pytest.fixture
def table(ddb, make_table):
    name = make_table(("pk", "S"), ("sk", "N"))
    for i in range(3):
        ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": str(i)}, "n": {"N": str(i)}})
    return name


def test_batch_reads_one_response_per_statement(ddb, table):
    out = ddb.batch_execute_statement(Statements=[
        {"Statement": f'SELECT * FROM "{table}" WHERE pk = \'a\' AND sk = 1'},
        {"Statement": f'SELECT n FROM "{table}" WHERE pk = ? AND sk = ?', "Parameters": [{"S": "a"}, {"N": "2"}]},
        {"Statement": f'SELECT * FROM "{table}" WHERE pk = \'missing\' AND sk = 1'},
        {"Statement": f'SELECT * FROM "{table}" WHERE pk = \'a\''},
        {"Statement": "SELEC nonsense"},
    ], ReturnConsumedCapacity="TOTAL")
    responses = out["Responses"]
    assert len(responses) == 5
    assert responses[0]["Item"]["n"] == {"N": "1"} and responses[0]["TableName"] == table
    assert responses[1]["Item"] == {"n": {"N": "2"}}
    assert "Item" not in responses[2] and "Error" not in responses[2]
    assert responses[3]["Error"]["Code"] == "ValidationError"
    assert responses[4]["Error"] == {"Code": "ValidationError",
                                     "Message": "Statement wasn't well formed, can't be processed: Expected data manipulation"}
    assert out["ConsumedCapacity"][0]["TableName"] == table


def test_batch_writes_fail_independently(ddb, table):
    out = ddb.batch_execute_statement(Statements=[
        {"Statement": f'INSERT INTO "{table}" VALUE {{\'pk\': \'b\', \'sk\': 1}}'},
        {"Statement": f'INSERT INTO "{table}" VALUE {{\'pk\': \'a\', \'sk\': 1}}'},
        {"Statement": f'UPDATE "{table}" SET n = 9 WHERE pk = \'a\' AND sk = 2 AND n = 100',
         "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
        {"Statement": f'UPDATE "{table}" SET n = 9 WHERE pk = \'a\''},
        {"Statement": f'DELETE FROM "{table}" WHERE pk = \'a\' AND sk = 0'},
        {"Statement": f'DELETE FROM "nope_table" WHERE pk = \'a\' AND sk = 0'},
    ])
    codes = [r.get("Error", {}).get("Code") for r in out["Responses"]]
    assert codes == [None, "DuplicateItem", "ConditionalCheckFailed", "ValidationError", None, "ResourceNotFound"]
    assert out["Responses"][1]["Error"]["Message"] == "Duplicate primary key exists in table"
    # The member's ReturnValuesOnConditionCheckFailure does not put the item in a batch's Error.
    assert out["Responses"][2]["Error"] == {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}
    assert out["Responses"][2]["TableName"] == table
    assert ddb.get_item(TableName=table, Key={"pk": {"S": "b"}, "sk": {"N": "1"}})["Item"]
    assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"N": "0"}})


def test_batch_refuses_reads_mixed_with_writes(ddb, table):
    with expect_error("ValidationException", "Read and write requests together in the same batch is not supported."):
        ddb.batch_execute_statement(Statements=[
            {"Statement": f'SELECT * FROM "{table}" WHERE pk = \'a\' AND sk = 1'},
            {"Statement": f'DELETE FROM "{table}" WHERE pk = \'a\' AND sk = 1'},
        ])
    with expect_error("ValidationException"):
        ddb.batch_execute_statement(Statements=[{"Statement": f'SELECT * FROM "{table}"'}] * 26)


def test_transaction_writes_all_or_nothing(ddb, table):
    statements = [
        {"Statement": f'INSERT INTO "{table}" VALUE {{\'pk\': \'t\', \'sk\': 1}}'},
        {"Statement": f'UPDATE "{table}" SET n = n + 1 WHERE pk = \'a\' AND sk = 1'},
        {"Statement": f'EXISTS(SELECT * FROM "{table}" WHERE pk = \'a\' AND sk = 2 AND n = 2)'},
        {"Statement": f'NOT EXISTS(SELECT * FROM "{table}" WHERE pk = \'zz\' AND sk = 2 AND n = 2)'},
        {"Statement": f'DELETE FROM "{table}" WHERE pk = \'a\' AND sk = 0'},
    ]
    ddb.execute_transaction(TransactStatements=statements)
    assert ddb.get_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"N": "1"}})["Item"]["n"] == {"N": "2"}
    assert ddb.get_item(TableName=table, Key={"pk": {"S": "t"}, "sk": {"N": "1"}})["Item"]
    assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"N": "0"}})


def test_transaction_cancelled_with_reasons_in_order(ddb, table):
    statements = [
        {"Statement": f'UPDATE "{table}" SET n = 50 WHERE pk = \'a\' AND sk = 2'},
        {"Statement": f'INSERT INTO "{table}" VALUE {{\'pk\': \'a\', \'sk\': 1}}'},
        {"Statement": f'UPDATE "{table}" SET n = 1 WHERE pk = \'nobody\' AND sk = 1'},
        {"Statement": f'EXISTS(SELECT * FROM "{table}" WHERE pk = \'a\' AND sk = 0 AND n = 7)',
         "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
    ]
    with expect_error("TransactionCanceledException") as info:
        ddb.execute_transaction(TransactStatements=statements)
    reasons = info.value.response["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "DuplicateItem", "ConditionalCheckFailed", "ConditionalCheckFailed"]
    assert reasons[3]["Item"]["n"] == {"N": "0"}
    assert "[None, DuplicateItem, ConditionalCheckFailed, ConditionalCheckFailed]" in info.value.response["Error"]["Message"]
    assert ddb.get_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"N": "2"}})["Item"]["n"] == {"N": "2"}


def test_transaction_idempotent_with_client_request_token(ddb, table):
    token = str(uuid.uuid4())
    statements = [{"Statement": f'UPDATE "{table}" SET n = n + 10 WHERE pk = \'a\' AND sk = 2'}]
    ddb.execute_transaction(TransactStatements=statements, ClientRequestToken=token)
    ddb.execute_transaction(TransactStatements=statements, ClientRequestToken=token)
    assert ddb.get_item(TableName=table, Key={"pk": {"S": "a"}, "sk": {"N": "2"}})["Item"]["n"] == {"N": "12"}
    with expect_error("IdempotentParameterMismatchException"):
        ddb.execute_transaction(ClientRequestToken=token, TransactStatements=[
            {"Statement": f'UPDATE "{table}" SET n = n + 1 WHERE pk = \'a\' AND sk = 2'}])


def test_read_only_transaction_returns_responses(ddb, table):
    out = ddb.execute_transaction(TransactStatements=[
        {"Statement": f'SELECT n FROM "{table}" WHERE pk = \'a\' AND sk = 1'},
        {"Statement": f'SELECT * FROM "{table}" WHERE pk = ? AND sk = ?', "Parameters": [{"S": "x"}, {"N": "9"}]},
    ])
    assert out["Responses"] == [{"Item": {"n": {"N": "1"}}}, {}]


@pytest.mark.parametrize("statements, message", [
    (["SELECT * FROM \"{t}\" WHERE pk = 'a' AND sk = 1", "DELETE FROM \"{t}\" WHERE pk = 'a' AND sk = 1"],
     "ExecuteTransaction API does not support both read and write operations in the same request."),
    (["SELECT * FROM \"{t}\" WHERE pk = 'a'"],
     "Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must specify the "
     "primary key in the where clause."),
    (["EXISTS(SELECT * FROM \"{t}\" WHERE pk = 'a')"],
     "Validation failed in TransactStatements[0]: EXISTS() must contain a single item read with additional condition"),
    (["UPDATE \"{t}\" SET n = 1 WHERE pk = 'a' AND sk = 1", "DELETE FROM \"{t}\" WHERE pk = 'a' AND sk = 1"],
     "Transaction request cannot include multiple operations on one item"),
])
def test_transaction_refusals(ddb, table, statements, message):
    with expect_error("ValidationException", message):
        ddb.execute_transaction(TransactStatements=[{"Statement": s.format(t=table)} for s in statements])
