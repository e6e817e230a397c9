"""`localdynamo` as a drop-in for DynamoDB Local: its command line (flags, checks, messages,
banner), its namespaces, -cors, -delayTransientStatuses, and the migration of its data files,
driven as a black box (the binary started as DynamoDB Local's image or scripts start it)."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import _resolve_binary
from dynamodb_local_files import write_file

BANNER_FIRST = "Initializing DynamoDB Local with the following configuration:"
STARTUP_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(_resolve_binary()), *args], capture_output=True, text=True, timeout=30, cwd=cwd)


class DynamoDBLocal:
    """The binary started with DynamoDB Local's command line; ready once its banner is printed."""

    def __init__(self, args: list[str], cwd: Path | None = None, jvm: list[str] | None = None):
        self.port = free_port()
        self.args = [*(jvm or []), "-jar", "DynamoDBLocal.jar", "-port", str(self.port), *args]
        self.cwd = cwd
        self.lines: list[str] = []
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> "DynamoDBLocal":
        self.proc = subprocess.Popen([str(_resolve_binary()), *self.args], cwd=self.cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.stderr: list[str] = []
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not any(line.startswith("CorsParams:") for line in self.lines):
            line = self.proc.stdout.readline()
            if not line:
                self.proc.wait(timeout=5)
                time.sleep(0.1)
                pytest.fail(f"exited {self.proc.returncode} before its banner: {''.join(self.lines)} {''.join(self.stderr)}")
            self.lines.append(line)
            assert time.monotonic() < deadline, "no banner in time"
        return self

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self, key: str = "testing", region: str = "us-east-1"):
        return boto3.session.Session().client(
            "dynamodb", endpoint_url=self.url, region_name=region, aws_access_key_id=key,
            aws_secret_access_key="secret", config=Config(retries={"max_attempts": 1}))

    def request(self, method: str, path: str, headers: dict | None = None, body: bytes = b""):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response, data


def create_table(client, name: str = "Music") -> None:
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


def test_banner_as_dynamodb_local_prints_it_then_serves():
    with DynamoDBLocal(["-inMemory", "-sharedDb"]) as server:
        banner = "".join(server.lines).splitlines()
        assert banner == [
            BANNER_FIRST,
            f"Port:\t{server.port}",
            "InMemory:\ttrue",
            f"Version:\t{run(['--version']).stdout.strip()}",
            "DbPath:\tnull",
            "SharedDb:\ttrue",
            "shouldDelayTransientStatuses:\tfalse",
            "CorsParams:\tnull",
        ]
        assert server.client().list_tables()["TableNames"] == []


def test_jvm_words_are_ignored_and_values_printed_as_given(tmp_path):
    with DynamoDBLocal(["-sharedDb", "-dbPath", str(tmp_path), "-cors", "http://a.example", "-delayTransientStatuses",
                        "-disableTelemetry"], jvm=["-Djava.library.path=./DynamoDBLocal_lib", "-Xmx256m"]) as server:
        lines = "".join(server.lines).splitlines()
        assert f"DbPath:\t{tmp_path}" in lines
        assert "shouldDelayTransientStatuses:\ttrue" in lines
        assert "CorsParams:\thttp://a.example" in lines
        assert "InMemory:\tfalse" in lines
    # After -jar the JVM's words are DynamoDB Local's options, and unknown there too.
    late = run(["-jar", "DynamoDBLocal.jar", "-Dx=y"])
    assert late.returncode == 1 and "Unrecognized option: -Dx=y" in late.stderr


@pytest.mark.parametrize("args, message", [
    (["-inMemory", "-dbPath", "."], "dbPath and inMemory cannot be set at the same time."),
    (["-port", "0"], "Invalid Port. Port number must lie between 1 and 65535."),
    (["-port", "1"], "Invalid Port. Port number must lie between 1 and 65535."),
    (["-port", "65536"], "Invalid Port. Port number must lie between 1 and 65535."),
    (["-port", "eighty"], "Invalid Port. Port number must lie between 1 and 65535."),
    (["-optimizeDbBeforeStartup"], "optimizeDbBeforeStartup option must be used with dbPath to determine the location of database files to optimize."),
    (["-dbPath", "/nonexistent/localdynamo"], "Invalid directory for database creation."),
    (["-sharedDb", "-bogus"], "Error while parsing options. Unrecognized option: -bogus"),
    (["-port"], "Error while parsing options. Missing argument for option: port"),
])
def test_refused_command_lines(args, message):
    result = run(["-jar", "DynamoDBLocal.jar", *args])
    assert result.returncode == 1
    assert result.stderr.strip() == message
    assert BANNER_FIRST not in result.stdout


def test_help_and_version():
    help_text = run(["-help"])
    assert help_text.returncode == 0
    assert help_text.stdout.startswith("usage: localdynamo [-jar DynamoDBLocal.jar]")
    for flag in ["-port", "-inMemory", "-sharedDb", "-dbPath", "-cors", "-delayTransientStatuses",
                 "-optimizeDbBeforeStartup", "-disableTelemetry", "-version"]:
        assert f" {flag}" in help_text.stdout
    version = run(["-jar", "DynamoDBLocal.jar", "-version"])
    assert version.returncode == 0
    assert version.stdout.strip() == run(["--version"]).stdout.strip()


def test_our_own_interface_is_unchanged():
    assert "serve" in run(["--help"]).stdout
    assert run(["serve", "--shared-db", "--per-access-key"]).returncode != 0


# ---------------------------------------------------------------------------
# What the flags mean
# ---------------------------------------------------------------------------


def test_one_database_per_access_key_and_region_by_default():
    with DynamoDBLocal(["-inMemory"]) as server:
        create_table(server.client("alice", "us-east-1"))
        assert server.client("alice", "us-east-1").list_tables()["TableNames"] == ["Music"]
        assert server.client("bob", "us-east-1").list_tables()["TableNames"] == []
        assert server.client("alice", "eu-west-1").list_tables()["TableNames"] == []


def test_shared_db_is_one_database():
    with DynamoDBLocal(["-inMemory", "-sharedDb"]) as server:
        create_table(server.client("alice", "us-east-1"))
        assert server.client("bob", "eu-west-1").list_tables()["TableNames"] == ["Music"]


def test_default_db_path_is_the_current_directory(tmp_path):
    with DynamoDBLocal([], cwd=tmp_path) as server:
        assert "DbPath:\tnull\n" in server.lines
        create_table(server.client("alice", "us-east-1"))
    assert (tmp_path / "alice_us-east-1.db").exists()
    with DynamoDBLocal([], cwd=tmp_path) as server:
        assert server.client("alice", "us-east-1").list_tables()["TableNames"] == ["Music"]


def test_cors_allow_list():
    headers = {"Origin": "http://a.example", "Access-Control-Request-Method": "POST"}
    with DynamoDBLocal(["-inMemory", "-cors", "http://a.example,http://b.example"]) as server:
        response, _ = server.request("OPTIONS", "/", headers)
        assert response.status == 200
        assert response.getheader("Access-Control-Allow-Origin") == "http://a.example"
        response, _ = server.request("GET", "/", {"Origin": "http://b.example"})
        assert response.getheader("Access-Control-Allow-Origin") == "http://b.example"
        response, _ = server.request("GET", "/", {"Origin": "http://evil.example"})
        assert response.getheader("Access-Control-Allow-Origin") is None
    with DynamoDBLocal(["-inMemory"]) as server:
        response, _ = server.request("GET", "/", {"Origin": "http://evil.example"})
        assert response.getheader("Access-Control-Allow-Origin") == "*"


def test_delay_transient_statuses_holds_creating_and_deleting():
    with DynamoDBLocal(["-inMemory", "-sharedDb", "-delayTransientStatuses"]) as server:
        client = server.client()
        create_table(client)
        assert client.describe_table(TableName="Music")["Table"]["TableStatus"] == "CREATING"
        client.put_item(TableName="Music", Item={"pk": {"S": "a"}})  # only the status is held
        response, body = server.request("POST", "/_localdynamo/clock", {"Content-Type": "application/json"},
                                        json.dumps({"advanceSeconds": 6}).encode())
        assert response.status == 200, body
        assert client.describe_table(TableName="Music")["Table"]["TableStatus"] == "ACTIVE"
        client.delete_table(TableName="Music")
        assert client.describe_table(TableName="Music")["Table"]["TableStatus"] == "DELETING"
        server.request("POST", "/_localdynamo/clock", {"Content-Type": "application/json"},
                       json.dumps({"advanceSeconds": 6}).encode())
        with pytest.raises(ClientError) as missing:
            client.describe_table(TableName="Music")
        assert missing.value.response["Error"]["Code"] == "ResourceNotFoundException"


def test_without_delay_tables_are_active_at_once():
    with DynamoDBLocal(["-inMemory", "-sharedDb"]) as server:
        create_table(server.client())
        assert server.client().describe_table(TableName="Music")["Table"]["TableStatus"] == "ACTIVE"


# ---------------------------------------------------------------------------
# DynamoDB Local's data files
# ---------------------------------------------------------------------------

MUSIC = {
    "name": "Music", "attributes": {"Artist": "S", "SongTitle": "S", "Year": "N"},
    "hash": "Artist", "range": "SongTitle", "gsis": [{"name": "ByYear", "hash": "Year"}],
    "provisioned": (5, 5), "deletion_protection": True, "stream": "NEW_IMAGE",
    "items": [
        {"Artist": {"S": "No One You Know"}, "SongTitle": {"S": "Call Me Today"}, "Year": {"N": "2015"},
         "Tags": {"SS": ["pop", "rock"]}, "Cover": {"B": "AAEC"}, "Extra": {"M": {"L": {"L": [{"NULL": True}, {"BOOL": False}]}}}},
        {"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}, "Year": {"N": "1.5E+3"}, "Plays": {"NS": ["1", "2.5"]}},
    ],
}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_dynamodb_local_directory_is_served_with_its_tables_and_items(tmp_path):
    source = tmp_path / "shared-local-instance.db"
    write_file(source, [MUSIC])
    before = sha(source)
    with DynamoDBLocal(["-sharedDb", "-dbPath", str(tmp_path)]) as server:
        client = server.client("anyone", "ap-south-1")
        table = client.describe_table(TableName="Music")["Table"]
        assert table["TableStatus"] == "ACTIVE"
        assert table["ItemCount"] == 2
        assert table["DeletionProtectionEnabled"] is True
        assert table["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
        assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 5
        assert [index["IndexName"] for index in table["GlobalSecondaryIndexes"]] == ["ByYear"]
        for item in MUSIC["items"]:
            key = {"Artist": item["Artist"], "SongTitle": item["SongTitle"]}
            got = client.get_item(TableName="Music", Key=key, ConsistentRead=True)["Item"]
            expected = json.loads(json.dumps(item))
            expected["Year"] = {"N": "1500"} if item["Year"]["N"] == "1.5E+3" else item["Year"]
            got.pop("Cover", None) if "Cover" not in item else None
            if "Cover" in item:
                assert got.pop("Cover") == {"B": b"\x00\x01\x02"}
                expected.pop("Cover")
            assert got == expected
        by_year = client.query(TableName="Music", IndexName="ByYear", KeyConditionExpression="#y = :y",
                               ExpressionAttributeNames={"#y": "Year"}, ExpressionAttributeValues={":y": {"N": "2015"}})
        assert by_year["Count"] == 1
        client.put_item(TableName="Music", Item={"Artist": {"S": "New"}, "SongTitle": {"S": "Song"}})
    assert sha(source) == before
    migrated = [line for line in server.stderr if "migrated DynamoDB Local file" in line]
    assert len(migrated) == 1 and "Music (1 indexes, 2 items)" in migrated[0]
    # The second start serves what the first one wrote, without migrating again.
    with DynamoDBLocal(["-sharedDb", "-dbPath", str(tmp_path)]) as server:
        assert server.client().describe_table(TableName="Music")["Table"]["ItemCount"] == 3
    assert not [line for line in server.stderr if "migrated DynamoDB Local file" in line]
    assert sha(source) == before


def test_a_per_key_file_is_that_keys_namespace(tmp_path):
    write_file(tmp_path / "alice_eu-west-1.db", [dict(MUSIC, deletion_protection=False, stream=None, provisioned=None)])
    with DynamoDBLocal(["-dbPath", str(tmp_path)]) as server:
        assert server.client("alice", "eu-west-1").list_tables()["TableNames"] == ["Music"]
        assert server.client("bob", "eu-west-1").list_tables()["TableNames"] == []


def test_an_unreadable_file_refuses_to_start_and_migrates_nothing(tmp_path):
    write_file(tmp_path / "alice_eu-west-1.db", [MUSIC])
    (tmp_path / "shared-local-instance.db").write_bytes(b"not a database at all")
    result = run(["-jar", "DynamoDBLocal.jar", "-port", str(free_port()), "-dbPath", str(tmp_path)])
    assert result.returncode == 1
    assert "Cannot migrate DynamoDB Local's file" in result.stderr
    assert "shared-local-instance.db" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice_eu-west-1.db", "shared-local-instance.db"]
    # serve --db-path refuses the same way.
    result = run(["serve", "--db-path", str(tmp_path), "--port", "0"])
    assert result.returncode != 0
    assert "Cannot migrate DynamoDB Local's file" in result.stderr


def test_import_on_demand(tmp_path):
    source = tmp_path / "shared-local-instance.db"
    write_file(source, [MUSIC], version="v2.2.0")
    store = tmp_path / "store"
    result = run(["import-dynamodb-local", str(source), "--db-path", str(store)])
    assert result.returncode == 0, result.stderr
    assert "into namespace shared-local-instance" in result.stdout and "Music (1 indexes, 2 items)" in result.stdout
    again = run(["import-dynamodb-local", str(source), "--db-path", str(store)])
    assert again.returncode != 0
    assert "already has a database" in again.stderr


def test_optimize_db_before_startup_compacts_our_files(tmp_path):
    with DynamoDBLocal(["-sharedDb", "-dbPath", str(tmp_path)]) as server:
        create_table(server.client())
        server.client().put_item(TableName="Music", Item={"pk": {"S": "kept"}})
    with DynamoDBLocal(["-sharedDb", "-dbPath", str(tmp_path), "-optimizeDbBeforeStartup"]) as server:
        assert server.client().get_item(TableName="Music", Key={"pk": {"S": "kept"}})["Item"] == {"pk": {"S": "kept"}}
    assert any("optimized" in line and "shared-local-instance.db" in line for line in server.stderr)


def test_health_command():
    with DynamoDBLocal(["-inMemory"]) as server:
        assert run(["health", "--port", str(server.port)]).returncode == 0
    closed = run(["health", "--port", str(free_port())])
    assert closed.returncode == 1
    assert "unhealthy" in closed.stdout


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_option_order_does_not_matter(seed):
    import random

    words = [["-sharedDb"], ["-inMemory"], ["-delayTransientStatuses"], ["-cors", "http://x.example"], ["-disableTelemetry"]]
    random.Random(seed).shuffle(words)
    with DynamoDBLocal([word for option in words for word in option]) as server:
        lines = "".join(server.lines).splitlines()
        for expected in ["InMemory:\ttrue", "SharedDb:\ttrue", "shouldDelayTransientStatuses:\ttrue",
                         "CorsParams:\thttp://x.example", "DbPath:\tnull"]:
            assert expected in lines


def test_serve_migrates_a_db_path_of_dynamodb_local_files(tmp_path):
    from conftest import ServerProcess

    write_file(tmp_path / "shared-local-instance.db", [MUSIC])
    server = ServerProcess(_resolve_binary(), ["--shared-db", "--db-path", str(tmp_path)])
    url = server.start()
    try:
        client = boto3.session.Session().client("dynamodb", endpoint_url=url, region_name="us-west-2",
                                                aws_access_key_id="k", aws_secret_access_key="s")
        assert client.describe_table(TableName="Music")["Table"]["ItemCount"] == 2
        assert "migrated DynamoDB Local file" in server.stderr_text()
    finally:
        server.stop()


def test_every_sigterm_stops_the_server(tmp_path):
    """A signal must never be lost, whichever of the server's threads the kernel hands it to:
    with libdispatch's signal sources about one SIGTERM in seventy, sent as soon as the banner
    was printed after migrating a data file, left the server running. 100 starts and stops."""
    for round in range(100):
        directory = tmp_path / f"run{round}"
        directory.mkdir()
        write_file(directory / "shared-local-instance.db", [MUSIC])
        server = DynamoDBLocal(["-sharedDb", "-dbPath", str(directory)]).__enter__()
        server.proc.terminate()
        try:
            assert server.proc.wait(timeout=10) == 0, "".join(server.stderr)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            pytest.fail(f"start {round}: SIGTERM did not stop the server within 10 s")


def test_check_leaves_dynamodb_local_files_alone(tmp_path):
    source = tmp_path / "shared-local-instance.db"
    write_file(source, [MUSIC])
    before = sha(source)
    with DynamoDBLocal(["-sharedDb", "-dbPath", str(tmp_path)]):
        pass
    check = run(["check", "--db-path", str(tmp_path)])
    assert check.returncode == 0, check.stdout + check.stderr
    assert "shared-local-instance.localdynamo.db" in check.stdout
    assert sha(source) == before
    assert sorted(p.name for p in tmp_path.iterdir() if "shared-local-instance.db" in p.name) == ["shared-local-instance.db"]
