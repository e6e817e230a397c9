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


def test_per_access_key_disassociation_stays_with_the_key(server):
    url = server("--per-access-key")
    alice_east, alice_west = client(url, "us-east-1", "alice"), client(url, "us-west-2", "alice")
    bob_east, bob_west = client(url, "us-east-1", "bob"), client(url, "us-west-2", "bob")
    for east in (alice_east, bob_east):
        create(east, "Orders")
        east.update_table(TableName="Orders", ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}])
    alice_west.update_table(TableName="Orders", DisassociationProtectionEnabled=False)
    alice_west.update_table(TableName="Orders", ReplicaUpdates=[
        {"Disassociate": {"RegionName": "us-west-2", "DisassociationMode": "WAIT_FOR_REPLICATION"}}])
    assert "Replicas" not in alice_east.describe_table(TableName="Orders")["Table"]
    assert [r["RegionName"] for r in bob_east.describe_table(TableName="Orders")["Table"]["Replicas"]] == ["us-west-2"]
    assert bob_west.describe_table(TableName="Orders")["Table"]["DisassociationProtectionEnabled"] is True
    bob_east.put_item(TableName="Orders", Item={"pk": {"S": "b"}})
    read = lambda: bob_west.get_item(TableName="Orders", Key={"pk": {"S": "b"}}, ConsistentRead=True).get("Item")
    assert poll_until(read, {"pk": {"S": "b"}}) == {"pk": {"S": "b"}}


def test_shared_db_has_no_replicas_to_disassociate(server):
    url = server("--shared-db")
    east = client(url, "us-east-1", "alice")
    create(east, "Orders")
    with expect_error("ValidationException", "One or more parameter values were invalid: Table Orders is not a replica "
                      "of a global table of version 2019.11.21"):
        east.update_table(TableName="Orders", DisassociationProtectionEnabled=False)
