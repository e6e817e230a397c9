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


# --- Statements generated from the grammar --------------------------------------------------------
#
# Seeded statements built from PartiQL's grammar as DynamoDB takes it (every statement form, the
# WHERE functions, IS with type names, literals of every kind including numbers past DynamoDB's
# range or past what PartiQL reads), half of them broken on purpose (a token dropped, moved or
# added). Every answer must be a result or one of the errors in CATALOGUE, by type and message:
# DynamoDB's own words, never an unknown message, a crash or a 500.

ENVELOPE = r"Statement wasn't well formed, can't be processed: "
CATALOGUE = {
    "ValidationException": [
        ENVELOPE + r"(Unexpected (token|keyword|term|operator|token after expression|end of statement)"
        r"|Expected (data manipulation|type name|identifier for simple path)|Invalid path dot component"
        r"|Missing right-hand side expression of infix operator|Invalid numeric literal)?",
        r"(Number overflow|Number underflow)\. Attempting to store a number with magnitude (larger|smaller) than "
        r"supported range( under root\S*)?",
        r"Attempting to store more than 38 significant digits in a Number( under root\S*)?",
        r"The parameter cannot be converted to a numeric value(: .*)?",
        r"Nesting Levels have exceeded supported limits: .*",
        r"Unrecognized function: \w+ at \d+:\d+:\d+",
        r"Unexpected path component at \d+:\d+:\d+",
        r"Unsupported data type: \w+ under key root\S* at \d+:\d+:\d+",
        r"(The first argument to SET_(ADD|DELETE) must equal the assignment value|The second argument to "
        r"SET_(ADD|DELETE) must be a value with type SET|SET_(ADD|DELETE) must have exactly two arguments) at \d+:\d+:\d+",
        r"Incorrect number of operands for operator or function; operator or function: \w+, number of operands: \d+",
        r"Incorrect operand type for operator or function; operator or function: \S+, operand type: \w+",
        r"Operator or function requires a document path; operator or function: \w+",
        r"Unsupported data type for IS operator: .*",
        r"Where clause does not contain a mandatory equality on all key attributes",
        r"Key attribute's data type should match its data type in table's schema: Key \w+",
        r"Key attribute should be present in the item: Key \w+",
        r"Multiple conditions on same key \w+\. Only single item Update/Insert/Delete are supported",
        r"Number of parameters in request and statement don't match\.",
        r"Aliasing is not supported|Unsupported clause: \w+|Unsupported operation: .*",
        r"Unsupported operator in (Condition|Update) Expression\. Operator: .*",
        r"MISSING must be compared using IS operator|WHERE clause must contain an expression that resolves to a boolean",
        r"The arguments to AND/OR must be Expressions|The argument to NOT must be a Type or Expression",
        r"The left hand side argument to IS must be a Variable Reference, Literal, or Path",
        r"IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq "
        r"with at least one member",
        r"Empty bags are not supported|Unsupported data type in Bag\. .*|Input collection contains duplicates",
        r"One or more parameter values were invalid: .*",
        r"Other attributes should not be present in the projection when '\*' is used\.",
        r"Duplicate identifiers in select clause: .*|Tuple keys must be of type String\. .*|Duplicate keys in tuple\. .*",
        r"Unsupported format in item expression\. .*|RETURNING is not supported in INSERT",
        r"Invalid returning clause: .*|Expected '\*' after .*|Invalid syntax with multiple returning elements .*",
        r"Only SET and REMOVE are supported in update expressions at this time",
        r"Must have (WHERE clause|at least one non-optional hash key condition|hash key in ORDER BY clause) .*",
        r"Variable reference \w+ in ORDER BY clause must be part of the primary key",
        r"EXISTS can only be used in ExecuteTransaction write requests\.|Read and write requests together .*",
        r"Select statements within (BatchExecuteStatement|ExecuteTransaction) must specify the primary key .*",
        r"Validation failed in TransactStatements\[\d+\]: .*",
        r"ExecuteTransaction API does not support both read and write operations in the same request\.",
        r"Transaction request cannot include multiple operations on one item",
        r"Overlapping conditions with range keys are not supported in where clause",
        r"The IN operator is provided with too many operands; .*|Too many decomposed read operations .*",
        r"List index is not within the allowable range; .*|A path cannot start with a list index",
        r"Path component cannot be an empty string|A path may contain at most 2 components in the FROM clause",
        r"An operand in the update expression has an incorrect data type",
        r"The provided expression refers to an attribute that does not exist in the item",
        # The engine's own validation of the translated expressions (not measured for PartiQL).
        r"(1 validation error detected: )?Invalid (UpdateExpression|ConditionExpression): .*",
        r"The document path provided in the update expression is invalid for update",
        r"Two document paths overlap with each other; .*|Two document paths conflict with each other; .*",
        r"Item size has exceeded the maximum allowed size|Select projection doesn't support value or pivot keywords",
        r"Only select from a single table or index is supported\.|AT is not supported in insert statements\.",
        r"Unsupported FROM \.\.\. WHERE \.\.\. clause in INSERT statement\.|Wildcard path component .*|Unpivot path .*",
        r"Expression nested too deeply",
        r"This operation is not supported on an index|Operations on indices are not supported in transactions",
        r"Reads on indices are not supported within transactions\.|The table does not have the specified index",
        r"PartiQL statements cannot be executed on tables with multi-attribute HASH keys .*",
        r"RETURNING clause is not supported in ExecuteTransaction\.",
        r"EXISTS\(\) must contain a single item read with additional condition",
    ],
    "ResourceNotFoundException": [r"Requested resource not found"],
    "ConditionalCheckFailedException": [r"The conditional request failed"],
    "DuplicateItemException": [r"Duplicate primary key exists in table"],
    "TransactionCanceledException": [r"Transaction cancelled, please refer cancellation reasons for specific reasons .*"],
}

PATHS = ["a", "n", "m.x", "l[0]", '"q w"', "ss", "pk", "sk"]
TYPES = ["MISSING", "NULL", "BOOLEAN", "STRING", "NUMERIC", "LIST", "STRUCT", "INT4", "DOUBLE PRECISION", "FOO"]
NUMBERS = ["1", "-2.5", ".5e1", "7.31E6"]
# Numbers past DynamoDB's range or past what PartiQL reads.
BAD_NUMBERS = ["1e126", "1e-131", "1e2147483647", "1e2147483648", "1e99999999999",
               "123456789012345678901234567890123456789"]
# How often a generated part is one the service refuses (a bad number, an unknown function, …).
RISK = 0.1


def _pick(rng, good, risky):
    return rng.choice(risky if rng.random() < RISK else good)


def _value(rng, depth=0, constant=False):
    kind = rng.randrange((7 if constant else 9) if depth < 2 else 4)
    if kind == 0:
        return rng.choice(["'x'", "'a'", "''", "'it''s'"])
    if kind == 1:
        return _pick(rng, NUMBERS, BAD_NUMBERS)
    if kind == 2:
        return "?"
    if kind == 3:
        return _pick(rng, ["TRUE", "FALSE", "NULL"], ["MISSING"])
    if kind == 4:
        return "[" + ", ".join(_value(rng, depth + 1, True) for _ in range(rng.randint(0, 3))) + "]"
    if kind == 5:
        return "{" + ", ".join(f"'k{i}': {_value(rng, depth + 1, True)}" for i in range(rng.randint(0, 3))) + "}"
    if kind == 6:
        members = _pick(rng, [["'a'", "'b'"], ["1", "2"]], [[], ["'a'", "'a'"], ["'a'", "1"]])
        return "<<" + ", ".join(members) + ">>"
    if kind == 7:
        return _pick(rng, PATHS, [f"{rng.choice(PATHS)} + {rng.choice(NUMBERS[:3])}"])
    return rng.choice(PATHS)


def _condition(rng, depth=0):
    kind = rng.randrange(10 if depth < 3 else 6)
    path = rng.choice(PATHS)
    if kind == 0:
        return f"{path} {rng.choice(['=', '<>', '<', '<=', '>', '>='])} {_value(rng)}"
    if kind == 1:
        return _pick(rng, [f"attribute_exists({path})", f"attribute_not_exists({path})", f"begins_with({path}, 'x')",
                           f"contains({path}, 'a')", f"size({path}) > 1", f"attribute_type({path}, 'S')",
                           f"ATTRIBUTE_EXISTS({path})"],
                     [f"attribute_exists('{path}')", "attribute_exists()", f"EXISTS({path})",
                      f"set_add({path}, <<'x'>>) = {path}", f"nope({path})", f"attribute_exists({path}, {path})"])
    if kind == 2:
        return f"{path} IS {rng.choice(['', 'NOT '])}{_pick(rng, TYPES[:7], TYPES[7:])}"
    if kind == 3:
        return f"{path} BETWEEN {_value(rng)} AND {_value(rng)}"
    if kind == 4:
        return f"{path} IN [{', '.join(_value(rng) for _ in range(rng.randint(1, 3)))}]"
    if kind == 5:
        return f"pk = {rng.choice(['?', repr('a'), '1'])}"
    if kind == 6:
        return f"{_condition(rng, depth + 1)} AND {_condition(rng, depth + 1)}"
    if kind == 7:
        return f"{_condition(rng, depth + 1)} OR {_condition(rng, depth + 1)}"
    if kind == 8:
        return f"NOT {_condition(rng, depth + 1)}"
    return f"({_condition(rng, depth + 1)})"


def _key(rng):
    parts = [f"pk = {rng.choice(['?', repr('a'), repr('b')])}", f"sk = {_pick(rng, ['1'], ['2'])}"]
    extra = [_condition(rng, 2)] if rng.random() < 0.4 else []
    chosen = parts if rng.random() > RISK else parts[:1]
    return " AND ".join(chosen + extra)


def _set(rng, path):
    return _pick(rng, [f"{path} = {_value(rng)}", f"ss = set_add(ss, <<'x'>>)", f"ss = set_delete(ss, <<'a'>>)",
                       f"{path} = if_not_exists({path}, 0)", f"l = list_append(l, [1])"],
                 [f"{path} = set_add(other, <<'x'>>)", f"{path} = set_add({path}, 'x')", f"{path} = set_add({path})",
                  f"{path} = nope({path})", f"pk = {_value(rng)}"])


def _clauses(rng):
    paths = rng.sample(["a", "n", "m.x", '"q w"', "z"], 3)
    clauses = []
    for path in paths[:rng.randint(1, 3)]:
        if rng.random() < 0.7:
            clauses.append("SET " + _set(rng, path))
        else:
            clauses.append("REMOVE " + path)
    return " ".join(clauses)


def _returning(rng):
    if rng.random() < 0.6:
        return ""
    return f" RETURNING {rng.choice(['ALL', 'MODIFIED'])} {rng.choice(['OLD', 'NEW'])} *"


def _statement(rng, table, checks=True):
    source = _pick(rng, [f'"{table}"'], [f'"{table}"."gsi"', f'"{table}"."nope"', '"no-such-table"'])
    kind = rng.randrange(6 if checks else 5)
    if kind == 0:
        projection = _pick(rng, ["*", "a, n", "m.x, l[0]"], ["a, a", "*, a", "size(a)"])
        keyed = rng.random() < 0.5
        where = f" WHERE {_key(rng) if keyed else _condition(rng)}" if rng.random() < 0.9 else ""
        order = _pick(rng, [""], [" ORDER BY n"]) if not keyed else rng.choice(["", " ORDER BY sk", " ORDER BY sk DESC"])
        return f"SELECT {projection} FROM {source}{where}{order}"
    if kind == 1:
        members = ", ".join([f"'pk': {_pick(rng, ['?', repr('i'), repr('j')], ['1'])}", f"'sk': {rng.randint(1, 9)}"]
                            + [f"'{p}': {_value(rng, constant=True)}" for p in rng.sample(["a", "n", "m", "l"], rng.randint(0, 2))])
        return f"INSERT INTO {source} VALUE {{{members}}}"
    if kind == 2:
        return f"UPDATE {source} {_clauses(rng)} WHERE {_key(rng)}{_returning(rng)}"
    if kind == 3:
        return f"FROM {source} WHERE {_key(rng)} {_clauses(rng)}{_returning(rng)}"
    if kind == 4:
        return f"DELETE FROM {source} WHERE {_key(rng)}{rng.choice(['', ' RETURNING ALL OLD *'])}"
    return f"{rng.choice(['EXISTS', 'NOT EXISTS'])}(SELECT * FROM {source} WHERE {_key(rng)})"


BREAKS = ["AND", "OR", "WHERE", "SET", "foo", ")", "(", ",", ";", "#", "/*", "IS", "LIKE", "ORDER BY pk", "t", "."]


def _broken(rng, statement):
    tokens = statement.split(" ")
    for _ in range(rng.randint(1, 2)):
        op = rng.randrange(4)
        position = rng.randrange(len(tokens) + 1)
        if op == 0 and len(tokens) > 1:
            del tokens[min(position, len(tokens) - 1)]
        elif op == 1:
            tokens.insert(position, rng.choice(BREAKS))
        elif op == 2 and len(tokens) > 2:
            i, j = rng.sample(range(len(tokens)), 2)
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:
            tokens = tokens[:max(1, position)]
    return " ".join(tokens)


def _parameters(rng, statement):
    count = statement.count("?") + _pick(rng, [0], [1, -1])
    good = [{"S": "a"}, {"S": "b"}]
    risky = [{"N": "1e2147483647"}, {"N": "abc"}, {"N": ""}, {"N": "1e99999999999"}, {"BOOL": True}, {"N": "1"},
             {"SS": ["x"]}, {"L": [{"N": "1"}]}, {"M": {"k": {"S": "v"}}}]
    return [_pick(rng, good, risky) for _ in range(max(count, 0))]


def _catalogued(kind, message):
    import re
    return any(re.fullmatch(pattern, message or "") for pattern in CATALOGUE.get(kind, []))


def _check_catalogued(response, statements):
    """Checks one answer; returns whether it was a result (HTTP 200)."""
    assert response.status in (200, 400), f"HTTP {response.status} for {statements}: {response.body[:300]!r}"
    body = response.json()
    if response.status == 400:
        kind = body["__type"].split("#")[-1]
        message = body.get("message") or body.get("Message")
        assert _catalogued(kind, message), f"{statements}: {kind}: {message}"
        return False
    for entry in body.get("Responses", []):
        if "Error" in entry:
            code, message = entry["Error"]["Code"], entry["Error"].get("Message")
            kind = "ValidationException" if code == "ValidationError" else code + "Exception"
            assert _catalogued(kind, message), f"{statements}: {code}: {message}"
    return True


@pytest.mark.parametrize("seed", [5, 17, 2026])
def test_generated_statements_get_catalogued_answers(raw, ddb, make_table, seed):
    rng = random.Random(seed)
    table = make_table(("pk", "S"), ("sk", "N"),
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                             {"AttributeName": "sk", "AttributeType": "N"},
                                             {"AttributeName": "g", "AttributeType": "S"}],
                       GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    for pk in "ab":
        ddb.put_item(TableName=table, Item={"pk": {"S": pk}, "sk": {"N": "1"}, "a": {"S": "x"}, "n": {"N": "1"},
                                            "ss": {"SS": ["a"]}, "l": {"L": [{"N": "1"}]}, "g": {"S": "g"},
                                            "m": {"M": {"x": {"N": "0"}}}})
    results = {True: 0, False: 0}
    for _ in range(150):
        statement = _statement(rng, table, checks=False)
        broken = rng.random() < 0.5
        if broken:
            statement = _broken(rng, statement)
        payload = {"Statement": statement}
        parameters = _parameters(rng, statement)
        if parameters:
            payload["Parameters"] = parameters
        answered = _check_catalogued(raw.call("ExecuteStatement", payload), [payload])
        if not broken:
            results[answered] += 1
        batch = [payload] + [{"Statement": _statement(rng, table), "Parameters": [{"S": "a"}] * 3}
                             for _ in range(rng.randint(0, 2))]
        _check_catalogued(raw.call("BatchExecuteStatement", {"Statements": batch}), batch)
        _check_catalogued(raw.call("ExecuteTransaction", {"TransactStatements": batch}), batch)
    # The generator reaches the engine: a good share of the well-formed statements run.
    assert results[True] >= 10, results
