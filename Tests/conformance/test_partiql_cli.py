"""PartiQL through the AWS CLI: execute-statement, batch-execute-statement, execute-transaction."""

from __future__ import annotations

import json


def _ok(result):
    assert result.returncode == 0, f"aws exited {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result.json


def test_cli_statements(aws_cli, make_table):
    name = make_table(("pk", "S"), ("sk", "N"))
    _ok(aws_cli("execute-statement", "--statement", f"INSERT INTO \"{name}\" VALUE {{'pk': 'a', 'sk': 1, 'n': 1}}"))
    _ok(aws_cli("execute-statement", "--statement", f'UPDATE "{name}" SET n = n + ? WHERE pk = ? AND sk = 1',
                "--parameters", json.dumps([{"N": "4"}, {"S": "a"}])))
    out = _ok(aws_cli("execute-statement", "--statement", f'SELECT * FROM "{name}" WHERE pk = \'a\''))
    assert out["Items"] == [{"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "5"}}] or \
        sorted(out["Items"][0]) == ["n", "pk", "sk"] and out["Items"][0]["n"] == {"N": "5"}
    failed = aws_cli("execute-statement", "--statement", f"INSERT INTO \"{name}\" VALUE {{'pk': 'a', 'sk': 1}}")
    assert failed.returncode != 0 and "DuplicateItemException" in failed.stderr


def test_cli_batch_and_transaction(aws_cli, make_table):
    name = make_table(("pk", "S"))
    statements = [{"Statement": f"INSERT INTO \"{name}\" VALUE {{'pk': 'k{i}'}}"} for i in range(3)]
    out = _ok(aws_cli("batch-execute-statement", "--statements", json.dumps(statements)))
    assert len(out["Responses"]) == 3 and all("Error" not in r for r in out["Responses"])
    _ok(aws_cli("execute-transaction", "--transact-statements", json.dumps([
        {"Statement": f"UPDATE \"{name}\" SET v = 1 WHERE pk = 'k0'"},
        {"Statement": f"DELETE FROM \"{name}\" WHERE pk = 'k1'"},
    ])))
    reads = _ok(aws_cli("execute-transaction", "--transact-statements", json.dumps([
        {"Statement": f"SELECT * FROM \"{name}\" WHERE pk = 'k0'"},
        {"Statement": f"SELECT * FROM \"{name}\" WHERE pk = 'k1'"},
    ])))
    assert reads["Responses"][0]["Item"]["v"] == {"N": "1"} and reads["Responses"][1] == {}
    cancelled = aws_cli("execute-transaction", "--transact-statements", json.dumps([
        {"Statement": f"UPDATE \"{name}\" SET v = 2 WHERE pk = 'missing'"}]))
    assert cancelled.returncode != 0 and "TransactionCanceledException" in cancelled.stderr
