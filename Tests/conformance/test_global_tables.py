"""Global tables: replicas through UpdateTable (version 2019.11.21) with writes replicated
between the regions' namespaces, the 2017.11.29 API, and replica auto scaling state."""

import json
import boto3
import pytest
from botocore.config import Config

from conftest import ACCESS_KEY, SECRET_KEY
from ddb_helpers import REGION, TableFactory, expect_error, poll_until, unique_name, wait_until_gone

OTHER = "us-west-2" if REGION != "us-west-2" else "eu-west-1"
THIRD = "ap-southeast-2"


def client_for(endpoint_url, region):
    return boto3.session.Session().client(
        "dynamodb", endpoint_url=endpoint_url, region_name=region,
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
        config=Config(retries={"max_attempts": 1, "mode": "standard"}))


@pytest.fixture(scope="module")
def west(endpoint_url):
    return client_for(endpoint_url, OTHER)


@pytest.fixture(scope="module")
def third(endpoint_url):
    return client_for(endpoint_url, THIRD)


@pytest.fixture
def tables(ddb):
    factory = TableFactory(ddb, "gt")
    yield factory
    factory.cleanup()


def get(client, table, key):
    return client.get_item(TableName=table, Key={"pk": {"S": key}}, ConsistentRead=True).get("Item")


def with_gsi():
    return dict(
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])


def test_replica_is_a_real_table_and_writes_replicate_both_ways(ddb, west, tables):
    name = tables.create(**with_gsi())
    ddb.put_item(TableName=name, Item={"pk": {"S": "before"}, "g": {"S": "x"}})
    answer = ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])["TableDescription"]
    assert answer["TableStatus"] == "UPDATING"
    assert [(r["RegionName"], r["ReplicaStatus"]) for r in answer["Replicas"]] == [(OTHER, "CREATING")]

    described = ddb.describe_table(TableName=name)["Table"]
    assert described["GlobalTableVersion"] == "2019.11.21"
    assert [(r["RegionName"], r["ReplicaStatus"]) for r in described["Replicas"]] == [(OTHER, "ACTIVE")]
    assert described["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}

    replica = west.describe_table(TableName=name)["Table"]
    assert replica["TableArn"].split(":")[3] == OTHER
    assert replica["KeySchema"] == described["KeySchema"]
    assert [i["IndexName"] for i in replica["GlobalSecondaryIndexes"]] == ["by-g"]
    assert [(r["RegionName"], r["ReplicaStatus"]) for r in replica["Replicas"]] == [(REGION, "ACTIVE")]
    # The items the table had are copied into the new replica, indexes included.
    assert get(west, name, "before") == {"pk": {"S": "before"}, "g": {"S": "x"}}
    assert west.query(TableName=name, IndexName="by-g", KeyConditionExpression="g = :g",
                      ExpressionAttributeValues={":g": {"S": "x"}})["Count"] == 1

    ddb.put_item(TableName=name, Item={"pk": {"S": "east"}, "v": {"N": "1"}})
    assert poll_until(lambda: get(west, name, "east"), {"pk": {"S": "east"}, "v": {"N": "1"}}) == \
        {"pk": {"S": "east"}, "v": {"N": "1"}}
    west.update_item(TableName=name, Key={"pk": {"S": "east"}}, UpdateExpression="SET v = :v",
                     ExpressionAttributeValues={":v": {"N": "2"}})
    assert poll_until(lambda: get(ddb, name, "east"), {"pk": {"S": "east"}, "v": {"N": "2"}}) == \
        {"pk": {"S": "east"}, "v": {"N": "2"}}
    ddb.delete_item(TableName=name, Key={"pk": {"S": "before"}})
    assert poll_until(lambda: get(west, name, "before"), None) is None

    removed = ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])["TableDescription"]
    assert [(r["RegionName"], r["ReplicaStatus"]) for r in removed["Replicas"]] == [(OTHER, "DELETING")]
    wait_until_gone(west, name)
    assert "Replicas" not in ddb.describe_table(TableName=name)["Table"]


def test_three_regions_converge_on_the_last_write(ddb, west, third, tables):
    name = tables.create()
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": THIRD}}])
    regions = sorted(r["RegionName"] for r in west.describe_table(TableName=name)["Table"]["Replicas"])
    assert regions == sorted([REGION, THIRD])
    for round_ in range(5):
        for position, client in enumerate((ddb, west, third)):
            client.put_item(TableName=name, Item={"pk": {"S": "k"}, "v": {"N": str(round_ * 3 + position)}})
    final = {"pk": {"S": "k"}, "v": {"N": "14"}}
    for client in (ddb, west, third):
        assert poll_until(lambda: get(client, name, "k"), final) == final
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": THIRD}}])
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])


def test_replica_validations(ddb, west, tables):
    provisioned = tables.create(billing_mode="PROVISIONED")
    with expect_error("ValidationException", "Table write capacity should either be Pay-Per-Request or AutoScaled."):
        ddb.update_table(TableName=provisioned, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])

    # A provisioned table with write auto scaling may get replicas.
    ddb.update_table_replica_auto_scaling(TableName=provisioned, ProvisionedWriteCapacityAutoScalingUpdate={
        "MinimumUnits": 5, "MaximumUnits": 20,
        "ScalingPolicyUpdate": {"TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70.0}}})
    ddb.update_table(TableName=provisioned, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    assert west.describe_table(TableName=provisioned)["Table"]["BillingModeSummary"]["BillingMode"] == "PROVISIONED"
    # DeleteTable on the replica takes it out of the group.
    west.delete_table(TableName=provisioned)
    assert "Replicas" not in ddb.describe_table(TableName=provisioned)["Table"]

    name = tables.create()
    already = (f"Failed to create a the new replica of table with name: \u2018{name}\u2019 because one or more "
               "replicas already existed as tables.")
    west.create_table(TableName=name, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                      KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
    try:
        with expect_error("ValidationException", already):
            ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    finally:
        west.delete_table(TableName=name)
    with expect_error("ValidationException", "Cannot add or delete the local region through ReplicaUpdates. "
                      "Use CreateTable, DeleteTable, or UpdateTable as required."):
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": REGION}}])
    with expect_error("ValidationException", "Update global table operation failed because one or more replicas "
                      f"were not part of the global table. Please retry the request without these replicas: [{OTHER}]."):
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])
    with expect_error("ValidationException",
                      "Update table operation with more than one create or delete replica actions not allowed"):
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}},
                                                         {"Create": {"RegionName": THIRD}}])
    with expect_error("ValidationException", contains=["only operation"]):
        ddb.update_table(TableName=name, DeletionProtectionEnabled=True,
                         ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    with expect_error("ValidationException", already):
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    with expect_error("ValidationException", "There are no actions specified in the Replica Update Action of the request."):
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Update": {"RegionName": OTHER}}])
    # Deletion protection on the replica guards it against ReplicaUpdates Delete.
    west.update_table(TableName=name, DeletionProtectionEnabled=True)
    with expect_error("ValidationException", f"Cannot delete table {name} in region {OTHER} because it has deletion "
                      "protection enabled. Disable deletion protection first."):
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])
    west.update_table(TableName=name, DeletionProtectionEnabled=False)
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])

    # A stream of another view type is kept (replication does not depend on it).
    keys_only = tables.create(StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    ddb.update_table(TableName=keys_only, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    assert west.describe_table(TableName=keys_only)["Table"]["StreamSpecification"]["StreamViewType"] == "KEYS_ONLY"
    ddb.update_table(TableName=keys_only, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])


def test_provisioned_indexes_need_write_auto_scaling_too(ddb, west, tables):
    name = tables.create(billing_mode="PROVISIONED", AttributeDefinitions=[
        {"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"},
                                 "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}])
    scaling = {"MinimumUnits": 1, "MaximumUnits": 10,
               "ScalingPolicyUpdate": {"TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70.0}}}
    ddb.update_table_replica_auto_scaling(TableName=name, ProvisionedWriteCapacityAutoScalingUpdate=scaling)
    with expect_error("ValidationException", "GSI write capacity should either be Pay-Per-Request or AutoScaled."):
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    ddb.update_table_replica_auto_scaling(TableName=name, GlobalSecondaryIndexUpdates=[
        {"IndexName": "by-g", "ProvisionedWriteCapacityAutoScalingUpdate": scaling}])
    # A replica may read at its own capacity: the override shows on every replica's description.
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {
        "RegionName": OTHER, "ProvisionedThroughputOverride": {"ReadCapacityUnits": 7}}}])
    replica = ddb.describe_table(TableName=name)["Table"]["Replicas"][0]
    assert replica["ProvisionedThroughputOverride"] == {"ReadCapacityUnits": 7}
    assert west.describe_table(TableName=name)["Table"]["ProvisionedThroughput"]["ReadCapacityUnits"] == 7
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Update": {
        "RegionName": OTHER, "ProvisionedThroughputOverride": {"ReadCapacityUnits": 5}}}])
    assert "ProvisionedThroughputOverride" not in ddb.describe_table(TableName=name)["Table"]["Replicas"][0]
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])

    on_demand = tables.create()
    with expect_error("ValidationException", "One or more parameter values were invalid: Neither ReadCapacityUnits "
                      "nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"):
        ddb.update_table(TableName=on_demand, ReplicaUpdates=[{"Create": {
            "RegionName": OTHER, "ProvisionedThroughputOverride": {"ReadCapacityUnits": 7}}}])


def test_replicas_through_the_cli(aws_cli, ddb, tables):
    name = tables.create()
    created = aws_cli("update-table", "--table-name", name, "--replica-updates",
                      json.dumps([{"Create": {"RegionName": OTHER}}]))
    assert created.returncode == 0, created.stderr
    assert created.json["TableDescription"]["Replicas"][0]["RegionName"] == OTHER
    put = aws_cli("put-item", "--table-name", name, "--item", json.dumps({"pk": {"S": "cli"}}))
    assert put.returncode == 0, put.stderr

    def read_west():
        result = aws_cli("get-item", "--table-name", name, "--key", json.dumps({"pk": {"S": "cli"}}),
                         "--region", OTHER)
        return result.json.get("Item")
    assert poll_until(read_west, {"pk": {"S": "cli"}}) == {"pk": {"S": "cli"}}
    deleted = aws_cli("update-table", "--table-name", name, "--replica-updates",
                      json.dumps([{"Delete": {"RegionName": OTHER}}]))
    assert deleted.returncode == 0, deleted.stderr


def make_legacy_member(client, name):
    client.create_table(TableName=name, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})


def test_legacy_global_table_api(ddb, west, third):
    name = unique_name("legacy")
    make_legacy_member(ddb, name)
    make_legacy_member(west, name)
    try:
        with expect_error("TableNotFoundException"):
            ddb.create_global_table(GlobalTableName=name,
                                    ReplicationGroup=[{"RegionName": REGION}, {"RegionName": THIRD}])
        with expect_error("GlobalTableNotFoundException", "Global table not found"):
            ddb.describe_global_table(GlobalTableName=name)
        created = ddb.create_global_table(GlobalTableName=name,
                                          ReplicationGroup=[{"RegionName": REGION}, {"RegionName": OTHER}])
        description = created["GlobalTableDescription"]
        assert description["GlobalTableStatus"] == "ACTIVE"
        assert description["GlobalTableArn"].endswith(f":global-table/{name}")
        assert [r["RegionName"] for r in description["ReplicationGroup"]] == [REGION, OTHER]
        with expect_error("GlobalTableAlreadyExistsException"):
            ddb.create_global_table(GlobalTableName=name, ReplicationGroup=[{"RegionName": REGION}])
        assert ddb.describe_global_table(GlobalTableName=name)["GlobalTableDescription"]["GlobalTableName"] == name
        listed = ddb.list_global_tables(RegionName=OTHER)["GlobalTables"]
        assert {"GlobalTableName": name, "ReplicationGroup": [{"RegionName": REGION}, {"RegionName": OTHER}]} in listed

        ddb.put_item(TableName=name, Item={"pk": {"S": "legacy"}})
        assert poll_until(lambda: get(west, name, "legacy"), {"pk": {"S": "legacy"}}) == {"pk": {"S": "legacy"}}

        settings = ddb.describe_global_table_settings(GlobalTableName=name)["ReplicaSettings"]
        assert [(s["RegionName"], s["ReplicaProvisionedWriteCapacityUnits"]) for s in settings] == [(REGION, 5), (OTHER, 5)]
        updated = ddb.update_global_table_settings(
            GlobalTableName=name, GlobalTableProvisionedWriteCapacityUnits=7,
            ReplicaSettingsUpdate=[{"RegionName": OTHER, "ReplicaProvisionedReadCapacityUnits": 9}])["ReplicaSettings"]
        assert [(s["RegionName"], s["ReplicaProvisionedReadCapacityUnits"], s["ReplicaProvisionedWriteCapacityUnits"])
                for s in updated] == [(REGION, 5, 7), (OTHER, 9, 7)]
        with expect_error("ReplicaNotFoundException"):
            ddb.update_global_table_settings(GlobalTableName=name, ReplicaSettingsUpdate=[
                {"RegionName": THIRD, "ReplicaProvisionedReadCapacityUnits": 9}])

        with expect_error("ReplicaAlreadyExistsException"):
            ddb.update_global_table(GlobalTableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
        shrunk = ddb.update_global_table(GlobalTableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])
        assert [r["RegionName"] for r in shrunk["GlobalTableDescription"]["ReplicationGroup"]] == [REGION]
        with expect_error("ReplicaNotFoundException"):
            ddb.update_global_table(GlobalTableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])
    finally:
        ddb.delete_table(TableName=name)
        west.delete_table(TableName=name)


def test_replica_auto_scaling_is_stored(ddb, tables):
    name = tables.create(billing_mode="PROVISIONED")
    before = ddb.describe_table_replica_auto_scaling(TableName=name)["TableAutoScalingDescription"]
    assert before["Replicas"][0]["RegionName"] == REGION
    assert "ReplicaProvisionedWriteCapacityAutoScalingSettings" not in before["Replicas"][0]
    update = {"MinimumUnits": 5, "MaximumUnits": 50,
              "ScalingPolicyUpdate": {"TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70.0}}}
    answer = ddb.update_table_replica_auto_scaling(TableName=name, ProvisionedWriteCapacityAutoScalingUpdate=update)
    write = answer["TableAutoScalingDescription"]["Replicas"][0]["ReplicaProvisionedWriteCapacityAutoScalingSettings"]
    assert (write["MinimumUnits"], write["MaximumUnits"]) == (5, 50)
    assert write["ScalingPolicies"][0]["TargetTrackingScalingPolicyConfiguration"]["TargetValue"] == 70.0
    described = ddb.describe_table_replica_auto_scaling(TableName=name)["TableAutoScalingDescription"]
    assert described["Replicas"][0]["ReplicaProvisionedWriteCapacityAutoScalingSettings"] == write
    with expect_error("ValidationException", contains=["MinimumUnits"]):
        ddb.update_table_replica_auto_scaling(TableName=name, ProvisionedWriteCapacityAutoScalingUpdate={
            "MinimumUnits": 60})
