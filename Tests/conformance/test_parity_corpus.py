"""Differential corpus: requests and the answers real DynamoDB gave them, replayed here.

Each file in `corpus/` holds cases measured by the public dynamodb-conformance suite
(nubo-db/dynamodb-conformance, validated against DynamoDB in 2026). A case names the
suite file it was measured in, the fixture tables it needs, optional setup requests,
the operation and its raw JSON body, and the expected outcome:

- `{"error": T, "message": M}`: the exact message;
- `{"error": T, "contains": [...], "contains_ci": [...], "not_contains_ci": [...],
  "matches": REGEX}`: the parts the suite asserts where the service's wording varies
  by region (any subset of the keys);
- `{"ok": true, "fields": {...}}`: accepted, with these top-level response fields
  (an error may name `fields` of its body too, e.g. `Item` or `CancellationReasons`);
  `"subset": {...}` compares only the members it names, `null` meaning absent.

A case that still diverges carries `known_divergence` (why, and what the service
does) and runs as a strict xfail.

The service answers in two wordings while its 2026 validation rollout is under way (see
`ErrorWording` and docs/compatibility.md). `expect` is the answer in the wording the case was
recorded in, the 2026 one unless the file's or the case's `"wording"` says `"2025"`; a case
recorded in both carries `expect_2025` too. Each case runs against the server of every wording
it has an answer for: the session's server (`--error-wording 2026`, the default) and one this
module starts with `--error-wording 2025`. `${hash}`, `${composite}` ... in a body are replaced by the fixture table names,
`${pad:N}` by N ASCII bytes.
Requests go out as unsigned JSON 1.0 over raw HTTP (the `raw` fixture) so invalid
input reaches the server exactly as written.
"""

from __future__ import annotations

import json
import pathlib
import re

import boto3
import pytest
from botocore.config import Config

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import REGION, RawHttp, TableFactory

CORPUS = pathlib.Path(__file__).parent / "corpus"


def _expectations(case: dict, file_wording: str) -> dict[str, dict]:
    """The answer the case expects in each wording it was recorded in."""
    recorded = case.get("wording", file_wording)
    out = {recorded: case["expect"]}
    if "expect_2025" in case:
        out["2025"] = case["expect_2025"]
    return out


def _cases(wording: str):
    out = []
    for path in sorted(CORPUS.glob("*.json")):
        corpus = json.loads(path.read_text())
        for case in corpus["cases"]:
            expected = _expectations(case, corpus.get("wording", "2026")).get(wording)
            if expected is None:
                continue
            # A divergence not fixed yet stays in the corpus as a strict xfail: the
            # day it is fixed the case passes and the marker must go.
            marks = [pytest.mark.xfail(strict=True, reason=case["known_divergence"])] \
                if "known_divergence" in case else []
            out.append(pytest.param(case, expected, id=f"{path.stem}:{case['name']}", marks=marks))
    return out


# The suite's shared table shapes (src/helpers.ts), created once per module when a case needs them.
def _s(name, type_="S"):
    return {"AttributeName": name, "AttributeType": type_}


def _key(*names):
    return [{"AttributeName": n, "KeyType": k} for n, k in zip(names, ("HASH", "RANGE"))]


FIXTURES = {
    "hash": dict(hash_key=("pk", "S")),
    "hashN": dict(hash_key=("pk", "N")),
    "hashB": dict(hash_key=("pk", "B")),
    "compositeN": dict(hash_key=("pk", "S"), range_key=("sk", "N")),
    "compositeB": dict(hash_key=("pk", "S"), range_key=("sk", "B")),
    # tests/tier1/putItem/indexConsumedCapacity.test.ts: a GSI and an LSI keyed on separate attributes.
    "indexedWrites": dict(
        hash_key=("pk", "S"),
        range_key=("sk", "S"),
        AttributeDefinitions=[_s("pk"), _s("sk"), _s("gsiPk"), _s("lsiSk")],
        GlobalSecondaryIndexes=[{"IndexName": "gsi-inc", "KeySchema": _key("gsiPk"),
                                 "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["proj"]}}],
        LocalSecondaryIndexes=[{"IndexName": "lsi1", "KeySchema": _key("pk", "lsiSk"), "Projection": {"ProjectionType": "ALL"}}],
    ),
    "composite": dict(
        hash_key=("pk", "S"),
        range_key=("sk", "S"),
        AttributeDefinitions=[_s("pk"), _s("sk"), _s("lsi1sk"), _s("lsi2sk")],
        LocalSecondaryIndexes=[
            {"IndexName": "lsi1", "KeySchema": _key("pk", "lsi1sk"), "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "lsi2", "KeySchema": _key("pk", "lsi2sk"),
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["lsi1sk"]}},
        ],
        GlobalSecondaryIndexes=[
            {"IndexName": "gsi1", "KeySchema": _key("lsi1sk"), "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "gsi2", "KeySchema": _key("lsi1sk", "lsi2sk"),
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["data"]}},
        ],
    ),
}


def _fixture_tables(factory):
    made: dict[str, str] = {}

    def get(name: str) -> str:
        if name not in made:
            made[name] = factory.create(**FIXTURES[name])
        return made[name]

    return get


@pytest.fixture(scope="module")
def fixture_tables(module_tables):
    return _fixture_tables(module_tables)


@pytest.fixture(scope="module")
def server_2025():
    """A second server of the binary, answering in the 2025 wording."""
    server = ServerProcess(_resolve_binary(), ["--in-memory", "--error-wording", "2025"])
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def raw_2025(server_2025):
    return RawHttp(server_2025.url)


@pytest.fixture(scope="module")
def fixture_tables_2025(server_2025):
    client = boto3.session.Session().client(
        "dynamodb", endpoint_url=server_2025.url, region_name=REGION,
        aws_access_key_id="AKIDWORDING", aws_secret_access_key="secret",
        config=Config(retries={"max_attempts": 1, "mode": "standard"}))
    factory = TableFactory(client, "w25")
    yield _fixture_tables(factory)
    factory.cleanup()


def _substitute(value, names):
    if isinstance(value, str):
        # `${pad:N}` is N ASCII bytes, so items sized to the byte stay readable here.
        value = re.sub(r"\$\{pad:(\d+)\}", lambda m: "x" * int(m.group(1)), value)
        return re.sub(r"\$\{(\w+)\}", lambda m: names[m.group(1)], value)
    if isinstance(value, list):
        return [_substitute(v, names) for v in value]
    if isinstance(value, dict):
        return {_substitute(k, names): _substitute(v, names) for k, v in value.items()}
    return value


def _subset_mismatches(want, got, path: str) -> list[str]:
    """`want` as a pattern: its maps name only the members that matter, None means absent."""
    if isinstance(want, dict) and isinstance(got, dict):
        return [problem for key, value in want.items()
                for problem in (_subset_mismatches(value, got.get(key), f"{path}.{key}") if value is not None
                                else ([f"{path}.{key}: expected absent, got {got[key]!r}"] if key in got else []))]
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [problem for index, (w, g) in enumerate(zip(want, got))
                for problem in _subset_mismatches(w, g, f"{path}[{index}]")]
    return [] if want == got else [f"{path}: expected {want!r}, got {got!r}"]


def _field_mismatches(expected: dict, answer: dict) -> list[str]:
    problems = [f"field {field}: expected {want!r}, got {answer.get(field)!r}"
                for field, want in expected.get("fields", {}).items() if answer.get(field) != want]
    return problems + _subset_mismatches(expected.get("subset", {}), answer, "answer")


def _mismatches(expected: dict, status: int, answer: dict) -> list[str]:
    if expected.get("ok"):
        return ([] if status == 200 else ["the request was refused"]) + _field_mismatches(expected, answer)
    error = answer.get("__type", "").rsplit("#", 1)[-1]
    message = answer.get("message", answer.get("Message", ""))
    problems = [] if status == 400 else [f"status {status}, expected 400"]
    if error != expected["error"]:
        problems.append(f"error type: expected {expected['error']}, got {error or None}")
    if "message" in expected and message != expected["message"]:
        problems.append("message differs")
    problems += [f"message lacks {part!r}" for part in expected.get("contains", []) if part not in message]
    problems += [f"message lacks {part!r} (any case)" for part in expected.get("contains_ci", [])
                 if part.lower() not in message.lower()]
    problems += [f"message has {part!r} (any case)" for part in expected.get("not_contains_ci", [])
                 if part.lower() in message.lower()]
    if "matches" in expected and not re.search(expected["matches"], message):
        problems.append(f"message does not match {expected['matches']!r}")
    return problems + _field_mismatches(expected, answer)


def _replay(case, expected, raw, fixture_tables):
    names = {name: fixture_tables(name) for name in case.get("tables", [])}
    for step in case.get("setup", []):
        done = raw.send(_substitute(step["body"], names), operation=step["operation"])
        assert done.status == 200, f"setup {step['operation']} failed: {done.body!r}"
    expected = _substitute(expected, names)
    answer_raw = raw.send(_substitute(case["body"], names), operation=case["operation"])
    answer = answer_raw.json() if answer_raw.body else {}
    problems = _mismatches(expected, answer_raw.status, answer)
    assert not problems, (
        f"{case['name']} (measured in {case['suite']}):\n  "
        + "\n  ".join(problems)
        + f"\n  expected: {json.dumps(expected)}\n  actual:   {answer_raw.status} {json.dumps(answer)}"
    )


@pytest.mark.parametrize("case,expected", _cases("2026"))
def test_corpus_case(case, expected, raw, fixture_tables):
    _replay(case, expected, raw, fixture_tables)


@pytest.mark.parametrize("case,expected", _cases("2025"))
def test_corpus_case_2025_wording(case, expected, raw_2025, fixture_tables_2025):
    _replay(case, expected, raw_2025, fixture_tables_2025)
