"""ValidationException texts as the service answered them in measurements of the service,
2026-10 (ack-api-quirks): the UpdateTable "only operation" family under its prefix, CreateTable's
duplicated attribute definition, warm throughput decreases, point-in-time recovery and restore
request shapes (checked before the source, its window and the target), malformed backup, export
and import ARNs, resource policy documents and ListBackups' time range."""

from __future__ import annotations

import json

import pytest

from ddb_helpers import REGION, expect_error, unique_name

INVALID = "One or more parameter values were invalid: "
ACCOUNT_ARN = f"arn:aws:dynamodb:{REGION}:000000000000"


def test_duplicated_attribute_definition(ddb):
    with expect_error("ValidationException", "Attribute Name is duplicated: pk"):
        ddb.create_table(TableName=unique_name("dup"), BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])


def test_only_operation_family_carries_the_prefix(ddb, make_table):
    table = make_table(("pk", "S"))
    with expect_error("ValidationException", INVALID + "DeletionProtection modification must be the only operation "
                      "in the request"):
        ddb.update_table(TableName=table, DeletionProtectionEnabled=True, GlobalSecondaryIndexUpdates=[
            {"Delete": {"IndexName": "nothing"}}])


def test_warm_throughput_decrease(ddb, make_table):
    table = make_table(("pk", "S"), WarmThroughput={"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 5000})
    for member in ("ReadUnitsPerSecond", "WriteUnitsPerSecond"):
        with expect_error("ValidationException", INVALID + f"Requested {member} for WarmThroughput for table is "
                          "lower than current WarmThroughput, decreasing WarmThroughput is not supported"):
            ddb.update_table(TableName=table, WarmThroughput={member: 4000})


def test_recovery_period_when_disabling(ddb, make_table):
    table = make_table(("pk", "S"))
    for days in (7, 35):
        with expect_error("ValidationException", "Invalid Request: Cannot specify RecoveryPeriodInDays when "
                          "disabling point-in-time recovery."):
            ddb.update_continuous_backups(TableName=table, PointInTimeRecoverySpecification={
                "PointInTimeRecoveryEnabled": False, "RecoveryPeriodInDays": days})


@pytest.mark.parametrize("request_members, message", [
    (dict(SourceTableName="S", SourceTableArn=f"{ACCOUNT_ARN}:table/S", UseLatestRestorableTime=True),
     "Must provide exactly one of: sourceTableArn, sourceTableName"),
    (dict(UseLatestRestorableTime=True),
     "The parameter 'TableName' is required but was not present in the request"),
    (dict(SourceTableName="S", UseLatestRestorableTime=True, RestoreDateTime=1_800_000_000),
     "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore "
     "request. Please specify either RestoreDateTime time or UseLatestRestorableTime"),
    (dict(SourceTableName="S"),
     "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both"),
    (dict(SourceTableName="S", UseLatestRestorableTime=False),
     "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both"),
], ids=["both-sources", "no-source", "both-times", "no-time", "latest-false"])
def test_restore_to_point_in_time_request_shapes(ddb, make_table, request_members, message):
    # The source exists without recovery and the target is taken: the request's shape is checked first.
    source = make_table(("pk", "S"))
    members = {key: source if value == "S" else value.replace("table/S", f"table/{source}")
               if isinstance(value, str) else value for key, value in request_members.items()}
    with expect_error("ValidationException", message):
        ddb.restore_table_to_point_in_time(TargetTableName=source, **members)


def test_restore_checks_recovery_before_the_target(ddb, make_table):
    source = make_table(("pk", "S"))
    with expect_error("PointInTimeRecoveryUnavailableException",
                      f"Point in time recovery is not enabled for table '{source}'"):
        ddb.restore_table_to_point_in_time(SourceTableName=source, TargetTableName=source,
                                           UseLatestRestorableTime=True)


def test_malformed_backup_export_and_import_arns(ddb, make_table):
    table_arn = ddb.describe_table(TableName=make_table(("pk", "S")))["Table"]["TableArn"]
    with expect_error("ValidationException", "Invalid Backup ARN"):
        ddb.describe_backup(BackupArn=table_arn)
    with expect_error("ValidationException", "Invalid Backup ARN"):
        ddb.delete_backup(BackupArn=table_arn)
    with expect_error("ValidationException", "Invalid Backup ARN"):
        ddb.restore_table_from_backup(TargetTableName=unique_name("r"), BackupArn=table_arn)
    with expect_error("ValidationException", "Invalid Export ARN"):
        ddb.describe_export(ExportArn=table_arn)
    with expect_error("ValidationException", "Invalid Import ARN"):
        ddb.describe_import(ImportArn=table_arn)


@pytest.mark.parametrize("document, detail", [
    ("", "This policy contains invalid Json"),
    ("[]", "This policy contains invalid Json"),
    ("null", "This text appears not to be a policy"),
    (json.dumps({"Version": "2012-10-17", "Statement": []}), "Could not parse the policy: Statement is empty!"),
])
def test_policy_documents(ddb, make_table, document, detail):
    arn = ddb.describe_table(TableName=make_table(("pk", "S")))["Table"]["TableArn"]
    with expect_error("ValidationException", INVALID + "Invalid policy document: " + detail):
        ddb.put_resource_policy(ResourceArn=arn, Policy=document)


def test_policy_size(ddb, make_table):
    arn = ddb.describe_table(TableName=make_table(("pk", "S")))["Table"]["TableArn"]
    large = json.dumps({"Version": "2012-10-17", "Statement": [{}], "Padding": " " * (20 * 1024)})
    with expect_error("ValidationException", INVALID + "Maximum policy size of 20480 bytes exceeded"):
        ddb.put_resource_policy(ResourceArn=arn, Policy=large)


def test_list_backups_time_range(ddb):
    with expect_error("ValidationException", INVALID + "Time range lower bound must be less than or equal to upper "
                      "bound"):
        ddb.list_backups(TimeRangeLowerBound=1_800_000_100, TimeRangeUpperBound=1_800_000_000)


def test_duplicate_non_key_attribute(ddb):
    with expect_error("ValidationException", INVALID + "Duplicate element in NonKeyAttributes: x"):
        ddb.create_table(TableName=unique_name("nka"), BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "g")],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         GlobalSecondaryIndexes=[{
                             "IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x", "y", "x"]}}])


@pytest.mark.parametrize("sse, detail", [
    ({"Enabled": False, "SSEType": "KMS"}, "SSEType can not be specified if Enabled is false"),
    ({"Enabled": False, "KMSMasterKeyId": "alias/mine"}, "KMSMasterKeyId can not be specified if Enabled is false"),
    ({"Enabled": True, "KMSMasterKeyId": "alias/mine"}, "SSEType KMS is required if KMSMasterKeyId is specified"),
    ({"Enabled": True, "SSEType": "AES256"}, "SSEType AES256 is not supported"),
])
def test_sse_specification_rules(ddb, make_table, sse, detail):
    name = unique_name("sse")
    with expect_error("ValidationException", INVALID + detail):
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", SSESpecification=sse,
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    table = make_table(("pk", "S"))
    with expect_error("ValidationException", INVALID + detail):
        ddb.update_table(TableName=table, SSESpecification=sse)


def test_on_demand_maxima_outside_the_range(ddb, make_table):
    table = make_table(("pk", "S"))
    for given, member in [({"MaxReadRequestUnits": 0, "MaxWriteRequestUnits": 0}, "MaxReadRequestUnits"),
                          ({"MaxReadRequestUnits": 5, "MaxWriteRequestUnits": -2}, "MaxWriteRequestUnits")]:
        message = INVALID + f"Requested {member} for OnDemandThroughput for table is outside of valid range"
        with expect_error("ValidationException", message):
            ddb.update_table(TableName=table, OnDemandThroughput=given)
        with expect_error("ValidationException", message):
            ddb.create_table(TableName=unique_name("odt"), BillingMode="PAY_PER_REQUEST", OnDemandThroughput=given,
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    # -1 removes a maximum on UpdateTable.
    ddb.update_table(TableName=table, OnDemandThroughput={"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": -1})


def test_restore_on_demand_override_outside_the_range(ddb, make_table):
    table = make_table(("pk", "S"))
    backup = ddb.create_backup(TableName=table, BackupName="odt")["BackupDetails"]["BackupArn"]
    try:
        with expect_error("ValidationException",
                          "Invalid Request: Requested MaxReadRequestUnits for OnDemandThroughput is outside of valid range"):
            ddb.restore_table_from_backup(TargetTableName=unique_name("r"), BackupArn=backup,
                                          OnDemandThroughputOverride={"MaxReadRequestUnits": 0,
                                                                      "MaxWriteRequestUnits": 0})
    finally:
        ddb.delete_backup(BackupArn=backup)


def test_warm_throughput_below_the_baseline_is_a_decrease(ddb, make_table):
    # A new table's warm throughput is the baseline (12,000 / 4,000): 0 is below it.
    table = make_table(("pk", "S"))
    with expect_error("ValidationException", INVALID + "Requested ReadUnitsPerSecond for WarmThroughput for table is "
                      "lower than current WarmThroughput, decreasing WarmThroughput is not supported"):
        ddb.update_table(TableName=table, WarmThroughput={"ReadUnitsPerSecond": 0, "WriteUnitsPerSecond": 0})
    ddb.update_table(TableName=table, WarmThroughput={"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4500})


def test_an_unknown_table_class_is_refused_in_the_service_words(ddb, make_table):
    invalid = ("Invalid table-class parameter provided. Please try again with a valid table-class value: "
               "[STANDARD, STANDARD_INFREQUENT_ACCESS].")
    name = unique_name("class")
    with expect_error("ValidationException", invalid):
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", TableClass="GLACIER",
                         KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}])
    table = make_table(("pk", "S"))
    with expect_error("ValidationException", invalid):
        ddb.update_table(TableName=table, TableClass="standard")
    assert "TableClassSummary" not in ddb.describe_table(TableName=table)["Table"]
