"""TransactWriteItems idempotency: a retry with the same ClientRequestToken and the same request
is answered from the first call, however the client orders maps and sets or spells numbers
(DynamoDB compares the parameters by meaning); a different request with that token is an
IdempotentParameterMismatchException."""

from __future__ import annotations

import random

from ddb_helpers import expect_error

MISMATCH = "Request with the same client token has already been used with different parameters"


def _value(rng: random.Random, depth: int = 0) -> dict:
    kind = rng.randrange(10 if depth < 2 else 8)
    if kind == 0:
        return {"S": f"s{rng.randrange(1000)}"}
    if kind == 1:
        return {"N": str(rng.randrange(-1000, 1000))}
    if kind == 2:
        return {"B": bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))}
    if kind == 3:
        return {"SS": [f"e{i}" for i in range(rng.randint(1, 8))]}
    if kind == 4:
        return {"NS": [str(i * 7 - 20) for i in range(rng.randint(1, 8))]}
    if kind == 5:
        return {"BS": [bytes([i, 255]) for i in range(rng.randint(1, 5))]}
    if kind == 6:
        return {"NULL": True}
    if kind == 7:
        return {"BOOL": rng.random() < 0.5}
    if kind == 8:
        return {"M": {f"m{i}": _value(rng, depth + 1) for i in range(rng.randint(0, 12))}}
    return {"L": [_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]}


def _respelled(value: dict, rng: random.Random) -> dict:
    """The same value with map members and set elements reordered and numbers respelled."""
    (kind, content), = value.items()
    if kind == "N":
        return {"N": rng.choice([content, content + ".0", content + "E0"])}
    if kind in ("SS", "BS"):
        return {kind: rng.sample(content, len(content))}
    if kind == "NS":
        return {"NS": [rng.choice([n, n + ".0"]) for n in rng.sample(content, len(content))]}
    if kind == "M":
        return {"M": _respelled_item(content, rng)}
    if kind == "L":
        return {"L": [_respelled(element, rng) for element in content]}
    return value


def _respelled_item(item: dict, rng: random.Random) -> dict:
    names = rng.sample(list(item), len(item))
    return {name: _respelled(item[name], rng) for name in names}


def _actions(table: str, items: list[dict], rng: random.Random) -> list[dict]:
    return [{"Put": {"TableName": table, "Item": _respelled_item(item, rng),
                     "ConditionExpression": "attribute_not_exists(pk)"}} for item in items]


def test_identical_retries_of_many_attribute_items_always_match(ddb, hash_table):
    rng = random.Random(20261125)
    for round_ in range(300):
        items = []
        for label in ("a", "b"):
            item = {"pk": {"S": f"idem-{round_}-{label}"}}
            item.update({f"a{i}": _value(rng) for i in range(rng.randint(20, 40))})
            items.append(item)
        token = f"idem-token-{round_}"
        ddb.transact_write_items(TransactItems=_actions(hash_table, items, rng), ClientRequestToken=token)
        # Written again, attribute_not_exists(pk) would cancel the retry: success means it was
        # answered from the token.
        ddb.transact_write_items(TransactItems=_actions(hash_table, items, rng), ClientRequestToken=token)
        if round_ % 10 == 0:
            items[1]["extra"] = {"S": "changed"}
            with expect_error("IdempotentParameterMismatchException", MISMATCH):
                ddb.transact_write_items(TransactItems=_actions(hash_table, items, rng),
                                         ClientRequestToken=token)
