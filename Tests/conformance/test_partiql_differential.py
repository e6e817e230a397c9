"""A seeded random workload applied through PartiQL and through PutItem/UpdateItem/DeleteItem
ends with identical tables, and the same reads answer alike."""

from __future__ import annotations

import random

import pytest
from botocore.exceptions import ClientError

SEEDS = [1, 7, 2026]


def _scan(ddb, name):
    items, start = [], None
    while True:
        kwargs = {"TableName": name, "ConsistentRead": True}
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = ddb.scan(**kwargs)
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return sorted(items, key=lambda i: (i["pk"]["S"], int(i["sk"]["N"])))


def _outcome(call):
    try:
        call()
        return "ok"
    except ClientError as error:
        code = error.response["Error"]["Code"]
        # PartiQL reports an INSERT of an existing key as DuplicateItemException where the
        # classic API's conditional put says ConditionalCheckFailedException.
        return "ConditionalCheckFailedException" if code == "DuplicateItemException" else code


@pytest.mark.parametrize("seed", SEEDS)
def test_random_workload_agrees(ddb, make_table, seed):
    rng = random.Random(seed)
    ql = make_table(("pk", "S"), ("sk", "N"))
    classic = make_table(("pk", "S"), ("sk", "N"))
    for step in range(150):
        pk, sk = rng.choice("abc"), rng.randint(0, 5)
        key = {"pk": {"S": pk}, "sk": {"N": str(sk)}}
        n = rng.randint(-50, 50)
        kind = rng.choice(["insert", "update_set", "update_add", "update_remove", "update_cond", "delete", "delete_cond",
                           "list", "set_add"])
        if kind == "insert":
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f"INSERT INTO \"{ql}\" VALUE {{'pk': ?, 'sk': ?, 'n': ?, 'tag': ?}}",
                Parameters=[{"S": pk}, {"N": str(sk)}, {"N": str(n)}, {"S": f"t{step}"}]))
            b = _outcome(lambda: ddb.put_item(TableName=classic, Item={**key, "n": {"N": str(n)}, "tag": {"S": f"t{step}"}},
                                              ConditionExpression="attribute_not_exists(pk)"))
        elif kind == "update_set":
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f'UPDATE "{ql}" SET n = ?, note = \'x\' WHERE pk = ? AND sk = ?',
                Parameters=[{"N": str(n)}, {"S": pk}, {"N": str(sk)}]))
            b = _outcome(lambda: ddb.update_item(TableName=classic, Key=key, UpdateExpression="SET n = :n, note = :x",
                                                 ConditionExpression="attribute_exists(pk)",
                                                 ExpressionAttributeValues={":n": {"N": str(n)}, ":x": {"S": "x"}}))
        elif kind == "update_add":
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f'UPDATE "{ql}" SET n = n + ? WHERE pk = ? AND sk = ?',
                Parameters=[{"N": str(n)}, {"S": pk}, {"N": str(sk)}]))
            b = _outcome(lambda: ddb.update_item(TableName=classic, Key=key, UpdateExpression="SET n = n + :n",
                                                 ConditionExpression="attribute_exists(pk)",
                                                 ExpressionAttributeValues={":n": {"N": str(n)}}))
        elif kind == "update_remove":
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f'UPDATE "{ql}" REMOVE note WHERE pk = ? AND sk = ?', Parameters=[{"S": pk}, {"N": str(sk)}]))
            b = _outcome(lambda: ddb.update_item(TableName=classic, Key=key, UpdateExpression="REMOVE note",
                                                 ConditionExpression="attribute_exists(pk)"))
        elif kind == "update_cond":
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f'UPDATE "{ql}" SET flag = true WHERE pk = ? AND sk = ? AND n >= ?',
                Parameters=[{"S": pk}, {"N": str(sk)}, {"N": str(n)}]))
            b = _outcome(lambda: ddb.update_item(TableName=classic, Key=key, UpdateExpression="SET flag = :t",
                                                 ConditionExpression="attribute_exists(pk) AND n >= :n",
                                                 ExpressionAttributeValues={":t": {"BOOL": True}, ":n": {"N": str(n)}}))
        elif kind == "delete":
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f'DELETE FROM "{ql}" WHERE pk = ? AND sk = ?', Parameters=[{"S": pk}, {"N": str(sk)}]))
            b = _outcome(lambda: ddb.delete_item(TableName=classic, Key=key))
        elif kind == "delete_cond":
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f'DELETE FROM "{ql}" WHERE pk = ? AND sk = ? AND n < ?',
                Parameters=[{"S": pk}, {"N": str(sk)}, {"N": str(n)}]))
            b = _outcome(lambda: ddb.delete_item(TableName=classic, Key=key,
                                                 ConditionExpression="attribute_not_exists(pk) OR n < :n",
                                                 ExpressionAttributeValues={":n": {"N": str(n)}}))
        elif kind == "list":
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f'UPDATE "{ql}" SET l = list_append(if_not_exists(l, []), [?]) WHERE pk = ? AND sk = ?',
                Parameters=[{"N": str(n)}, {"S": pk}, {"N": str(sk)}]))
            b = _outcome(lambda: ddb.update_item(TableName=classic, Key=key,
                                                 UpdateExpression="SET l = list_append(if_not_exists(l, :e), :v)",
                                                 ConditionExpression="attribute_exists(pk)",
                                                 ExpressionAttributeValues={":e": {"L": []}, ":v": {"L": [{"N": str(n)}]}}))
        else:
            a = _outcome(lambda: ddb.execute_statement(
                Statement=f'UPDATE "{ql}" SET s = set_add(s, <<?>>) WHERE pk = ? AND sk = ?'.replace("<<?>>", f"<<'{n}'>>"),
                Parameters=[{"S": pk}, {"N": str(sk)}]))
            b = _outcome(lambda: ddb.update_item(TableName=classic, Key=key, UpdateExpression="ADD s :v",
                                                 ConditionExpression="attribute_exists(pk)",
                                                 ExpressionAttributeValues={":v": {"SS": [str(n)]}}))
        assert a == b, f"step {step} ({kind} {pk}/{sk}): PartiQL {a}, classic {b}"
    assert _scan(ddb, ql) == _scan(ddb, classic)
    # Reads agree too: a query by partition with a sort range and a filtered scan.
    for pk in "abc":
        by_ql = ddb.execute_statement(Statement=f'SELECT * FROM "{ql}" WHERE pk = ? AND sk >= 2 AND n > 0',
                                      Parameters=[{"S": pk}])["Items"]
        by_query = ddb.query(TableName=classic, KeyConditionExpression="pk = :p AND sk >= :s", FilterExpression="n > :z",
                             ExpressionAttributeValues={":p": {"S": pk}, ":s": {"N": "2"}, ":z": {"N": "0"}})["Items"]
        assert by_ql == by_query
