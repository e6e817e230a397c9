"""Table descriptions as AWS's recorded responses (2025-2026) show them, asserted whole (issue #42):
BillingModeSummary only for a table that is or was on demand, OnDemandThroughput only where maxima
were set, WarmThroughput per table and per global index (a provisioned one follows its capacity,
an asked-for one is UPDATING until it settles on the server clock), CreateTable's answer without
WarmThroughput for a table created without one, DeleteTable's with DeletionProtectionEnabled, and
DescribeContributorInsights of a disabled table without a rule list.

Fields that differ per table (name, ARNs, id, creation time) are taken from the answer itself;
everything else is compared exactly."""

from __future__ import annotations

import json
import urllib.request

import pytest

from ddb_helpers import unique_name


def advance_clock(endpoint_url, seconds):
    request = urllib.request.Request(f"{endpoint_url}/_localdynamo/clock", method="POST",
                                     data=json.dumps({"advanceSeconds": seconds}).encode())
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def _s(*names):
    return [{"AttributeName": name, "AttributeType": "S"} for name in names]


def _hash(name):
    return [{"AttributeName": name, "KeyType": "HASH"}]


def _warm(read, write, status="ACTIVE"):
    return {"ReadUnitsPerSecond": read, "WriteUnitsPerSecond": write, "Status": status}


def _throughput(read, write):
    return {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": read, "WriteCapacityUnits": write}


def _volatile(table: dict) -> dict:
    """The per-table members, from the answer itself."""
    keep = {name: table[name] for name in ("TableName", "TableArn", "TableId", "CreationDateTime") if name in table}
    return keep


def _gsi(table_arn, name, key, *, read=0, write=0, warm):
    return {"IndexName": name, "KeySchema": _hash(key), "Projection": {"ProjectionType": "ALL"},
            "IndexStatus": "ACTIVE", "ProvisionedThroughput": _throughput(read, write),
            "IndexSizeBytes": 0, "ItemCount": 0, "IndexArn": f"{table_arn}/index/{name}", "WarmThroughput": warm}


def _cleanup(ddb, name):
    ddb.delete_table(TableName=name)


@pytest.fixture
def on_demand_table(ddb):
    """A fresh on-demand table keyed `pk`, deleted afterwards."""
    name = unique_name("desc-ppr")
    ddb.create_table(TableName=name, AttributeDefinitions=_s("pk"), KeySchema=_hash("pk"), BillingMode="PAY_PER_REQUEST")
    yield name
    _cleanup(ddb, name)


def test_a_provisioned_table_and_its_index_report_their_capacity_as_warm_throughput(ddb):
    name = unique_name("desc-prov")
    created = ddb.create_table(
        TableName=name, AttributeDefinitions=_s("pk", "g"), KeySchema=_hash("pk"), BillingMode="PROVISIONED",
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": _hash("g"), "Projection": {"ProjectionType": "ALL"},
                                 "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 2}}],
    )["TableDescription"]
    try:
        described = ddb.describe_table(TableName=name)["Table"]
        arn = described["TableArn"]
        assert described == {
            **_volatile(described),
            "AttributeDefinitions": _s("g", "pk"), "KeySchema": _hash("pk"), "TableStatus": "ACTIVE",
            "ProvisionedThroughput": _throughput(5, 5), "TableSizeBytes": 0, "ItemCount": 0,
            "GlobalSecondaryIndexes": [_gsi(arn, "by-g", "g", read=3, write=2, warm=_warm(3, 2))],
            "DeletionProtectionEnabled": False, "WarmThroughput": _warm(5, 5),
        }
        # CreateTable's own answer: CREATING, and no WarmThroughput for a table created without one.
        assert "WarmThroughput" not in created and "BillingModeSummary" not in created
        assert created["TableStatus"] == "CREATING"
    finally:
        _cleanup(ddb, name)


def test_an_on_demand_table_has_a_billing_summary_and_no_on_demand_throughput_without_maxima(ddb, on_demand_table):
    described = ddb.describe_table(TableName=on_demand_table)["Table"]
    assert described == {
        **_volatile(described),
        "AttributeDefinitions": _s("pk"), "KeySchema": _hash("pk"), "TableStatus": "ACTIVE",
        "ProvisionedThroughput": _throughput(0, 0), "TableSizeBytes": 0, "ItemCount": 0,
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST",
                               "LastUpdateToPayPerRequestDateTime": described["CreationDateTime"]},
        "DeletionProtectionEnabled": False, "WarmThroughput": _warm(12000, 4000),
    }
    ddb.update_table(TableName=on_demand_table, OnDemandThroughput={"MaxReadRequestUnits": 100})
    assert ddb.describe_table(TableName=on_demand_table)["Table"]["OnDemandThroughput"] == {
        "MaxReadRequestUnits": 100, "MaxWriteRequestUnits": -1}


def test_a_table_that_was_on_demand_keeps_its_billing_summary(ddb, on_demand_table):
    ddb.update_table(TableName=on_demand_table, BillingMode="PROVISIONED",
                     ProvisionedThroughput={"ReadCapacityUnits": 4, "WriteCapacityUnits": 4})
    described = ddb.describe_table(TableName=on_demand_table)["Table"]
    assert described["BillingModeSummary"] == {"BillingMode": "PROVISIONED"}
    assert described["WarmThroughput"] == _warm(4, 4)


def test_an_asked_for_warm_throughput_is_updating_until_it_settles(ddb, endpoint_url):
    name = unique_name("desc-warm")
    created = ddb.create_table(
        TableName=name, AttributeDefinitions=_s("pk", "g"), KeySchema=_hash("pk"), BillingMode="PAY_PER_REQUEST",
        WarmThroughput={"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 5000},
        GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": _hash("g"), "Projection": {"ProjectionType": "ALL"},
                                 "WarmThroughput": {"ReadUnitsPerSecond": 13000}}],
    )["TableDescription"]
    try:
        assert created["WarmThroughput"] == _warm(15000, 5000, "UPDATING")
        described = ddb.describe_table(TableName=name)["Table"]
        assert described["WarmThroughput"] == _warm(15000, 5000, "UPDATING")
        assert described["GlobalSecondaryIndexes"][0]["WarmThroughput"] == _warm(13000, 4000, "UPDATING")
        advance_clock(endpoint_url, 2)
        described = ddb.describe_table(TableName=name)["Table"]
        arn = described["TableArn"]
        assert described == {
            **_volatile(described),
            "AttributeDefinitions": _s("g", "pk"), "KeySchema": _hash("pk"), "TableStatus": "ACTIVE",
            "ProvisionedThroughput": _throughput(0, 0), "TableSizeBytes": 0, "ItemCount": 0,
            "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST",
                                   "LastUpdateToPayPerRequestDateTime": described["CreationDateTime"]},
            "GlobalSecondaryIndexes": [_gsi(arn, "by-g", "g", warm=_warm(13000, 4000))],
            "DeletionProtectionEnabled": False, "WarmThroughput": _warm(15000, 5000),
        }
        updated = ddb.update_table(TableName=name, WarmThroughput={"WriteUnitsPerSecond": 6000})["TableDescription"]
        assert updated["WarmThroughput"] == _warm(15000, 6000, "UPDATING")
        advance_clock(endpoint_url, 2)
        assert ddb.describe_table(TableName=name)["Table"]["WarmThroughput"] == _warm(15000, 6000)
    finally:
        _cleanup(ddb, name)


def test_delete_table_reports_deletion_protection(ddb):
    name = unique_name("desc-del")
    ddb.create_table(TableName=name, AttributeDefinitions=_s("pk"), KeySchema=_hash("pk"), BillingMode="PROVISIONED",
                     ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 3})
    deleted = ddb.delete_table(TableName=name)["TableDescription"]
    assert deleted == {
        "TableName": name, "TableStatus": "DELETING", "ProvisionedThroughput": _throughput(2, 3),
        "TableSizeBytes": 0, "ItemCount": 0, "TableArn": deleted["TableArn"], "TableId": deleted["TableId"],
        "DeletionProtectionEnabled": False,
    }


def test_contributor_insights_of_a_disabled_table_has_no_rule_list(ddb, on_demand_table):
    answer = ddb.describe_contributor_insights(TableName=on_demand_table)
    answer.pop("ResponseMetadata")
    assert answer == {"TableName": on_demand_table, "ContributorInsightsStatus": "DISABLED"}
