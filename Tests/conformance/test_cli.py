"""The AWS CLI (`aws dynamodb ...`) works unmodified against the endpoint."""

from __future__ import annotations

import json
import time

import pytest

from ddb_helpers import unique_name


@pytest.fixture
def cli_table(ddb):
    name = unique_name("cli")
    yield name
    try:
        ddb.delete_table(TableName=name)
    except Exception:
        pass


def _ok(result):
    assert result.returncode == 0, f"aws exited {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result.json


def _wait_active_cli(aws_cli, name, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        table = _ok(aws_cli("describe-table", "--table-name", name))["Table"]
        if table["TableStatus"] == "ACTIVE":
            return table
        assert time.monotonic() < deadline, f"{name} not ACTIVE: {table['TableStatus']}"
        time.sleep(0.2)


def test_cli_table_and_item_lifecycle(aws_cli, cli_table):
    name = cli_table
    created = _ok(
        aws_cli(
            "create-table",
            "--table-name", name,
            "--attribute-definitions", "AttributeName=pk,AttributeType=S", "AttributeName=sk,AttributeType=N",
            "--key-schema", "AttributeName=pk,KeyType=HASH", "AttributeName=sk,KeyType=RANGE",
            "--billing-mode", "PAY_PER_REQUEST",
        )
    )["TableDescription"]
    assert created["TableName"] == name
    assert created["TableStatus"] in ("CREATING", "ACTIVE")
    assert created["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    # The CLI renders timestamps as strings; DynamoDB sends epoch seconds.
    assert "CreationDateTime" in created

    table = _wait_active_cli(aws_cli, name)
    assert table["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ]
    assert table["ItemCount"] == 0

    listed = _ok(aws_cli("list-tables"))
    assert name in listed["TableNames"]

    item = {"pk": {"S": "cli"}, "sk": {"N": "1.50"}, "tags": {"SS": ["a", "b"]}, "flag": {"BOOL": True}}
    put = aws_cli("put-item", "--table-name", name, "--item", json.dumps(item), "--return-values", "ALL_OLD")
    assert put.returncode == 0, put.stderr
    assert put.stdout.strip() in ("", "{}")

    got = _ok(
        aws_cli(
            "get-item",
            "--table-name", name,
            "--key", json.dumps({"pk": {"S": "cli"}, "sk": {"N": "1.5"}}),
            "--consistent-read",
        )
    )["Item"]
    assert got["pk"] == {"S": "cli"}
    assert got["sk"] == {"N": "1.5"}
    assert sorted(got["tags"]["SS"]) == ["a", "b"]
    assert got["flag"] == {"BOOL": True}

    missing = aws_cli("get-item", "--table-name", name, "--key", json.dumps({"pk": {"S": "nope"}, "sk": {"N": "0"}}))
    assert missing.returncode == 0, missing.stderr
    assert "Item" not in missing.json

    deleted = _ok(aws_cli("delete-table", "--table-name", name))["TableDescription"]
    assert deleted["TableName"] == name
    assert deleted["TableStatus"] == "DELETING"

    deadline = time.monotonic() + 60
    while True:
        result = aws_cli("describe-table", "--table-name", name)
        if result.returncode != 0:
            assert "ResourceNotFoundException" in result.stderr
            break
        assert time.monotonic() < deadline, "table still describable 60s after delete-table"
        time.sleep(0.2)
    assert name not in _ok(aws_cli("list-tables"))["TableNames"]


def test_cli_describe_missing_table_fails_with_error_code(aws_cli):
    name = unique_name("cli-missing")
    result = aws_cli("describe-table", "--table-name", name)
    assert result.returncode != 0
    assert result.stdout.strip() == ""
    assert "ResourceNotFoundException" in result.stderr
    assert f"Requested resource not found: Table: {name} not found" in result.stderr
    assert "DescribeTable" in result.stderr


def test_cli_validation_error_is_reported(aws_cli):
    result = aws_cli(
        "create-table",
        "--table-name", "ab",
        "--attribute-definitions", "AttributeName=pk,AttributeType=S",
        "--key-schema", "AttributeName=pk,KeyType=HASH",
        "--billing-mode", "PAY_PER_REQUEST",
    )
    assert result.returncode != 0
    assert "ValidationException" in result.stderr
    assert "CreateTable" in result.stderr


def test_cli_list_tables_pagination_flags(aws_cli, ddb, make_table):
    names = sorted(make_table() for _ in range(3))
    page = _ok(aws_cli("list-tables", "--max-items", "2"))
    assert len(page["TableNames"]) == 2
    everything = _ok(aws_cli("list-tables", "--page-size", "1"))["TableNames"]
    assert everything == sorted(everything)
    for n in names:
        assert n in everything


def test_cli_create_table_from_fixture(aws_cli, ddb):
    """`--cli-input-json file://…` with a fixture, then tags and a round trip."""
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "tables" / "music.json"
    spec = json.loads(fixture.read_text())
    try:
        created = _ok(aws_cli("create-table", "--cli-input-json", f"file://{fixture}"))
        arn = created["TableDescription"]["TableArn"]
        assert arn.endswith(":table/Music")
        _ok(aws_cli("put-item", "--table-name", "Music", "--item",
                    '{"Artist":{"S":"No One You Know"},"SongTitle":{"S":"Call Me Today"},"Year":{"N":"2015.0"}}'))
        item = _ok(aws_cli("get-item", "--table-name", "Music", "--key",
                           '{"Artist":{"S":"No One You Know"},"SongTitle":{"S":"Call Me Today"}}'))["Item"]
        assert item["Year"] == {"N": "2015"}
        tags = _ok(aws_cli("list-tags-of-resource", "--resource-arn", arn))["Tags"]
        assert tags == spec["Tags"]
    finally:
        try:
            ddb.delete_table(TableName="Music")
        except Exception:
            pass
