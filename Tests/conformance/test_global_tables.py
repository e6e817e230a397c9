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


def disassociate(region):
    return [{"Disassociate": {"RegionName": region, "DisassociationMode": "WAIT_FOR_REPLICATION"}}]


def replicated_barrier(source, target, tables):
    """A second global table: replication is one queue, so once a marker written to it in
    `source` has reached `target`, every change made in `source` before it has been delivered
    (or was never sent)."""
    name = tables.create()
    source.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])

    def wait(client_from, client_to, marker):
        client_from.put_item(TableName=name, Item={"pk": {"S": marker}})
        assert poll_until(lambda: get(client_to, name, marker), {"pk": {"S": marker}}) == {"pk": {"S": marker}}
    return name, wait


def test_disassociate_leaves_two_independent_tables(ddb, west, tables):
    invalid = "One or more parameter values were invalid: "
    name = tables.create(**with_gsi())
    ddb.put_item(TableName=name, Item={"pk": {"S": "before"}, "g": {"S": "x"}})
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    barrier, wait = replicated_barrier(ddb, west, tables)
    try:
        for client in (ddb, west):
            assert client.describe_table(TableName=name)["Table"]["DisassociationProtectionEnabled"] is True
        with expect_error("ValidationException", f"Cannot disassociate the replica of table {name} in region {REGION} "
                          "because it has disassociation protection enabled. Disable disassociation protection first."):
            ddb.update_table(TableName=name, ReplicaUpdates=disassociate(REGION))
        with expect_error("ValidationException", invalid + "DisassociationProtectionEnabled must be the only operation in "
                          "the request"):
            ddb.update_table(TableName=name, DisassociationProtectionEnabled=False, DeletionProtectionEnabled=False)
        answer = ddb.update_table(TableName=name, DisassociationProtectionEnabled=False)["TableDescription"]
        assert answer["DisassociationProtectionEnabled"] is False and answer["TableStatus"] == "ACTIVE"
        assert west.describe_table(TableName=name)["Table"]["DisassociationProtectionEnabled"] is True

        only = invalid + "Disassociate must be the only replica update and the only operation in the request"
        with expect_error("ValidationException", only):
            ddb.update_table(TableName=name, ReplicaUpdates=disassociate(REGION) + [{"Create": {"RegionName": THIRD}}])
        with expect_error("ValidationException", only):
            ddb.update_table(TableName=name, ReplicaUpdates=disassociate(REGION), TableClass="STANDARD")
        with expect_error("ValidationException", invalid + f"Disassociate can only disassociate the local replica: "
                          f"RegionName {OTHER} is not this request's region {REGION}"):
            ddb.update_table(TableName=name, ReplicaUpdates=disassociate(OTHER))
        with expect_error("ValidationException", "1 validation error detected: Value 'RIGHT_NOW' at "
                          "'replicaUpdates.1.member.disassociate.disassociationMode' failed to satisfy constraint: "
                          "Member must satisfy enum value set: [WAIT_FOR_REPLICATION]"):
            ddb_unchecked(ddb).update_table(TableName=name, ReplicaUpdates=[
                {"Disassociate": {"RegionName": REGION, "DisassociationMode": "RIGHT_NOW"}}])

        # Written just before and not waited for: WAIT_FOR_REPLICATION delivers it first.
        ddb.put_item(TableName=name, Item={"pk": {"S": "pending"}, "g": {"S": "x"}})
        answer = ddb.update_table(TableName=name, ReplicaUpdates=disassociate(REGION))["TableDescription"]
        assert answer["TableStatus"] == "UPDATING"
        assert [r["RegionName"] for r in answer["Replicas"]] == [OTHER]
        for client, region in ((ddb, REGION), (west, OTHER)):
            table = client.describe_table(TableName=name)["Table"]
            assert table["TableStatus"] == "ACTIVE" and "Replicas" not in table and "GlobalTableVersion" not in table
            assert "DisassociationProtectionEnabled" not in table
            assert table["TableArn"] == f"arn:aws:dynamodb:{region}:000000000000:table/{name}"
            assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == ["by-g"]
            assert table["StreamSpecification"]["StreamEnabled"] is True
            assert get(client, name, "before") is not None and get(client, name, "pending") is not None

        # Writes stay in their region, both ways.
        ddb.put_item(TableName=name, Item={"pk": {"S": "east-only"}})
        wait(ddb, west, "after-east")
        assert get(west, name, "east-only") is None
        west.put_item(TableName=name, Item={"pk": {"S": "west-only"}})
        west.delete_item(TableName=name, Key={"pk": {"S": "before"}})
        wait(west, ddb, "after-west")
        assert get(ddb, name, "west-only") is None and get(ddb, name, "before") is not None
        assert west.query(TableName=name, IndexName="by-g", KeyConditionExpression="g = :g",
                          ExpressionAttributeValues={":g": {"S": "x"}})["Count"] == 1
        with expect_error("ValidationException", invalid + f"Table {name} is not a replica of a global table of version "
                          "2019.11.21"):
            west.update_table(TableName=name, ReplicaUpdates=disassociate(OTHER))
    finally:
        ddb.update_table(TableName=barrier, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])
        if name in west.list_tables()["TableNames"]:
            west.delete_table(TableName=name)


def ddb_unchecked(client):
    """The same endpoint and region without botocore's parameter validation."""
    return boto3.session.Session().client(
        "dynamodb", endpoint_url=client.meta.endpoint_url, region_name=client.meta.region_name,
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
        config=Config(retries={"max_attempts": 1, "mode": "standard"}, parameter_validation=False))


def test_disassociating_one_of_three_replicas_through_the_cli(aws_cli, ddb, west, third, tables):
    name = tables.create()
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": THIRD}}])
    try:
        protection = aws_cli("update-table", "--table-name", name, "--no-disassociation-protection-enabled",
                             "--region", OTHER)
        assert protection.returncode == 0, protection.stderr
        assert protection.json["TableDescription"]["DisassociationProtectionEnabled"] is False
        done = aws_cli("update-table", "--table-name", name, "--replica-updates", json.dumps(disassociate(OTHER)),
                       "--region", OTHER)
        assert done.returncode == 0, done.stderr
        assert sorted(r["RegionName"] for r in done.json["TableDescription"]["Replicas"]) == sorted([REGION, THIRD])
        described = aws_cli("describe-table", "--table-name", name, "--region", OTHER)
        assert "Replicas" not in described.json["Table"]
        # The other two go on as a global table of two.
        assert [r["RegionName"] for r in ddb.describe_table(TableName=name)["Table"]["Replicas"]] == [THIRD]
        assert [r["RegionName"] for r in third.describe_table(TableName=name)["Table"]["Replicas"]] == [REGION]
        west.put_item(TableName=name, Item={"pk": {"S": "west"}})
        ddb.put_item(TableName=name, Item={"pk": {"S": "east"}})
        assert poll_until(lambda: get(third, name, "east"), {"pk": {"S": "east"}}) == {"pk": {"S": "east"}}
        # The west write was made before the east one: had it been sent, it would have arrived first.
        assert get(third, name, "west") is None and get(ddb, name, "west") is None and get(west, name, "east") is None
        refused = aws_cli("update-table", "--table-name", name, "--replica-updates", json.dumps(disassociate(REGION)))
        assert refused.returncode != 0 and "disassociation protection enabled" in refused.stderr
    finally:
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": THIRD}}])
        west.delete_table(TableName=name)


def test_a_new_replica_gets_the_vector_indexes_and_indexes_replicated_writes(ddb, west, tables):
    """The developer guide's 'Using vector indexes with global tables': a replica added to a table
    with a vector index reports the same index (name, dimensions, distance function, projection),
    and items written in any region are indexed in every region, searched locally."""
    spec = {"IndexName": "by-emb", "VectorAttribute": {"AttributeName": "emb"},
            "Projection": {"ProjectionType": "KEYS_ONLY"}, "Dimensions": 2, "DistanceFunction": "EUCLIDEAN"}
    name = tables.create(VectorIndexes=[spec])

    def emb(x, y):
        return {"L": [{"N": str(x)}, {"N": str(y)}]}

    ddb.put_item(TableName=name, Item={"pk": {"S": "before"}, "emb": emb(0, 0)})
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    (source,) = ddb.describe_table(TableName=name)["Table"]["VectorIndexes"]
    (replica,) = west.describe_table(TableName=name)["Table"]["VectorIndexes"]
    same = ("IndexName", "VectorAttribute", "Dimensions", "DistanceFunction", "Projection")
    assert {k: replica[k] for k in same} == {k: source[k] for k in same}
    assert replica["IndexArn"].split(":")[3] == OTHER
    assert (replica["IndexStatus"], replica["ItemCount"]) == ("ACTIVE", 1)

    def nearest(client, x, y):
        found = client.search_vectors(TableName=name, IndexName="by-emb", TopK=3,
                                      SearchVector=[{"N": str(x)}, {"N": str(y)}])
        return [result["Item"]["pk"]["S"] for result in found["SearchResults"]]

    assert nearest(west, 1, 1) == ["before"]
    west.put_item(TableName=name, Item={"pk": {"S": "west"}, "emb": emb(5, 5)})
    ddb.put_item(TableName=name, Item={"pk": {"S": "east"}, "emb": emb(2, 2)})
    assert poll_until(lambda: nearest(ddb, 5, 5), ["west", "east", "before"]) == ["west", "east", "before"]
    assert poll_until(lambda: nearest(west, 5, 5), ["west", "east", "before"]) == ["west", "east", "before"]
    west.delete_item(TableName=name, Key={"pk": {"S": "west"}})
    assert poll_until(lambda: nearest(ddb, 5, 5), ["east", "before"]) == ["east", "before"]
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])
    wait_until_gone(west, name)


def test_vector_index_changes_on_a_global_table_reach_every_replica(ddb, west, tables):
    """The developer guide's 'Using vector indexes with global tables': the vector index is not
    created separately in each Region, and a replica's index backfills on its own. As for a
    global index (whose definition global tables keep synchronized), VectorIndexUpdates made in
    one replica's Region therefore change every replica: a Create made in the source Region
    shows in the replica, a Delete made in the replica leaves the source without the index."""
    spec = {"IndexName": "by-emb", "VectorAttribute": {"AttributeName": "emb"},
            "Projection": {"ProjectionType": "KEYS_ONLY"}, "Dimensions": 2, "DistanceFunction": "EUCLIDEAN"}
    name = tables.create()
    ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": OTHER}}])
    try:
        ddb.update_table(TableName=name, VectorIndexUpdates=[{"Create": spec}])
        (source,) = ddb.describe_table(TableName=name)["Table"]["VectorIndexes"]
        (replica,) = west.describe_table(TableName=name)["Table"]["VectorIndexes"]
        same = ("IndexName", "VectorAttribute", "Dimensions", "DistanceFunction", "Projection")
        assert {k: replica[k] for k in same} == {k: spec[k] for k in same} == {k: source[k] for k in same}
        assert replica["IndexArn"].split(":")[3] == OTHER and source["IndexArn"].split(":")[3] == REGION
        # Both tables were empty: each index is ACTIVE at once.
        assert (replica["IndexStatus"], replica["ItemCount"], source["IndexStatus"]) == ("ACTIVE", 0, "ACTIVE")
        west.put_item(TableName=name, Item={"pk": {"S": "w"}, "emb": {"L": [{"N": "1"}, {"N": "2"}]}})
        found = west.search_vectors(TableName=name, IndexName="by-emb", TopK=1, SearchVector=[{"N": "1"}, {"N": "2"}])
        assert [result["Item"]["pk"]["S"] for result in found["SearchResults"]] == ["w"]
        # Refused alike in every Region once the index exists.
        with expect_error("ValidationException", "Attempting to create an index which already exists"):
            west.update_table(TableName=name, VectorIndexUpdates=[{"Create": spec}])
        west.update_table(TableName=name, VectorIndexUpdates=[{"Delete": {"IndexName": "by-emb"}}])
        assert "VectorIndexes" not in west.describe_table(TableName=name)["Table"]
        assert "VectorIndexes" not in ddb.describe_table(TableName=name)["Table"]
        with expect_error("ValidationException", "The table does not have the specified index: by-emb"):
            ddb.search_vectors(TableName=name, IndexName="by-emb", TopK=1, SearchVector=[{"N": "1"}, {"N": "2"}])
    finally:
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": OTHER}}])
        wait_until_gone(west, name)
