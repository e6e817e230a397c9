"""`serve` reads `LOCALDYNAMO_*` environment variables for its flags (the command line wins),
and its debug request log names operation, table, status, duration and request id, never item
values or credentials."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import boto3
import pytest
from botocore.config import Config

from conftest import REPO_ROOT, ServerProcess, _resolve_binary
from ddb_helpers import RawHttp, admin_call

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server processes"
)


class EnvironmentServer(ServerProcess):
    """A ServerProcess started with extra environment variables."""

    def __init__(self, environment: dict[str, str], args: list[str]):
        super().__init__(_resolve_binary(), args)
        self.environment = environment

    def start(self) -> str:
        saved = dict(os.environ)
        os.environ.update(self.environment)
        try:
            return super().start()
        finally:
            os.environ.clear()
            os.environ.update(saved)


def client(url: str, access_key: str = "k"):
    return boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1", aws_access_key_id=access_key,
                        aws_secret_access_key="very-secret-key", config=Config(retries={"max_attempts": 1}))


def test_environment_sets_options_flags_and_repeatable_options():
    server = EnvironmentServer({
        "LOCALDYNAMO_IN_MEMORY": "true",
        "LOCALDYNAMO_CLOCK_START": "1767225600",
        "LOCALDYNAMO_SEED": str(REPO_ROOT / "fixtures" / "seed" / "locations"),
        "LOCALDYNAMO_FAULT": "operation=DescribeLimits,error=ThrottlingException;operation=ListBackups,error=InternalServerError",
    }, [])
    url = server.start()
    try:
        assert "in memory" in "".join(server.stdout_lines)
        status, clock = admin_call(url, "GET", "/_localdynamo/clock")
        assert status == 200 and 1767225600 <= clock["epochSeconds"] < 1767225600 + 60
        assert len(client(url).list_tables()["TableNames"]) == 2
        status, faults = admin_call(url, "GET", "/_localdynamo/faults")
        assert [rule["operation"] for rule in faults["faults"]] == ["DescribeLimits", "ListBackups"]
    finally:
        server.stop()


def test_the_command_line_wins_over_the_environment():
    server = EnvironmentServer({"LOCALDYNAMO_CLOCK_START": "1767225600", "LOCALDYNAMO_IN_MEMORY": "1"},
                               ["--clock-start", "1900000000"])
    url = server.start()
    try:
        _, clock = admin_call(url, "GET", "/_localdynamo/clock")
        assert 1900000000 <= clock["epochSeconds"] < 1900000000 + 60
    finally:
        server.stop()


def test_a_bad_flag_value_in_the_environment_is_an_error():
    environment = dict(os.environ, LOCALDYNAMO_IN_MEMORY="maybe")
    result = subprocess.run([str(_resolve_binary()), "serve", "--port", "0"], env=environment,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "LOCALDYNAMO_IN_MEMORY=maybe" in result.stderr


def test_serve_help_names_the_environment_variables():
    result = subprocess.run([str(_resolve_binary()), "serve", "--help"], capture_output=True, text=True, timeout=30)
    flags = sorted(set(re.findall(r"--([a-z][a-z0-9-]+)", result.stdout.split("OPTIONS:")[1])) - {"help", "version"})
    assert "LOCALDYNAMO_<FLAG>" in result.stdout
    assert "db-path" in flags and "seed" in flags


def test_debug_request_log_has_operation_table_status_duration_and_request_id_only():
    server = ServerProcess(_resolve_binary(), ["--in-memory", "--log-level", "debug"])
    url = server.start()
    try:
        ddb = client(url, access_key="AKIDLOGCHECK")
        ddb.create_table(TableName="Logged", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}])
        put = ddb.put_item(TableName="Logged", Item={"id": {"S": "item-value-must-not-be-logged"}})
        request_id = put["ResponseMetadata"]["RequestId"]
    finally:
        server.stop()
    log = Path(server.stderr_file.name).read_text()
    line = next(line for line in log.splitlines() if request_id in line)
    for part in ("operation=PutItem", "table=Logged", "status=200", "duration_us=", f"request_id={request_id}"):
        assert part in line, line
    for secret in ("item-value-must-not-be-logged", "very-secret-key", "Signature="):
        assert secret not in log


def test_error_wording_from_the_environment_and_the_command_line():
    """`LOCALDYNAMO_ERROR_WORDING=2025` answers in the 2025 wording; `--error-wording` wins over it."""
    empty_name = {"2026": "1 validation error detected: Value at 'TableName' failed to satisfy constraint: "
                          "Member must have length greater than or equal to 1",
                  "2025": "1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: "
                          "Member must have length greater than or equal to 1"}
    for environment, args, wording in (({"LOCALDYNAMO_ERROR_WORDING": "2025"}, [], "2025"),
                                       ({"LOCALDYNAMO_ERROR_WORDING": "2025"}, ["--error-wording", "2026"], "2026")):
        server = EnvironmentServer({"LOCALDYNAMO_IN_MEMORY": "1", **environment}, args)
        url = server.start()
        try:
            answer = RawHttp(url).send({"TableName": "", "Key": {}}, operation="DeleteItem")
            assert (answer.status, answer.json()["message"]) == (400, empty_name[wording])
        finally:
            server.stop()
    refused = subprocess.run([str(_resolve_binary()), "serve", "--error-wording", "2024"],
                             capture_output=True, text=True, timeout=30)
    assert refused.returncode != 0 and "error-wording" in refused.stderr
    usage = subprocess.run([str(_resolve_binary()), "serve", "--help"], capture_output=True, text=True, timeout=30)
    assert "--error-wording <2025|2026>" in usage.stdout
