"""Seeded mutations of PartiQL statements: every answer is a success or one of DynamoDB's own
errors, never a 500, a hang or a dead server."""

from __future__ import annotations

import random

import pytest

ALLOWED = {
    "ValidationException", "ResourceNotFoundException", "ConditionalCheckFailedException",
    "DuplicateItemException", "TransactionCanceledException", "SerializationException",
}

SEEDS = [3, 11, 42, 1234]

FRAGMENTS = ["'", '"', "(", ")", "[", "]", "{", "}", "<<", ">>", ",", ".", "?", "*", "=", "<>", "AND", "OR", "NOT",
             "IN", "IS", "MISSING", "NULL", "BETWEEN", "size(", "begins_with(", "set_add(", "1e400", "-", "--", "/*",
             "SELECT", "FROM", "WHERE", "SET", "REMOVE", "VALUE", "RETURNING", "ALL OLD *", "EXISTS(", "x.y[3]", "[99999999999]"]


def _templates(table):
    return [
        f'SELECT * FROM "{table}" WHERE pk = ? AND sk > 1',
        f'SELECT a, b.c[1] FROM "{table}" WHERE pk IN [\'a\', \'b\'] AND size(l) > 0 ORDER BY sk DESC',
        f"INSERT INTO \"{table}\" VALUE {{'pk': ?, 'sk': 1, 'm': {{'k': [1, 'x', <<'s'>>]}}}}",
        f'UPDATE "{table}" SET n = n + 1 SET l = list_append(l, [1]) REMOVE z WHERE pk = ? AND sk = 1 RETURNING ALL NEW *',
        f'DELETE FROM "{table}" WHERE pk = ? AND sk = 2 AND attribute_type(n, \'N\') RETURNING ALL OLD *',
        f'EXISTS(SELECT * FROM "{table}" WHERE pk = ? AND sk = 1 AND n IS NOT MISSING)',
    ]


def _mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(4)
        position = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(position, len(chars) - 1)]
        elif op == 1:
            chars[position:position] = list(rng.choice(FRAGMENTS))
        elif op == 2 and chars:
            chars[min(position, len(chars) - 1)] = chr(rng.randrange(32, 127))
        else:
            cut = rng.randrange(len(chars) + 1)
            chars = chars[:cut]
    return "".join(chars) or " "


def _check(response):
    assert response.status in (200, 400), f"HTTP {response.status}: {response.body[:300]!r}"
    if response.status == 400:
        kind = response.json()["__type"].split("#")[-1]
        assert kind in ALLOWED, response.body[:300]


@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_statements_get_dynamodb_errors(raw, make_table, seed):
    rng = random.Random(seed)
    table = make_table(("pk", "S"), ("sk", "N"))
    templates = _templates(table)
    for _ in range(120):
        statement = _mutate(rng, rng.choice(templates))
        parameters = [{"S": rng.choice(["a", "b"])} for _ in range(rng.randint(0, 3))]
        payload = {"Statement": statement}
        if parameters:
            payload["Parameters"] = parameters
        if rng.random() < 0.3:
            payload["Limit"] = rng.randint(1, 5)
        _check(raw.call("ExecuteStatement", payload))
        batch = [{"Statement": _mutate(rng, rng.choice(templates)), "Parameters": [{"S": "a"}]} for _ in range(rng.randint(1, 3))]
        _check(raw.call("BatchExecuteStatement", {"Statements": batch}))
        _check(raw.call("ExecuteTransaction", {"TransactStatements": batch}))
