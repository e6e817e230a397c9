"""Control plane: CreateTable, DescribeTable, ListTables, DeleteTable, UpdateTable.

Expected values encode real DynamoDB (see the docstring of each test for the
less obvious ones). Table-status transitions that are asynchronous in AWS
(CREATING/UPDATING/DELETING) are accepted either as the transitional status or
as already finished where real DynamoDB would eventually get there.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import string
import time

import pytest

from ddb_helpers import (
    check_raw_error,
    expect_error,
    unique_name,
    wait_until_active,
    wait_until_gone,
)

ARN_RE = r"arn:aws:dynamodb:us-east-1:\d{12}:table/"
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
STREAM_LABEL_RE = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}"

HASH_S = dict(
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
)
PT_5 = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}


def _now():
    return dt.datetime.now(dt.timezone.utc)


def _assert_recent(ts):
    assert isinstance(ts, dt.datetime)
    delta = abs((_now() - ts).total_seconds())
    assert delta < 300, f"CreationDateTime {ts} is not close to now"


@pytest.fixture
def created(ddb):
    """Names of tables created directly by a test (deleted afterwards)."""
    names: list[str] = []
    yield names
    for name in names:
        try:
            table = ddb.describe_table(TableName=name)["Table"]
            if table.get("DeletionProtectionEnabled"):
                wait_until_active(ddb, name)
                ddb.update_table(TableName=name, DeletionProtectionEnabled=False)
                wait_until_active(ddb, name)
            ddb.delete_table(TableName=name)
        except Exception:
            pass


# ===========================================================================
# CreateTable: happy paths
# ===========================================================================


def test_create_hash_table_with_provisioned_throughput(ddb, created):
    name = unique_name("ct")
    created.append(name)
    desc = ddb.create_table(TableName=name, ProvisionedThroughput=PT_5, **HASH_S)["TableDescription"]

    assert desc["TableName"] == name
    assert desc["TableStatus"] in ("CREATING", "ACTIVE")
    assert desc["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"}]
    assert desc["AttributeDefinitions"] == [{"AttributeName": "pk", "AttributeType": "S"}]
    assert re.fullmatch(ARN_RE + re.escape(name), desc["TableArn"]), desc["TableArn"]
    assert UUID_RE.match(desc["TableId"]), desc["TableId"]
    _assert_recent(desc["CreationDateTime"])
    assert desc["ItemCount"] == 0
    assert desc["TableSizeBytes"] == 0
    pt = desc["ProvisionedThroughput"]
    assert pt["ReadCapacityUnits"] == 5
    assert pt["WriteCapacityUnits"] == 5
    assert pt["NumberOfDecreasesToday"] == 0
    if "BillingModeSummary" in desc:
        assert desc["BillingModeSummary"]["BillingMode"] == "PROVISIONED"


def test_create_composite_key_table(ddb, created):
    name = unique_name("ct")
    created.append(name)
    ddb.create_table(
        TableName=name,
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
        ],
        KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    table = wait_until_active(ddb, name)
    assert table["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ]
    assert sorted(table["AttributeDefinitions"], key=lambda a: a["AttributeName"]) == [
        {"AttributeName": "pk", "AttributeType": "S"},
        {"AttributeName": "sk", "AttributeType": "N"},
    ]


def test_create_binary_hash_key_table(ddb, created):
    name = unique_name("ct")
    created.append(name)
    ddb.create_table(
        TableName=name,
        AttributeDefinitions=[{"AttributeName": "bin", "AttributeType": "B"}],
        KeySchema=[{"AttributeName": "bin", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    table = wait_until_active(ddb, name)
    assert table["AttributeDefinitions"] == [{"AttributeName": "bin", "AttributeType": "B"}]


def test_create_pay_per_request_table(ddb, created):
    name = unique_name("ct")
    created.append(name)
    desc = ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)["TableDescription"]
    assert desc["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    table = wait_until_active(ddb, name)
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    if "LastUpdateToPayPerRequestDateTime" in table["BillingModeSummary"]:
        _assert_recent(table["BillingModeSummary"]["LastUpdateToPayPerRequestDateTime"])
    # On-demand tables still report a ProvisionedThroughput block, with zero units.
    assert table["ProvisionedThroughput"] == {
        "NumberOfDecreasesToday": 0,
        "ReadCapacityUnits": 0,
        "WriteCapacityUnits": 0,
    }


def test_create_with_explicit_provisioned_billing_mode(ddb, created):
    name = unique_name("ct")
    created.append(name)
    ddb.create_table(
        TableName=name, BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 3, "WriteCapacityUnits": 7}, **HASH_S
    )
    table = wait_until_active(ddb, name)
    assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 3
    assert table["ProvisionedThroughput"]["WriteCapacityUnits"] == 7
    if "BillingModeSummary" in table:
        assert table["BillingModeSummary"]["BillingMode"] == "PROVISIONED"


def test_create_with_tags(ddb, created):
    name = unique_name("ct")
    created.append(name)
    tags = [{"Key": "env", "Value": "test"}, {"Key": "owner", "Value": "conformance"}]
    desc = ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", Tags=tags, **HASH_S)[
        "TableDescription"
    ]
    wait_until_active(ddb, name)
    listed = ddb.list_tags_of_resource(ResourceArn=desc["TableArn"])["Tags"]
    assert sorted(listed, key=lambda t: t["Key"]) == tags


def test_create_with_stream_specification(ddb, created):
    name = unique_name("ct")
    created.append(name)
    spec = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    desc = ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST", StreamSpecification=spec, **HASH_S
    )["TableDescription"]
    table = wait_until_active(ddb, name)
    for d in (desc, table):
        assert d["StreamSpecification"] == spec
        label = d["LatestStreamLabel"]
        assert re.fullmatch(STREAM_LABEL_RE, label), label
        assert d["LatestStreamArn"] == f"{d['TableArn']}/stream/{label}"
    assert table["LatestStreamArn"] == desc["LatestStreamArn"]


def test_table_without_stream_has_no_stream_fields(ddb, make_table):
    name = make_table()
    table = ddb.describe_table(TableName=name)["Table"]
    assert "LatestStreamArn" not in table
    assert "LatestStreamLabel" not in table
    assert table.get("StreamSpecification", {"StreamEnabled": False})["StreamEnabled"] is False


def test_create_disabled_stream_with_view_type_is_rejected(ddb):
    with expect_error("ValidationException"):
        ddb.create_table(
            TableName=unique_name("ct"),
            BillingMode="PAY_PER_REQUEST",
            StreamSpecification={"StreamEnabled": False, "StreamViewType": "NEW_IMAGE"},
            **HASH_S,
        )


def test_create_with_sse_specification(ddb, created):
    name = unique_name("ct")
    created.append(name)
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", SSESpecification={"Enabled": True}, **HASH_S)
    table = wait_until_active(ddb, name)
    sse = table["SSEDescription"]
    assert sse["Status"] == "ENABLED"
    assert sse["SSEType"] == "KMS"
    assert re.match(r"^arn:aws:kms:us-east-1:\d{12}:key/", sse["KMSMasterKeyArn"]), sse["KMSMasterKeyArn"]


def test_default_encryption_has_no_sse_description(ddb, make_table):
    table = ddb.describe_table(TableName=make_table())["Table"]
    assert "SSEDescription" not in table


def test_create_with_table_class(ddb, created):
    name = unique_name("ct")
    created.append(name)
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST", TableClass="STANDARD_INFREQUENT_ACCESS", **HASH_S
    )
    table = wait_until_active(ddb, name)
    assert table["TableClassSummary"]["TableClass"] == "STANDARD_INFREQUENT_ACCESS"


def test_default_table_class_is_standard(ddb, make_table):
    table = ddb.describe_table(TableName=make_table())["Table"]
    assert table.get("TableClassSummary", {"TableClass": "STANDARD"})["TableClass"] == "STANDARD"


def test_create_with_deletion_protection(ddb, created):
    name = unique_name("ct")
    created.append(name)
    desc = ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST", DeletionProtectionEnabled=True, **HASH_S
    )["TableDescription"]
    assert desc["DeletionProtectionEnabled"] is True
    assert wait_until_active(ddb, name)["DeletionProtectionEnabled"] is True


def test_create_existing_table_is_resource_in_use(ddb, make_table):
    name = make_table()
    with expect_error("ResourceInUseException", f"Table already exists: {name}"):
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)


def test_table_names_are_case_sensitive(ddb, make_table):
    name = make_table(name=unique_name("Case").replace("ldc-", "LDC-"))
    other = name.lower()
    assert other != name
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Table: {other} not found"):
        ddb.describe_table(TableName=other)


def _boundary_name(kind: str) -> str:
    rnd = random.Random()
    if kind == "three-chars":
        return "".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(3))
    if kind == "255-chars":
        base = unique_name("long")
        return base + "x" * (255 - len(base))
    if kind == "punctuation-only":
        return "".join(rnd.choice("._-") for _ in range(16))
    if kind == "mixed":
        return "A.b-C_9" + unique_name("m")[4:]
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["three-chars", "255-chars", "punctuation-only", "mixed"])
def test_boundary_table_names_are_valid(ddb, created, kind):
    name = _boundary_name(kind)
    created.append(name)
    desc = ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)["TableDescription"]
    assert desc["TableName"] == name
    assert wait_until_active(ddb, name)["TableName"] == name
    assert name in _all_table_names(ddb)


# ===========================================================================
# CreateTable: validation
# ===========================================================================


def test_create_name_too_short(ddb):
    with expect_error(
        "ValidationException",
        "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
        "Member must have length greater than or equal to 3",
    ):
        ddb.create_table(TableName="ab", ProvisionedThroughput=PT_5, **HASH_S)


def test_create_name_too_long(ddb):
    name = "a" * 256
    with expect_error(
        "ValidationException",
        f"1 validation error detected: Value '{name}' at 'tableName' failed to satisfy constraint: "
        "Member must have length less than or equal to 255",
    ):
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)


@pytest.mark.parametrize("name", ["invalid;name", "bad table!@#", "tab/le", "täble"])
def test_create_name_with_invalid_characters(ddb, name):
    with expect_error(
        "ValidationException",
        f"1 validation error detected: Value '{name}' at 'tableName' failed to satisfy constraint: "
        "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
    ):
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)


@pytest.mark.parametrize("attr_type", ["SS", "NS", "BS", "BOOL", "M", "L", "NULL", "s", "INVALID"])
def test_create_key_attribute_type_must_be_scalar(ddb, attr_type):
    with expect_error(
        "ValidationException",
        f"1 validation error detected: Value '{attr_type}' at 'attributeDefinitions.1.member.attributeType' "
        "failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]",
    ):
        ddb.create_table(
            TableName=unique_name("ct"),
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": attr_type}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            BillingMode="PAY_PER_REQUEST",
        )


def test_create_invalid_key_type(ddb):
    with expect_error(
        "ValidationException",
        "1 validation error detected: Value 'INVALID' at 'keySchema.1.member.keyType' failed to satisfy "
        "constraint: Member must satisfy enum value set: [HASH, RANGE]",
    ):
        ddb.create_table(
            TableName=unique_name("ct"),
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "INVALID"}],
            BillingMode="PAY_PER_REQUEST",
        )


def test_create_two_hash_keys(ddb):
    with expect_error("ValidationException", "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"):
        ddb.create_table(
            TableName=unique_name("ct"),
            AttributeDefinitions=[
                {"AttributeName": "a", "AttributeType": "S"},
                {"AttributeName": "b", "AttributeType": "S"},
            ],
            KeySchema=[{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "HASH"}],
            BillingMode="PAY_PER_REQUEST",
        )


@pytest.mark.parametrize(
    "schema",
    [
        [{"AttributeName": "a", "KeyType": "RANGE"}],
        [{"AttributeName": "a", "KeyType": "RANGE"}, {"AttributeName": "b", "KeyType": "HASH"}],
        [{"AttributeName": "a", "KeyType": "RANGE"}, {"AttributeName": "b", "KeyType": "RANGE"}],
    ],
    ids=["range-only", "range-then-hash", "two-ranges"],
)
def test_create_missing_hash_key_first(ddb, schema):
    defs = [{"AttributeName": e["AttributeName"], "AttributeType": "S"} for e in schema]
    with expect_error("ValidationException", "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"):
        ddb.create_table(
            TableName=unique_name("ct"), AttributeDefinitions=defs, KeySchema=schema, BillingMode="PAY_PER_REQUEST"
        )


def test_create_key_attribute_not_defined(ddb):
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Some index key attributes are not defined in "
        "AttributeDefinitions. Keys: [a], AttributeDefinitions: [b]",
    ):
        ddb.create_table(
            TableName=unique_name("ct"),
            AttributeDefinitions=[{"AttributeName": "b", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "a", "KeyType": "HASH"}],
            BillingMode="PAY_PER_REQUEST",
        )


def test_create_more_key_elements_than_definitions(ddb):
    with expect_error("ValidationException", "Invalid KeySchema: Some index key attribute have no definition"):
        ddb.create_table(
            TableName=unique_name("ct"),
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "pk", "KeyType": "RANGE"}],
            BillingMode="PAY_PER_REQUEST",
        )


def test_create_hash_and_range_with_same_name(ddb):
    with expect_error(
        "ValidationException", "Both the Hash Key and the Range Key element in the KeySchema have the same name"
    ):
        ddb.create_table(
            TableName=unique_name("ct"),
            AttributeDefinitions=[
                {"AttributeName": "a", "AttributeType": "S"},
                {"AttributeName": "b", "AttributeType": "S"},
            ],
            KeySchema=[{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}],
            BillingMode="PAY_PER_REQUEST",
        )


@pytest.mark.parametrize("with_range", [False, True], ids=["hash", "hash-range"])
def test_create_unused_attribute_definition(ddb, with_range):
    defs = [
        {"AttributeName": "pk", "AttributeType": "S"},
        {"AttributeName": "extra", "AttributeType": "N"},
    ]
    schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
    if with_range:
        defs.append({"AttributeName": "sk", "AttributeType": "S"})
        schema.append({"AttributeName": "sk", "KeyType": "RANGE"})
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Number of attributes in KeySchema does not exactly "
        "match number of attributes defined in AttributeDefinitions",
    ):
        ddb.create_table(
            TableName=unique_name("ct"), AttributeDefinitions=defs, KeySchema=schema, BillingMode="PAY_PER_REQUEST"
        )


def test_create_three_key_elements(ddb):
    with expect_error(
        "ValidationException",
        contains=["at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2"],
    ):
        ddb.create_table(
            TableName=unique_name("ct"),
            AttributeDefinitions=[
                {"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "extra")
            ],
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
                {"AttributeName": "extra", "KeyType": "RANGE"},
            ],
            ProvisionedThroughput=PT_5,
        )


def test_create_empty_key_schema(raw):
    # botocore refuses an empty KeySchema client side, so send it raw.
    resp = raw.call(
        "CreateTable",
        {
            "TableName": unique_name("ct"),
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [],
            "BillingMode": "PAY_PER_REQUEST",
        },
    )
    check_raw_error(
        resp,
        "ValidationException",
        "1 validation error detected: Value '[]' at 'keySchema' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1",
    )


def test_create_pay_per_request_with_provisioned_throughput(ddb):
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be "
        "specified when BillingMode is PAY_PER_REQUEST",
    ):
        ddb.create_table(
            TableName=unique_name("ct"), BillingMode="PAY_PER_REQUEST", ProvisionedThroughput=PT_5, **HASH_S
        )


def test_create_provisioned_without_throughput(ddb):
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be "
        "specified when BillingMode is PROVISIONED",
    ):
        ddb.create_table(TableName=unique_name("ct"), BillingMode="PROVISIONED", **HASH_S)


def test_create_without_billing_mode_or_throughput(ddb):
    # PROVISIONED is the default billing mode, so throughput is then required.
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be "
        "specified when BillingMode is PROVISIONED",
        alternatives=["No provisioned throughput specified for the table"],
    ):
        ddb.create_table(TableName=unique_name("ct"), **HASH_S)


def test_create_zero_read_capacity(raw):
    resp = raw.call(
        "CreateTable",
        {
            "TableName": unique_name("ct"),
            **HASH_S,
            "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 1},
        },
    )
    check_raw_error(
        resp,
        "ValidationException",
        "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' failed to "
        "satisfy constraint: Member must have value greater than or equal to 1",
    )


def test_create_invalid_billing_mode(ddb):
    with expect_error(
        "ValidationException",
        contains=["at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set"],
    ):
        ddb.create_table(TableName=unique_name("ct"), BillingMode="FREE", **HASH_S)


def test_failed_create_leaves_no_table(ddb):
    name = unique_name("ct")
    with expect_error("ValidationException"):
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", ProvisionedThroughput=PT_5, **HASH_S)
    with expect_error("ResourceNotFoundException"):
        ddb.describe_table(TableName=name)


# ===========================================================================
# DescribeTable
# ===========================================================================


def test_describe_table_fields(ddb, make_table):
    name = make_table(("pk", "S"), ("sk", "N"))
    table = ddb.describe_table(TableName=name)["Table"]
    assert table["TableName"] == name
    assert table["TableStatus"] == "ACTIVE"
    assert re.fullmatch(ARN_RE + re.escape(name), table["TableArn"])
    assert UUID_RE.match(table["TableId"])
    _assert_recent(table["CreationDateTime"])
    assert table["ItemCount"] == 0
    assert table["TableSizeBytes"] == 0
    assert table["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ]
    assert table["DeletionProtectionEnabled"] is False
    assert table["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 0
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


def test_describe_table_raw_json_types(raw, make_table):
    name = make_table(billing_mode="PROVISIONED", throughput=(2, 3))
    resp = raw.call("DescribeTable", {"TableName": name})
    assert resp.status == 200
    table = resp.json()["Table"]
    # Timestamps are epoch seconds as JSON numbers, counters are integers.
    assert isinstance(table["CreationDateTime"], (int, float)) and not isinstance(table["CreationDateTime"], bool)
    assert abs(table["CreationDateTime"] - time.time()) < 300
    assert table["ItemCount"] == 0 and isinstance(table["ItemCount"], int)
    assert table["TableSizeBytes"] == 0 and isinstance(table["TableSizeBytes"], int)
    assert table["ProvisionedThroughput"] == {
        "NumberOfDecreasesToday": 0,
        "ReadCapacityUnits": 2,
        "WriteCapacityUnits": 3,
    }
    assert table["TableStatus"] == "ACTIVE"
    assert table["DeletionProtectionEnabled"] is False


def test_table_id_and_arn_are_stable(ddb, created):
    name = unique_name("ct")
    created.append(name)
    desc = ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)["TableDescription"]
    wait_until_active(ddb, name)
    first = ddb.describe_table(TableName=name)["Table"]
    second = ddb.describe_table(TableName=name)["Table"]
    assert first["TableId"] == desc["TableId"] == second["TableId"]
    assert first["TableArn"] == desc["TableArn"] == second["TableArn"]
    assert first["CreationDateTime"] == second["CreationDateTime"]


def test_recreated_table_gets_a_new_table_id(ddb, created):
    name = unique_name("ct")
    created.append(name)
    first = ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)["TableDescription"]
    wait_until_active(ddb, name)
    ddb.delete_table(TableName=name)
    wait_until_gone(ddb, name)
    second = ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)["TableDescription"]
    wait_until_active(ddb, name)
    assert second["TableId"] != first["TableId"]
    assert second["TableArn"] == first["TableArn"]


def test_describe_table_by_arn(ddb, make_table):
    name = make_table()
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    assert ddb.describe_table(TableName=arn)["Table"]["TableName"] == name


def test_describe_missing_table(ddb):
    name = unique_name("missing")
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Table: {name} not found"):
        ddb.describe_table(TableName=name)


def test_item_count_and_size_are_reported_as_numbers(ddb, make_table):
    # DescribeTable statistics are only updated periodically by real DynamoDB, so
    # only their type and sign are pinned here.
    name = make_table()
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"S": "xyz"}})
    table = ddb.describe_table(TableName=name)["Table"]
    assert isinstance(table["ItemCount"], int) and table["ItemCount"] >= 0
    assert isinstance(table["TableSizeBytes"], int) and table["TableSizeBytes"] >= 0


# ===========================================================================
# ListTables
# ===========================================================================


def _all_table_names(ddb, limit=None):
    names, kwargs, pages = [], {}, 0
    while True:
        if limit:
            kwargs["Limit"] = limit
        page = ddb.list_tables(**kwargs)
        pages += 1
        assert pages < 10_000
        names.extend(page["TableNames"])
        if limit:
            assert len(page["TableNames"]) <= limit
        if "LastEvaluatedTableName" not in page:
            return names
        assert page["LastEvaluatedTableName"] == page["TableNames"][-1]
        kwargs["ExclusiveStartTableName"] = page["LastEvaluatedTableName"]


def test_list_tables_contains_created_tables_in_order(ddb, make_table):
    mine = sorted(make_table(name=f"ldc-lt-{i}-{unique_name('x')[6:]}") for i in range(3))
    first_page = ddb.list_tables()["TableNames"]
    assert first_page == sorted(first_page)
    names = _all_table_names(ddb)
    assert names == sorted(names)
    for n in mine:
        assert n in names


def test_list_tables_pagination(ddb, make_table):
    mine = [make_table() for _ in range(5)]
    everything = _all_table_names(ddb, limit=2)
    assert everything == sorted(everything)
    assert len(everything) == len(set(everything))
    for n in mine:
        assert n in everything
    assert everything == _all_table_names(ddb)


def test_list_tables_limit_returns_last_evaluated(ddb, make_table):
    a, b, _c = sorted([make_table(), make_table(), make_table()])
    page = ddb.list_tables(ExclusiveStartTableName=a, Limit=1)
    assert len(page["TableNames"]) == 1
    assert page["TableNames"][0] > a
    assert page["LastEvaluatedTableName"] == page["TableNames"][0]
    all_after = ddb.list_tables(ExclusiveStartTableName=a)["TableNames"]
    assert b in all_after
    assert a not in all_after
    assert all(n > a for n in all_after)


def test_list_tables_exclusive_start_need_not_exist(ddb, make_table):
    a = make_table()
    before = a[:-1]  # a prefix of `a`, which sorts before it and is not a table
    names = ddb.list_tables(ExclusiveStartTableName=before)["TableNames"]
    assert a in names
    assert all(n > before for n in names)


def test_list_tables_no_last_evaluated_when_everything_fits(ddb, make_table):
    make_table()
    page = ddb.list_tables(Limit=100)
    if len(page["TableNames"]) < 100:
        assert "LastEvaluatedTableName" not in page


def test_list_tables_default_page_is_at_most_100(ddb):
    assert len(ddb.list_tables()["TableNames"]) <= 100


def test_list_tables_after_last_table_is_empty(ddb, make_table):
    make_table()
    names = ddb.list_tables(ExclusiveStartTableName="zzzzzzzzzz")["TableNames"]
    assert [n for n in names if n > "zzzzzzzzzz"] == names
    assert all(not n.startswith("ldc-") for n in names)


@pytest.mark.parametrize(
    "limit,message",
    [
        (0, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
            "Member must have value greater than or equal to 1"),
        (-5, "1 validation error detected: Value '-5' at 'limit' failed to satisfy constraint: "
             "Member must have value greater than or equal to 1"),
        (101, "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
              "Member must have value less than or equal to 100"),
    ],
)
def test_list_tables_limit_range(raw, limit, message):
    check_raw_error(raw.call("ListTables", {"Limit": limit}), "ValidationException", message)


def test_list_tables_exclusive_start_too_long(raw):
    name = "a" * 256
    check_raw_error(
        raw.call("ListTables", {"ExclusiveStartTableName": name}),
        "ValidationException",
        f"1 validation error detected: Value '{name}' at 'exclusiveStartTableName' failed to satisfy "
        "constraint: Member must have length less than or equal to 255",
    )


# ===========================================================================
# DeleteTable
# ===========================================================================


def test_delete_table_returns_deleting_description(ddb, make_table):
    name = make_table(("pk", "S"), ("sk", "S"))
    before = ddb.describe_table(TableName=name)["Table"]
    desc = ddb.delete_table(TableName=name)["TableDescription"]
    assert desc["TableName"] == name
    assert desc["TableStatus"] == "DELETING"
    assert desc["TableArn"] == before["TableArn"]
    assert desc["TableId"] == before["TableId"]
    assert "KeySchema" not in desc  # the reduced description (test_parity_tables.py)
    wait_until_gone(ddb, name)
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Table: {name} not found"):
        ddb.describe_table(TableName=name)
    assert name not in _all_table_names(ddb)


def test_delete_missing_table(ddb):
    name = unique_name("missing")
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Table: {name} not found"):
        ddb.delete_table(TableName=name)


def test_delete_table_twice(ddb, make_table):
    name = make_table()
    ddb.delete_table(TableName=name)
    wait_until_gone(ddb, name)
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Table: {name} not found"):
        ddb.delete_table(TableName=name)


def test_items_are_gone_with_the_table(ddb, created):
    name = unique_name("ct")
    created.append(name)
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)
    wait_until_active(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    ddb.delete_table(TableName=name)
    wait_until_gone(ddb, name)
    with expect_error("ResourceNotFoundException", "Requested resource not found"):
        ddb.get_item(TableName=name, Key={"pk": {"S": "a"}})
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **HASH_S)
    wait_until_active(ddb, name)
    assert "Item" not in ddb.get_item(TableName=name, Key={"pk": {"S": "a"}}, ConsistentRead=True)


def test_deletion_protection_blocks_delete(ddb, created):
    name = unique_name("dp")
    created.append(name)
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", DeletionProtectionEnabled=True, **HASH_S)
    wait_until_active(ddb, name)
    with expect_error(
        "ValidationException",
        "Resource cannot be deleted as it is currently protected against deletion. Disable deletion "
        "protection first.",
    ):
        ddb.delete_table(TableName=name)
    # Still there and untouched.
    table = ddb.describe_table(TableName=name)["Table"]
    assert table["TableStatus"] == "ACTIVE"
    assert table["DeletionProtectionEnabled"] is True

    ddb.update_table(TableName=name, DeletionProtectionEnabled=False)
    assert wait_until_active(ddb, name)["DeletionProtectionEnabled"] is False
    assert ddb.delete_table(TableName=name)["TableDescription"]["TableStatus"] == "DELETING"
    wait_until_gone(ddb, name)


# ===========================================================================
# UpdateTable
# ===========================================================================


def test_update_provisioned_throughput(ddb, make_table):
    name = make_table(billing_mode="PROVISIONED", throughput=(5, 5))
    desc = ddb.update_table(
        TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 20, "WriteCapacityUnits": 15}
    )["TableDescription"]
    assert desc["TableName"] == name
    assert desc["TableStatus"] in ("UPDATING", "ACTIVE")
    table = wait_until_active(ddb, name)
    assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 20
    assert table["ProvisionedThroughput"]["WriteCapacityUnits"] == 15
    assert isinstance(table["ProvisionedThroughput"]["LastIncreaseDateTime"], dt.datetime)
    assert table["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 0


def test_decreasing_throughput_counts_decreases(ddb, make_table):
    name = make_table(billing_mode="PROVISIONED", throughput=(10, 10))
    ddb.update_table(TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    table = wait_until_active(ddb, name)
    pt = table["ProvisionedThroughput"]
    assert (pt["ReadCapacityUnits"], pt["WriteCapacityUnits"]) == (5, 5)
    assert pt["NumberOfDecreasesToday"] == 1
    assert isinstance(pt["LastDecreaseDateTime"], dt.datetime)


def test_update_same_throughput_is_rejected(ddb, make_table):
    name = make_table(billing_mode="PROVISIONED", throughput=(5, 5))
    with expect_error(
        "ValidationException",
        "The provisioned throughput for the table will not change. The requested value equals the current "
        "value. Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: 5. "
        "Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. Refer to "
        "the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.",
    ):
        ddb.update_table(TableName=name, ProvisionedThroughput=PT_5)


def test_update_to_pay_per_request(ddb, make_table):
    name = make_table(billing_mode="PROVISIONED", throughput=(5, 5))
    ddb.update_table(TableName=name, BillingMode="PAY_PER_REQUEST")
    table = wait_until_active(ddb, name)
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert isinstance(table["BillingModeSummary"]["LastUpdateToPayPerRequestDateTime"], dt.datetime)


def test_update_to_provisioned(ddb, make_table):
    name = make_table(billing_mode="PAY_PER_REQUEST")
    ddb.update_table(
        TableName=name, BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 4, "WriteCapacityUnits": 6}
    )
    table = wait_until_active(ddb, name)
    assert table["BillingModeSummary"]["BillingMode"] == "PROVISIONED"
    assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 4
    assert table["ProvisionedThroughput"]["WriteCapacityUnits"] == 6


def test_update_pay_per_request_noop_is_accepted(ddb, make_table):
    name = make_table(billing_mode="PAY_PER_REQUEST")
    ddb.update_table(TableName=name, BillingMode="PAY_PER_REQUEST")
    assert wait_until_active(ddb, name)["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


def test_update_throughput_on_pay_per_request_table(ddb, make_table):
    name = make_table(billing_mode="PAY_PER_REQUEST")
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be "
        "specified when BillingMode is PAY_PER_REQUEST",
    ):
        ddb.update_table(TableName=name, ProvisionedThroughput=PT_5)


def test_update_to_pay_per_request_with_throughput(ddb, make_table):
    name = make_table(billing_mode="PROVISIONED", throughput=(5, 5))
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be "
        "specified when BillingMode is PAY_PER_REQUEST",
    ):
        ddb.update_table(
            TableName=name, BillingMode="PAY_PER_REQUEST", ProvisionedThroughput={"ReadCapacityUnits": 6, "WriteCapacityUnits": 6}
        )


def test_update_to_provisioned_without_throughput(ddb, make_table):
    name = make_table(billing_mode="PAY_PER_REQUEST")
    with expect_error(
        "ValidationException",
        "One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode "
        "is PROVISIONED",
    ):
        ddb.update_table(TableName=name, BillingMode="PROVISIONED")


def test_update_zero_throughput(raw, make_table):
    name = make_table(billing_mode="PROVISIONED", throughput=(5, 5))
    resp = raw.call(
        "UpdateTable",
        {"TableName": name, "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 5}},
    )
    check_raw_error(
        resp,
        "ValidationException",
        "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' failed to "
        "satisfy constraint: Member must have value greater than or equal to 1",
    )


def test_update_with_nothing_to_update(ddb, make_table):
    name = make_table()
    with expect_error("ValidationException", contains=["At least one of"]):
        ddb.update_table(TableName=name)


def test_update_missing_table(ddb):
    name = unique_name("missing")
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Table: {name} not found"):
        ddb.update_table(TableName=name, BillingMode="PAY_PER_REQUEST")


def test_update_deletion_protection(ddb, make_table):
    name = make_table()
    desc = ddb.update_table(TableName=name, DeletionProtectionEnabled=True)["TableDescription"]
    assert desc["TableName"] == name
    assert wait_until_active(ddb, name)["DeletionProtectionEnabled"] is True
    with expect_error("ValidationException", contains=["protected against deletion"]):
        ddb.delete_table(TableName=name)


def test_update_table_class(ddb, make_table):
    name = make_table()
    ddb.update_table(TableName=name, TableClass="STANDARD_INFREQUENT_ACCESS")
    table = wait_until_active(ddb, name)
    assert table["TableClassSummary"]["TableClass"] == "STANDARD_INFREQUENT_ACCESS"


def test_update_keeps_identity_and_items(ddb, make_table):
    name = make_table(billing_mode="PROVISIONED", throughput=(5, 5))
    before = ddb.describe_table(TableName=name)["Table"]
    ddb.put_item(TableName=name, Item={"pk": {"S": "keep"}, "v": {"N": "1"}})
    ddb.update_table(TableName=name, BillingMode="PAY_PER_REQUEST")
    after = wait_until_active(ddb, name)
    assert after["TableId"] == before["TableId"]
    assert after["TableArn"] == before["TableArn"]
    assert after["KeySchema"] == before["KeySchema"]
    item = ddb.get_item(TableName=name, Key={"pk": {"S": "keep"}}, ConsistentRead=True)["Item"]
    assert item == {"pk": {"S": "keep"}, "v": {"N": "1"}}
