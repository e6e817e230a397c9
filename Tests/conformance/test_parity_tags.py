"""Tag rules (DynamoDB developer guide, "Tagging restrictions"; refusals measured by ScyllaDB's
test_tag.py against the service): letters, numbers, white space and + - = . _ : / only; the
aws: key prefix is reserved; at most 50 tags, a ValidationException past that, also at
CreateTable (where the table is then not created)."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from ddb_helpers import expect_error, unique_name


@pytest.fixture
def arn(ddb, make_table):
    return ddb.describe_table(TableName=make_table(("pk", "S")))["Table"]["TableArn"]


@pytest.mark.parametrize("key, value", [("ok", "#!%%^$$&"), ("->>;-)])", "ok"), ("!!!\\|", "<><"), ("a@b", "v"),
                                        ("aws:owner", "v"), ("AWS:owner", "v")])
def test_tags_outside_the_rules_are_refused(ddb, arn, key, value):
    with expect_error("ValidationException"):
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": key, "Value": value}])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []


def test_unicode_letters_white_space_and_the_allowed_signs_are_accepted(ddb, arn):
    tags = [{"Key": "законные буквы", "Value": "ѮѮѮ"}, {"Key": " ", "Value": "9"},
            {"Key": "k+-=._:/", "Value": ""}, {"Key": "x" * 128, "Value": "y" * 256}]
    ddb.tag_resource(ResourceArn=arn, Tags=tags)
    assert sorted(ddb.list_tags_of_resource(ResourceArn=arn)["Tags"], key=lambda t: t["Key"]) == \
        sorted(tags, key=lambda t: t["Key"])


def test_more_than_50_tags_is_a_validation_error(ddb, arn):
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": str(i), "Value": str(i)} for i in range(40)])
    with expect_error("ValidationException"):
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": str(i), "Value": str(i)} for i in range(40, 60)])
    assert len(ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]) == 40


@pytest.mark.parametrize("tags", [[{"Key": str(i), "Value": str(i)} for i in range(100)],
                                  [{"Key": "bad#key", "Value": "v"}], [{"Key": "aws:x", "Value": "v"}]])
def test_create_table_with_tags_outside_the_rules_creates_nothing(ddb, tags):
    name = unique_name("tags")
    with expect_error("ValidationException"):
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", Tags=tags,
                         KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}])
    with pytest.raises(ClientError) as caught:
        ddb.describe_table(TableName=name)
    assert caught.value.response["Error"]["Code"] == "ResourceNotFoundException"
