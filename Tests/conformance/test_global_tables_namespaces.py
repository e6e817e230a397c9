"""Global tables and the namespace modes: replicas live in the namespace of the same access key
in the other region (`--per-access-key`), and `--shared-db`, where every region is one set of
tables, refuses them."""

import boto3
import pytest
from botocore.config import Config

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import expect_error, poll_until


def client(url, region, key):
    return boto3.session.Session().client(
        "dynamodb", endpoint_url=url, region_name=region, aws_access_key_id=key, aws_secret_access_key="secret",
        config=Config(retries={"max_attempts": 1, "mode": "standard"}))


@pytest.fixture
def server():
    started = []

    def start(*args):
        process = ServerProcess(_resolve_binary(), ["--in-memory", *args])
        process.start()
        started.append(process)
        return process.url

    yield start
    for process in started:
        process.stop()


def create(ddb, name):
    ddb.create_table(TableName=name, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")


def test_per_access_key_replicas_belong_to_the_key(server):
    url = server("--per-access-key")
    alice_east, alice_west = client(url, "us-east-1", "alice"), client(url, "us-west-2", "alice")
    bob_west = client(url, "us-west-2", "bob")
    create(alice_east, "Orders")
    alice_east.update_table(TableName="Orders", ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}])
    assert alice_west.list_tables()["TableNames"] == ["Orders"]
    assert bob_west.list_tables()["TableNames"] == []
    alice_east.put_item(TableName="Orders", Item={"pk": {"S": "a"}})
    read = lambda: alice_west.get_item(TableName="Orders", Key={"pk": {"S": "a"}}, ConsistentRead=True).get("Item")
    assert poll_until(read, {"pk": {"S": "a"}}) == {"pk": {"S": "a"}}


def test_shared_db_refuses_replicas(server):
    url = server("--shared-db")
    east = client(url, "us-east-1", "alice")
    create(east, "Orders")
    with expect_error("ValidationException", contains=["--shared-db"]):
        east.update_table(TableName="Orders", ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}])
    with expect_error("ValidationException", contains=["--shared-db"]):
        east.create_global_table(GlobalTableName="Orders", ReplicationGroup=[{"RegionName": "us-east-1"}])
