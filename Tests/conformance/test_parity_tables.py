"""CreateTable / tagging behaviour measured against real DynamoDB by the
dynamodb-conformance suite (tests/tier1/createTable, tests/tier2/tags)."""

from __future__ import annotations

import pytest

from ddb_helpers import expect_error, unique_name

INVALID = "One or more parameter values were invalid: "


def _index_table(projection: dict, *, local: bool) -> dict:
    if local:
        return dict(
            AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "sk", "l")],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            LocalSecondaryIndexes=[{
                "IndexName": "lsi1",
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}],
                "Projection": projection,
            }],
        )
    return dict(
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "g")],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "gsi1",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": projection,
        }],
    )


@pytest.mark.parametrize("local", [False, True], ids=["gsi", "lsi"])
def test_include_projection_needs_non_key_attributes(ddb, local):
    with expect_error("ValidationException",
                      INVALID + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified"):
        ddb.create_table(TableName=unique_name("inc"), BillingMode="PAY_PER_REQUEST",
                         **_index_table({"ProjectionType": "INCLUDE"}, local=local))


def test_keys_only_projection_refuses_non_key_attributes(ddb):
    with expect_error("ValidationException",
                      INVALID + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified"):
        ddb.create_table(TableName=unique_name("ko"), BillingMode="PAY_PER_REQUEST",
                         **_index_table({"ProjectionType": "KEYS_ONLY", "NonKeyAttributes": ["x"]}, local=False))


def test_index_added_by_update_table_needs_non_key_attributes_for_include(ddb, make_table):
    table = make_table(("pk", "S"))
    with expect_error("ValidationException",
                      INVALID + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified"):
        ddb.update_table(
            TableName=table,
            AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
            GlobalSecondaryIndexUpdates=[{"Create": {
                "IndexName": "gsi1",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "INCLUDE"},
            }}],
        )


@pytest.mark.parametrize("operation", ["tag", "untag", "list"])
def test_a_resource_that_is_no_arn_is_a_validation_error(ddb, operation):
    calls = {
        "tag": lambda: ddb.tag_resource(ResourceArn="not-a-valid-arn", Tags=[{"Key": "env", "Value": "test"}]),
        "untag": lambda: ddb.untag_resource(ResourceArn="not-a-valid-arn", TagKeys=["env"]),
        "list": lambda: ddb.list_tags_of_resource(ResourceArn="not-a-valid-arn"),
    }
    # The service's answer in measurements of the service, 2026-10 (ack-api-quirks), which
    # replaced the suite's older "Invalid TableArn" wording.
    with expect_error("ValidationException", INVALID + "ARNs must start with 'arn:': not-a-valid-arn"):
        calls[operation]()


@pytest.mark.parametrize("operation", ["tag", "list"])
def test_an_index_arn_is_not_a_taggable_resource(ddb, hash_table, operation):
    arn = ddb.describe_table(TableName=hash_table)["Table"]["TableArn"] + "/index/gsi"
    with expect_error("ValidationException",
                      INVALID + f"Invalid resource arn provided, only table or stream is accepted. Provided resource "
                      f"arn: {arn}"):
        if operation == "tag":
            ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}])
        else:
            ddb.list_tags_of_resource(ResourceArn=arn)


def test_a_backup_or_another_regions_arn_is_not_taggable(ddb, hash_table):
    table_arn = ddb.describe_table(TableName=hash_table)["Table"]["TableArn"]
    backup = table_arn + "/backup/01791525400213-63b4d36a"
    with expect_error("ValidationException", INVALID + f"Provided Arn is not a DynamoDB resource arn: {backup}"):
        ddb.list_tags_of_resource(ResourceArn=backup)
    elsewhere = table_arn.replace(f":{table_arn.split(':')[3]}:", ":eu-north-1:")
    with expect_error("ValidationException", f"Invalid TableArn: Invalid ResourceArn provided as input {elsewhere}"):
        ddb.list_tags_of_resource(ResourceArn=elsewhere)


def test_a_well_formed_arn_of_a_missing_table_is_not_found(ddb, hash_table):
    arn = ddb.describe_table(TableName=hash_table)["Table"]["TableArn"] + "-gone"
    with expect_error("ResourceNotFoundException", f"Requested resource not found: ResourceArn: {arn} not found"):
        ddb.list_tags_of_resource(ResourceArn=arn)


def test_restating_provisioned_mode_with_the_same_throughput_changes_nothing(ddb, make_table):
    table = make_table(("pk", "S"), billing_mode="PROVISIONED")
    current = ddb.describe_table(TableName=table)["Table"]["ProvisionedThroughput"]
    read, write = current["ReadCapacityUnits"], current["WriteCapacityUnits"]
    with expect_error("ValidationException", contains=["The provisioned throughput for the table will not change."]):
        ddb.update_table(TableName=table, BillingMode="PROVISIONED",
                         ProvisionedThroughput={"ReadCapacityUnits": read, "WriteCapacityUnits": write})
    # Restating the mode with new figures is an ordinary throughput change.
    ddb.update_table(TableName=table, BillingMode="PROVISIONED",
                     ProvisionedThroughput={"ReadCapacityUnits": read + 1, "WriteCapacityUnits": write})
    assert ddb.describe_table(TableName=table)["Table"]["ProvisionedThroughput"]["ReadCapacityUnits"] == read + 1


def test_a_disabled_stream_with_a_view_type_is_refused_at_create_table(ddb):
    with expect_error("ValidationException",
                      INVALID + "Table is being created with a stream disabled, UpdateViewType should not be specified"):
        ddb.create_table(TableName=unique_name("stream"), BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         StreamSpecification={"StreamEnabled": False, "StreamViewType": "NEW_AND_OLD_IMAGES"})


@pytest.mark.parametrize("billing", ["PAY_PER_REQUEST", "PROVISIONED"])
def test_delete_table_returns_the_reduced_description(ddb, make_table, billing):
    # DynamoDB's DeleteTable answer (captures of 2016 and 2022): no KeySchema,
    # AttributeDefinitions, CreationDateTime or indexes, status DELETING.
    table = make_table(("pk", "S"), ("sk", "S"), billing_mode=billing,
                       AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "x")],
                       GlobalSecondaryIndexes=[{"IndexName": "by-x", "Projection": {"ProjectionType": "ALL"},
                                                "KeySchema": [{"AttributeName": "x", "KeyType": "HASH"}],
                                                **({} if billing == "PAY_PER_REQUEST" else
                                                   {"ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                                                              "WriteCapacityUnits": 1}})}])
    described = ddb.describe_table(TableName=table)["Table"]
    deleted = ddb.delete_table(TableName=table)["TableDescription"]
    assert deleted["TableName"] == table
    assert deleted["TableStatus"] == "DELETING"
    assert deleted["TableArn"] == described["TableArn"]
    assert deleted["TableId"] == described["TableId"]
    assert (deleted["ItemCount"], deleted["TableSizeBytes"]) == (0, 0)
    assert deleted["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 0
    if billing == "PAY_PER_REQUEST":
        assert deleted["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
        assert "LastUpdateToPayPerRequestDateTime" in deleted["BillingModeSummary"]
    else:
        assert deleted["ProvisionedThroughput"]["ReadCapacityUnits"] == 5
    for absent in ("KeySchema", "AttributeDefinitions", "CreationDateTime", "GlobalSecondaryIndexes",
                   "LocalSecondaryIndexes"):
        assert absent not in deleted
