"""Tag rules and DynamoDB's exact refusals, as the service answered them in measurements of the
service, 2026-10 (ack-api-quirks): letters of any script, numbers, white space and
+ - = . _ : / @ only; the aws: key prefix is reserved (also on UntagResource); a key once per
request; at most 50 tags (a ValidationException, checked on the merged set, also at CreateTable,
where the table is then not created) and at most 50 keys in one UntagResource; empty tag and key
lists refused. A refused request changes nothing."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from ddb_helpers import check_raw_error, expect_error, unique_name

TOO_MANY = "Number of Tags exceed the current limit for the provided ResourceArn"


@pytest.fixture
def arn(ddb, make_table):
    return ddb.describe_table(TableName=make_table(("pk", "S")))["Table"]["TableArn"]


@pytest.mark.parametrize("key, value, message", [
    ("ok", "#!%%^$$&", "The Tag Value provided is invalid, Value: #!%%^$$&"),
    ("->>;-)])", "ok", "The Tag Key provided is invalid, Key: ->>;-)])"),
    ("!!!\\|", "<><", "The Tag Key provided is invalid, Key: !!!\\|"),
    ("bad#char", "v", "The Tag Key provided is invalid, Key: bad#char"),
    ("k", "a,b", "The Tag Value provided is invalid, Value: a,b"),
    ("k", "\U0001F511", "The Tag Value provided is invalid, Value: \U0001F511"),
    ("aws:owner", "v", "Tag Key cannot be prefixed with aws:, Key: aws:owner"),
    ("AWS:owner", "v", "Tag Key cannot be prefixed with aws:, Key: AWS:owner"),
])
def test_tags_outside_the_rules_are_refused(ddb, arn, key, value, message):
    with expect_error("ValidationException", message):
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "good", "Value": "v"}, {"Key": key, "Value": value}])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []


def test_letters_of_any_script_white_space_and_the_allowed_signs_are_accepted(ddb, arn):
    tags = [{"Key": "законные буквы", "Value": "ѮѮѮ"}, {"Key": " ", "Value": "9"},
            {"Key": "k+-=._:/@", "Value": ""}, {"Key": "café", "Value": "a+b-c=d.e_f:g/h@i"},
            {"Key": "x" * 128, "Value": "y" * 256}, {"Key": "myaws:foo", "Value": "表"}]
    ddb.tag_resource(ResourceArn=arn, Tags=tags)
    assert sorted(ddb.list_tags_of_resource(ResourceArn=arn)["Tags"], key=lambda t: t["Key"]) == \
        sorted(tags, key=lambda t: t["Key"])


def test_a_key_twice_in_one_request_is_refused(ddb, arn):
    with expect_error("ValidationException", "Duplicate Tag Keys provided as input: Duplicate Tag Key found dup"):
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "dup", "Value": "1"}, {"Key": "dup", "Value": "2"}])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []


def test_empty_tag_and_key_lists_are_refused(ddb, arn):
    with expect_error("ValidationException", "Atleast one Tag needs to be provided as Input."):
        ddb.tag_resource(ResourceArn=arn, Tags=[])
    with expect_error("ValidationException", "Atleast one Tag Key needs to be provided as Input."):
        ddb.untag_resource(ResourceArn=arn, TagKeys=[])


def test_more_than_50_tags_once_merged_is_refused(ddb, arn):
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": f"k{i:02}", "Value": "v"} for i in range(50)])
    with expect_error("ValidationException", TOO_MANY):
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k51", "Value": "v"}])
    with expect_error("ValidationException", TOO_MANY):
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k00", "Value": "new"}, {"Key": "k51", "Value": "v"}])
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": f"k{i:02}", "Value": "w"} for i in range(50)])
    tags = ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]
    assert len(tags) == 50 and {t["Value"] for t in tags} == {"w"}


def test_untag_refuses_reserved_keys_and_more_than_50_keys(ddb, arn):
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "keep", "Value": "v"}])
    with expect_error("ValidationException", "Tag Key cannot be prefixed with aws:, Key: aws:foo"):
        ddb.untag_resource(ResourceArn=arn, TagKeys=["keep", "aws:foo"])
    with expect_error("ValidationException", TOO_MANY):
        ddb.untag_resource(ResourceArn=arn, TagKeys=["keep"] + [f"k{i}" for i in range(50)])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == [{"Key": "keep", "Value": "v"}]
    ddb.untag_resource(ResourceArn=arn, TagKeys=["never-set", "keep"])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []


@pytest.mark.parametrize("tags, message", [
    ([{"Key": str(i), "Value": str(i)} for i in range(100)], TOO_MANY),
    ([{"Key": "bad#key", "Value": "v"}], "The Tag Key provided is invalid, Key: bad#key"),
    ([{"Key": "aws:x", "Value": "v"}], "Tag Key cannot be prefixed with aws:, Key: aws:x"),
])
def test_create_table_with_tags_outside_the_rules_creates_nothing(ddb, tags, message):
    name = unique_name("tags")
    with expect_error("ValidationException", message):
        ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", Tags=tags,
                         KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}])
    with pytest.raises(ClientError) as caught:
        ddb.describe_table(TableName=name)
    assert caught.value.response["Error"]["Code"] == "ResourceNotFoundException"


def test_lengths_are_checked_in_the_tag_words_not_as_constraints(ddb, arn, raw):
    # DynamoDB's request validator leaves tag lengths to the tagging checks (measured 2026-10):
    # an over-long key or value, and an empty key, get the tag sentences.
    long_key, long_value = "k" * 129, "v" * 257
    with expect_error("ValidationException", f"The Tag Key provided is invalid, Key: {long_key}"):
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "good", "Value": "v"}, {"Key": long_key, "Value": "v"}])
    with expect_error("ValidationException", f"The Tag Value provided is invalid, Value: {long_value}"):
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "good", "Value": long_value}])
    with expect_error("ValidationException", f"The Tag Key provided is invalid, Key: {long_key}"):
        ddb.untag_resource(ResourceArn=arn, TagKeys=[long_key])
    check_raw_error(raw.call("UntagResource", {"ResourceArn": arn, "TagKeys": [""]}),
                    "ValidationException", "The Tag Key provided is invalid, Key: ")
    with expect_error("ValidationException", f"The Tag Key provided is invalid, Key: {long_key}"):
        ddb.create_table(TableName=unique_name("tags"), BillingMode="PAY_PER_REQUEST", Tags=[{"Key": long_key, "Value": "v"}],
                         KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []


@pytest.mark.parametrize("tag, message", [
    ({}, "The Tag Key provided is invalid, Key: null"),
    ({"Value": "v"}, "The Tag Key provided is invalid, Key: null"),
    ({"Key": "k"}, "The Tag Value provided is invalid, Value: null"),
])
def test_a_tag_without_its_key_or_value_names_the_missing_part(raw, arn, tag, message):
    check_raw_error(raw.call("TagResource", {"ResourceArn": arn, "Tags": [tag]}), "ValidationException", message)
