"""On-demand backups and point-in-time recovery through boto3 and the AWS CLI."""

from __future__ import annotations

import json
import urllib.request

import boto3
import pytest
from botocore.config import Config

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import TableFactory, expect_error, unique_name, wait_until_active


@pytest.fixture(scope="module")
def clock_server():
    """A server of this module's own: its clock is moved, which the shared server's tests must not see."""
    server = ServerProcess(_resolve_binary(), ["--in-memory"])
    url = server.start()
    client = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1", aws_access_key_id="k",
                          aws_secret_access_key="s", config=Config(retries={"max_attempts": 1, "mode": "standard"}))
    try:
        yield client, url
    finally:
        server.stop()


def advance_clock(endpoint_url: str, seconds: float) -> float:
    request = urllib.request.Request(
        f"{endpoint_url}/_localdynamo/clock",
        data=json.dumps({"advanceSeconds": seconds}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())["epochSeconds"]


def server_now(endpoint_url: str) -> float:
    with urllib.request.urlopen(f"{endpoint_url}/_localdynamo/clock") as answer:
        return json.loads(answer.read())["epochSeconds"]


def indexed_table(ddb, make_table) -> str:
    return make_table(
        ("pk", "S"),
        ("sk", "N"),
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
            {"AttributeName": "g", "AttributeType": "S"},
        ],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "by-g",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        ],
        LocalSecondaryIndexes=[
            {
                "IndexName": "by-pk-g",
                "KeySchema": [
                    {"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "g", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            }
        ],
    )


def scan_all(ddb, name: str, **extra) -> list[dict]:
    items, start = [], None
    while True:
        page = ddb.scan(TableName=name, **({"ExclusiveStartKey": start} if start else {}), **extra)
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))


def test_backup_restores_into_new_table_with_indexes_and_items(ddb, make_table):
    name = indexed_table(ddb, make_table)
    for number in range(25):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"p{number % 4}"}, "sk": {"N": str(number)},
                                           "g": {"S": f"g{number % 3}"}, "v": {"L": [{"N": "1"}, {"BOOL": True}]}})
    created = ddb.create_backup(TableName=name, BackupName="nightly-1")["BackupDetails"]
    assert created["BackupStatus"] == "AVAILABLE" and created["BackupType"] == "USER"
    assert created["BackupArn"].startswith(f"arn:aws:dynamodb:us-east-1:000000000000:table/{name}/backup/")
    # Writes after the backup are not in it.
    ddb.put_item(TableName=name, Item={"pk": {"S": "late"}, "sk": {"N": "0"}, "g": {"S": "x"}})

    described = ddb.describe_backup(BackupArn=created["BackupArn"])["BackupDescription"]
    assert described["SourceTableDetails"]["TableName"] == name
    assert described["SourceTableDetails"]["ItemCount"] == 25
    assert [i["IndexName"] for i in described["SourceTableFeatureDetails"]["GlobalSecondaryIndexes"]] == ["by-g"]

    target = unique_name("restored")
    restored = ddb.restore_table_from_backup(TargetTableName=target, BackupArn=created["BackupArn"])
    try:
        summary = restored["TableDescription"]["RestoreSummary"]
        assert summary["SourceBackupArn"] == created["BackupArn"]
        wait_until_active(ddb, target)
        table = ddb.describe_table(TableName=target)["Table"]
        assert table["ItemCount"] == 25
        assert table["RestoreSummary"]["RestoreInProgress"] is False
        assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == ["by-g"]
        assert [i["IndexName"] for i in table["LocalSecondaryIndexes"]] == ["by-pk-g"]
        original = [item for item in scan_all(ddb, name) if item["pk"]["S"] != "late"]
        assert scan_all(ddb, target) == original
        by_g = ddb.query(TableName=target, IndexName="by-g", KeyConditionExpression="g = :g",
                         ExpressionAttributeValues={":g": {"S": "g1"}})
        assert by_g["Count"] == len([n for n in range(25) if n % 3 == 1])

        with expect_error("TableAlreadyExistsException", f"Table already exists: {target}"):
            ddb.restore_table_from_backup(TargetTableName=target, BackupArn=created["BackupArn"])
    finally:
        ddb.delete_table(TableName=target)

    listed = ddb.list_backups(TableName=name)["BackupSummaries"]
    assert [b["BackupArn"] for b in listed] == [created["BackupArn"]]
    deleted = ddb.delete_backup(BackupArn=created["BackupArn"])["BackupDescription"]
    assert deleted["BackupDetails"]["BackupStatus"] == "DELETED"
    with expect_error("BackupNotFoundException", f"Backup not found: {created['BackupArn']}"):
        ddb.describe_backup(BackupArn=created["BackupArn"])


def test_restore_overrides_billing_and_drops_excluded_indexes(ddb, make_table):
    name = indexed_table(ddb, make_table)
    arn = ddb.create_backup(TableName=name, BackupName="with-overrides")["BackupDetails"]["BackupArn"]
    target = unique_name("override")
    ddb.restore_table_from_backup(
        TargetTableName=target, BackupArn=arn, BillingModeOverride="PAY_PER_REQUEST",
        GlobalSecondaryIndexOverride=[], SSESpecificationOverride={"Enabled": True, "SSEType": "KMS"})
    try:
        table = wait_until_active(ddb, target)
        assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
        assert "GlobalSecondaryIndexes" not in table
        assert table["SSEDescription"]["Status"] == "ENABLED"
    finally:
        ddb.delete_table(TableName=target)
        ddb.delete_backup(BackupArn=arn)


def test_list_backups_pages_and_filters(ddb, make_table):
    name = make_table(("pk", "S"))
    arns = [ddb.create_backup(TableName=name, BackupName=f"b-{n}")["BackupDetails"]["BackupArn"] for n in range(3)]
    try:
        first = ddb.list_backups(TableName=name, Limit=2)
        assert [b["BackupArn"] for b in first["BackupSummaries"]] == arns[:2]
        assert first["LastEvaluatedBackupArn"] == arns[1]
        rest = ddb.list_backups(TableName=name, Limit=2, ExclusiveStartBackupArn=arns[1])
        assert [b["BackupArn"] for b in rest["BackupSummaries"]] == arns[2:]
        assert "LastEvaluatedBackupArn" not in rest
        assert ddb.list_backups(TableName=name, BackupType="SYSTEM")["BackupSummaries"] == []
    finally:
        for arn in arns:
            ddb.delete_backup(BackupArn=arn)


def test_backup_errors(ddb):
    with expect_error("TableNotFoundException", "Table not found: no-such-table"):
        ddb.create_backup(TableName="no-such-table", BackupName="b1x")
    missing = "arn:aws:dynamodb:us-east-1:000000000000:table/x/backup/01234567890123-abcdef01"
    with expect_error("BackupNotFoundException", f"Backup not found: {missing}"):
        ddb.restore_table_from_backup(TargetTableName="anything", BackupArn=missing)


def test_point_in_time_restore_to_a_second_between_two_writes(clock_server):
    ddb, endpoint_url = clock_server
    name = TableFactory(ddb, "pitr").create(("pk", "S"))
    with expect_error("PointInTimeRecoveryUnavailableException",
                      f"Point in time recovery is not enabled for table '{name}'"):
        ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=unique_name("x"),
                                           UseLatestRestorableTime=True)
    status = ddb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert status["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "DISABLED"
    enabled = ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 7})
    assert enabled["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]["RecoveryPeriodInDays"] == 7

    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "gone"}})
    between = advance_clock(endpoint_url, 60) + 0.0
    advance_clock(endpoint_url, 60)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "2"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "gone"}})
    advance_clock(endpoint_url, 600)

    window = ddb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"][
        "PointInTimeRecoveryDescription"]
    assert window["EarliestRestorableDateTime"].timestamp() < between < window["LatestRestorableDateTime"].timestamp()

    target = unique_name("pitr")
    restored = ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=target,
                                                  RestoreDateTime=int(between))
    latest = unique_name("latest")
    try:
        assert restored["TableDescription"]["RestoreSummary"]["SourceTableArn"].endswith(f"table/{name}")
        wait_until_active(ddb, target)
        assert scan_all(ddb, target) == [{"pk": {"S": "a"}, "v": {"N": "1"}}, {"pk": {"S": "gone"}}]
        ddb.restore_table_to_point_in_time(
            SourceTableArn=f"arn:aws:dynamodb:us-east-1:000000000000:table/{name}",
            TargetTableName=latest, UseLatestRestorableTime=True)
        wait_until_active(ddb, latest)
        assert scan_all(ddb, latest) == scan_all(ddb, name)
    finally:
        for table in (target, latest):
            try:
                ddb.delete_table(TableName=table)
            except ddb.exceptions.ResourceNotFoundException:
                pass

    with expect_error("InvalidRestoreTimeException", contains=["RestoreDateTime"]):
        ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=unique_name("x"),
                                           RestoreDateTime=server_now(endpoint_url) + 3600)
    with expect_error("TableAlreadyExistsException", f"Table already exists: {name}"):
        ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=name,
                                           UseLatestRestorableTime=True)
    with expect_error("TableNotFoundException", "Table not found: no-such-source"):
        ddb.restore_table_to_point_in_time(SourceTableName="no-such-source", TargetTableName=unique_name("x"),
                                           UseLatestRestorableTime=True)
    disabled = ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False})
    assert disabled["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"][
        "PointInTimeRecoveryStatus"] == "DISABLED"


def test_backups_through_the_cli(aws_cli, make_table):
    name = make_table(("pk", "S"))
    created = aws_cli("create-backup", "--table-name", name, "--backup-name", "cli-backup")
    assert created.returncode == 0, created.stderr
    arn = created.json["BackupDetails"]["BackupArn"]
    listed = aws_cli("list-backups", "--table-name", name)
    assert [b["BackupArn"] for b in listed.json["BackupSummaries"]] == [arn]
    pitr = aws_cli("update-continuous-backups", "--table-name", name,
                   "--point-in-time-recovery-specification", "PointInTimeRecoveryEnabled=true")
    assert pitr.returncode == 0, pitr.stderr
    described = aws_cli("describe-continuous-backups", "--table-name", name)
    assert described.json["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"][
        "PointInTimeRecoveryStatus"] == "ENABLED"
    assert aws_cli("delete-backup", "--backup-arn", arn).returncode == 0
