"""Disk trouble under a running server: a full disk (the file-size limit, `ulimit -f`), a read-only
data directory, a database another process has locked, a corrupt database file. The affected
requests get DynamoDB's 500 `InternalServerError`, the log says why, the server keeps running,
nothing acknowledged is lost, and it recovers without a restart once the cause is gone.

Permissions do not bind root, so when the suite runs as root the server of the read-only test
runs as `nobody`.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import sqlite3
import subprocess
import tempfile
import threading
from pathlib import Path

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import ServerProcess, _resolve_binary

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server processes"
)

NOBODY = 65534


class Server(ServerProcess):
    """A server on `db_path` with TTL sweeps off, started at once; its log is its stderr."""

    def __init__(self, db_path: Path, preexec=None):
        super().__init__(_resolve_binary(), ["--db-path", str(db_path), "--ttl-interval", "0"], preexec=preexec)
        self.db_path = db_path
        self.start()

    def client(self, region: str = "us-east-1"):
        return boto3.client("dynamodb", endpoint_url=self.url, region_name=region, aws_access_key_id="k",
                            aws_secret_access_key="s",
                            config=Config(retries={"max_attempts": 1, "mode": "standard"}, read_timeout=60))

    def log_text(self) -> str:
        return self.stderr_text()


@pytest.fixture
def work():
    path = Path(tempfile.mkdtemp(prefix="localdynamo-disk-"))
    os.chmod(path, 0o777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def create_table(ddb, name: str = "Tab") -> None:
    ddb.create_table(TableName=name, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")


def put(ddb, key: str, size: int = 10, table: str = "Tab") -> None:
    ddb.put_item(TableName=table, Item={"pk": {"S": key}, "pad": {"S": "x" * size}})


def expect_internal_error(call) -> None:
    with pytest.raises(ClientError) as raised:
        call()
    response = raised.value.response
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 500, response
    assert response["Error"]["Code"] == "InternalServerError", response


def run_check(db_path: Path) -> str:
    result = subprocess.run([str(_resolve_binary()), "check", "--db-path", str(db_path)], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_a_full_disk_fails_writes_with_internal_server_error_and_recovers(work):
    """The server may write files up to 2 MB (`ulimit -f`): writes past it fail, then succeed
    again once the limit is lifted, with every acknowledged write still there."""
    limit = 2 * 1024 * 1024

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    server = Server(work / "db", preexec=small_files)
    try:
        ddb = server.client()
        create_table(ddb)
        acknowledged, failures = [], 0
        for number in range(400):  # 400 × 20 KB = 8 MB: far past the limit
            try:
                put(ddb, f"k{number}", size=20_000)
                acknowledged.append(f"k{number}")
            except ClientError as error:
                assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 500
                assert error.response["Error"]["Code"] == "InternalServerError"
                failures += 1
                if failures >= 5:
                    break
        assert failures >= 5 and acknowledged, (failures, len(acknowledged))
        assert server.alive()
        assert re.search(r"(?i)disk is full|disk I/O error|file too large", server_log := server.log_text()), server_log[-2000:]
        ddb.get_item(TableName="Tab", Key={"pk": {"S": acknowledged[0]}})  # reads still answer
        resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        put(ddb, "after", size=20_000)  # recovered without a restart
        for key in acknowledged + ["after"]:
            assert "Item" in ddb.get_item(TableName="Tab", Key={"pk": {"S": key}}, ConsistentRead=True), key
        assert ddb.describe_table(TableName="Tab")["Table"]["ItemCount"] == len(acknowledged) + 1
    finally:
        server.stop()
    run_check(work / "db")


def test_a_read_only_data_directory_fails_new_databases_and_recovers(work):
    db_path = work / "db"
    db_path.mkdir()
    as_nobody = (lambda: os.setuid(NOBODY)) if os.geteuid() == 0 else None
    if as_nobody:
        os.chown(db_path, NOBODY, NOBODY)
    server = Server(db_path, preexec=as_nobody)
    try:
        create_table(server.client("us-east-1"))
        put(server.client("us-east-1"), "before")
        os.chmod(db_path, 0o555)
        # A region whose database would be a new file: refused, the open database unaffected.
        expect_internal_error(lambda: server.client("eu-west-1").list_tables())
        assert re.search(r"(?i)unable to open|readonly|permission", server.log_text()), server.log_text()[-2000:]
        put(server.client("us-east-1"), "during")
        assert server.alive()
        os.chmod(db_path, 0o755)
        assert server.client("eu-west-1").list_tables()["TableNames"] == []
        ddb = server.client("us-east-1")
        assert {i["pk"]["S"] for i in ddb.scan(TableName="Tab")["Items"]} == {"before", "during"}
    finally:
        os.chmod(db_path, 0o755)
        server.stop()
    run_check(db_path)


def test_a_database_locked_by_another_process_fails_writes_and_recovers(work):
    server = Server(work / "db")
    try:
        ddb = server.client()
        create_table(ddb)
        put(ddb, "before")
        locked, release = threading.Event(), threading.Event()

        def hold_the_lock():  # another process's exclusive transaction (a sqlite3 shell, say)
            script = ("import sqlite3, sys\n"
                      f"c = sqlite3.connect({str(work / 'db' / 'us-east-1.db')!r}, isolation_level=None)\n"
                      "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.readline()\n"
                      "c.execute('ROLLBACK')\n")
            holder = subprocess.Popen(["python3", "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert holder.stdout.readline().strip() == "locked"
            locked.set()
            release.wait(120)
            holder.communicate("go\n", timeout=30)

        thread = threading.Thread(target=hold_the_lock)
        thread.start()
        try:
            assert locked.wait(30)
            expect_internal_error(lambda: put(ddb, "blocked"))
            assert re.search(r"(?i)database is locked|busy", server.log_text()), server.log_text()[-2000:]
            # Reads go on under WAL while another process holds the write lock.
            assert ddb.get_item(TableName="Tab", Key={"pk": {"S": "before"}})["Item"]["pk"] == {"S": "before"}
        finally:
            release.set()
            thread.join(timeout=60)
        put(ddb, "after")
        keys = {i["pk"]["S"] for i in ddb.scan(TableName="Tab", ConsistentRead=True)["Items"]}
        assert keys == {"before", "after"}
        assert ddb.describe_table(TableName="Tab")["Table"]["ItemCount"] == 2
    finally:
        server.stop()
    run_check(work / "db")


def test_a_corrupt_database_file_fails_its_requests_and_recovers_when_replaced(work):
    db_path = work / "db"
    first = Server(db_path)
    create_table(first.client())
    put(first.client(), "kept")
    first.stop()
    good = work / "good.db"
    shutil.copy(db_path / "us-east-1.db", good)
    with open(db_path / "us-east-1.db", "r+b") as file:  # the header and first pages overwritten
        file.write(os.urandom(8192))
    server = Server(db_path)
    try:
        expect_internal_error(lambda: server.client().list_tables())
        assert re.search(r"(?i)not a database|malformed|corrupt", server.log_text()), server.log_text()[-2000:]
        create_table(server.client("eu-west-1"))  # other databases are served
        assert server.alive()
        shutil.copy(good, db_path / "us-east-1.db")  # the operator restores the file
        ddb = server.client()
        assert ddb.get_item(TableName="Tab", Key={"pk": {"S": "kept"}})["Item"]["pk"] == {"S": "kept"}
    finally:
        server.stop()
    run_check(db_path)
