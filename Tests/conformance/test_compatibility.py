"""docs/compatibility.md is current, and the server answers exactly the operations it lists as
implemented: every operation of botocore's DynamoDB and DynamoDB Streams models is called with a
minimal valid request (built from the model), and none may crash the server or answer a 500."""

import json
import subprocess
import sys
from pathlib import Path

import botocore.session
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "compatibility.py"
TARGETS = {"DynamoDB": "DynamoDB_20120810", "DynamoDB Streams": "DynamoDBStreams_20120810"}
MODELS = {"DynamoDB": "dynamodb", "DynamoDB Streams": "dynamodbstreams"}


def generated_rows():
    result = subprocess.run([sys.executable, str(SCRIPT), "--json"], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


ROWS = generated_rows()


def test_compatibility_doc_is_current():
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_model_operation_has_a_row():
    session = botocore.session.get_session()
    for service, model_name in MODELS.items():
        names = session.get_service_model(model_name).operation_names
        assert sorted(names) == sorted(row["operation"] for row in ROWS if row["service"] == service)


def minimal(shape, depth=0):
    """The smallest value the model's constraints allow for `shape` (required members only)."""
    kind = shape.type_name
    metadata = shape.metadata
    if kind == "structure":
        if depth > 6:
            return {}
        return {name: minimal(shape.members[name], depth + 1) for name in shape.required_members}
    if kind == "list":
        return [minimal(shape.member, depth + 1)] * metadata.get("min", 0)
    if kind == "map":
        if metadata.get("min", 0) == 0:
            return {}
        return {minimal(shape.key, depth + 1): minimal(shape.value, depth + 1)}
    if kind == "string":
        if shape.enum:
            return shape.enum[0]
        return "a" * max(3, metadata.get("min", 1))
    if kind in ("integer", "long"):
        return max(1, metadata.get("min", 1))
    if kind in ("double", "float"):
        return 1.0
    if kind == "boolean":
        return False
    if kind == "blob":
        return "AA=="
    if kind == "timestamp":
        return 1_700_000_000
    raise AssertionError(f"unexpected shape type {kind}")


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["operation"])
def test_operation_answers_as_documented(raw, row):
    model = botocore.session.get_session().get_service_model(MODELS[row["service"]])
    operation = model.operation_model(row["operation"])
    body = minimal(operation.input_shape) if operation.input_shape is not None else {}
    response = raw.send(body, target=f"{TARGETS[row['service']]}.{row['operation']}")
    assert response.status < 500, (row["operation"], response.status, response.body[:300])
    error = response.json().get("__type", "") if response.status != 200 else ""
    unknown = error.endswith("UnknownOperationException")
    assert unknown == (not row["implemented"]), (
        f"{row['operation']}: documented as {'implemented' if row['implemented'] else 'not yet'}, "
        f"answered {response.status} {response.body[:200]!r}")
