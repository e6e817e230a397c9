"""Resource policies, Contributor Insights, Kinesis streaming destinations (state only), warm
throughput, table class and SSE as DescribeTable reports them."""

import json
import urllib.request

import pytest

from ddb_helpers import REGION, expect_error


def advance_clock(endpoint_url, seconds):
    request = urllib.request.Request(f"{endpoint_url}/_localdynamo/clock", method="POST",
                                     data=json.dumps({"advanceSeconds": seconds}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200


def policy(action="dynamodb:GetItem"):
    return json.dumps({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111122223333:root"}, "Action": action, "Resource": "*"}]})


def arn_of(ddb, table):
    return ddb.describe_table(TableName=table)["Table"]["TableArn"]


def test_resource_policy_lifecycle_and_revision_conflicts(ddb, make_table):
    arn = arn_of(ddb, make_table())
    with expect_error("PolicyNotFoundException",
                      f"Resource-based policy not found for the provided ResourceArn: {arn}"):
        ddb.get_resource_policy(ResourceArn=arn)
    with expect_error("PolicyNotFoundException"):
        ddb.put_resource_policy(ResourceArn=arn, Policy=policy(), ExpectedRevisionId="123")
    first = ddb.put_resource_policy(ResourceArn=arn, Policy=policy(), ExpectedRevisionId="NO_POLICY")["RevisionId"]
    got = ddb.get_resource_policy(ResourceArn=arn)
    assert (got["Policy"], got["RevisionId"]) == (policy(), first)
    # The same document again keeps its revision (PutResourcePolicy is idempotent).
    assert ddb.put_resource_policy(ResourceArn=arn, Policy=policy())["RevisionId"] == first
    table = arn.split("/")[-1]
    with expect_error("PolicyNotFoundException",
                      "Resource-based policy not found for the provided ResourceArn: Requested policy update expecting "
                      f"none to be present for table {table}, but a policy exists with revision id {first}."):
        ddb.put_resource_policy(ResourceArn=arn, Policy=policy("dynamodb:Query"), ExpectedRevisionId="NO_POLICY")
    with expect_error("PolicyNotFoundException",
                      f"Resource-based policy not found for the provided ResourceArn: Requested update for policy with "
                      f"revision id {first}0, but the policy associated to target table {table} has revision id {first}."):
        ddb.put_resource_policy(ResourceArn=arn, Policy=policy("dynamodb:Query"), ExpectedRevisionId=first + "0")
    second = ddb.put_resource_policy(ResourceArn=arn, Policy=policy("dynamodb:Query"),
                                     ExpectedRevisionId=first)["RevisionId"]
    assert second != first
    with expect_error("PolicyNotFoundException"):
        ddb.delete_resource_policy(ResourceArn=arn, ExpectedRevisionId=first)
    assert ddb.delete_resource_policy(ResourceArn=arn, ExpectedRevisionId=second)["RevisionId"] == second
    # Deleting when there is no policy is a no-op that answers no revision.
    assert "RevisionId" not in ddb.delete_resource_policy(ResourceArn=arn)
    with expect_error("PolicyNotFoundException"):
        ddb.delete_resource_policy(ResourceArn=arn, ExpectedRevisionId=second)


def test_resource_policy_validation(ddb, make_table):
    table = make_table(StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    description = ddb.describe_table(TableName=table)["Table"]
    with expect_error("ValidationException", contains=["Invalid policy document"]):
        ddb.put_resource_policy(ResourceArn=description["TableArn"], Policy="{not json")
    with expect_error("ValidationException", contains=["Statement"]):
        ddb.put_resource_policy(ResourceArn=description["TableArn"], Policy="{}")
    large = json.dumps({"Version": "2012-10-17", "Statement": [], "Padding": " " * (20 * 1024)})
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: Maximum policy size of 20480 bytes exceeded"):
        ddb.put_resource_policy(ResourceArn=description["TableArn"], Policy=large)
    invalid = "One or more parameter values were invalid: "
    with expect_error("ValidationException", invalid + f"ARNs must start with 'arn:': {table}"):
        ddb.get_resource_policy(ResourceArn=table)
    elsewhere = description["TableArn"].replace(f":{REGION}:", ":eu-north-1:")
    with expect_error("ValidationException", invalid + f"Invalid resource Arn: {elsewhere}"):
        ddb.get_resource_policy(ResourceArn=elsewhere)
    index = description["TableArn"] + "/index/by-x"
    with expect_error("ValidationException", invalid
                      + f"Invalid resource arn provided, only table or stream is accepted. Provided resource arn: {index}"):
        ddb.delete_resource_policy(ResourceArn=index)
    backup = description["TableArn"] + "/backup/01700000000000-abcdefgh"
    with expect_error("ValidationException", invalid + f"Provided Arn is not a DynamoDB resource arn: {backup}"):
        ddb.put_resource_policy(ResourceArn=backup, Policy=policy())
    missing = description["TableArn"].replace(table, table + "-missing")
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Table: {table}-missing not found"):
        ddb.get_resource_policy(ResourceArn=missing)
    with expect_error("ResourceNotFoundException",
                      f"Requested resource not found: Stream: 2000-01-01T00:00:00.000 not found for Table: {table}"):
        ddb.get_resource_policy(ResourceArn=description["TableArn"] + "/stream/2000-01-01T00:00:00.000")
    # A stream has its own policy, separate from the table's.
    stream_arn = description["LatestStreamArn"]
    ddb.put_resource_policy(ResourceArn=stream_arn, Policy=policy("dynamodb:GetRecords"))
    assert "GetRecords" in ddb.get_resource_policy(ResourceArn=stream_arn)["Policy"]
    with expect_error("PolicyNotFoundException"):
        ddb.get_resource_policy(ResourceArn=description["TableArn"])


def test_contributor_insights_state_transitions(ddb, make_table, endpoint_url):
    table = make_table(AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                             {"AttributeName": "g", "AttributeType": "S"}],
                       GlobalSecondaryIndexes=[{"IndexName": "by-g",
                                                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    assert ddb.describe_contributor_insights(TableName=table)["ContributorInsightsStatus"] == "DISABLED"
    enabled = ddb.update_contributor_insights(TableName=table, ContributorInsightsAction="ENABLE")
    assert enabled["ContributorInsightsStatus"] == "ENABLING"
    ddb.update_contributor_insights(TableName=table, IndexName="by-g", ContributorInsightsAction="ENABLE",
                                    ContributorInsightsMode="THROTTLED_KEYS")
    advance_clock(endpoint_url, 2)
    described = ddb.describe_contributor_insights(TableName=table)
    assert described["ContributorInsightsStatus"] == "ENABLED"
    assert described["ContributorInsightsMode"] == "ACCESSED_AND_THROTTLED_KEYS"
    assert len(described["ContributorInsightsRuleList"]) == 2
    listed = ddb.list_contributor_insights(TableName=table)["ContributorInsightsSummaries"]
    assert [(s.get("IndexName"), s["ContributorInsightsStatus"], s["ContributorInsightsMode"]) for s in listed] == [
        (None, "ENABLED", "ACCESSED_AND_THROTTLED_KEYS"), ("by-g", "ENABLED", "THROTTLED_KEYS")]
    page = ddb.list_contributor_insights(TableName=table, MaxResults=1)
    assert len(page["ContributorInsightsSummaries"]) == 1 and "NextToken" in page
    assert ddb.update_contributor_insights(TableName=table, ContributorInsightsAction="DISABLE")[
        "ContributorInsightsStatus"] == "DISABLING"
    advance_clock(endpoint_url, 2)
    assert ddb.describe_contributor_insights(TableName=table)["ContributorInsightsStatus"] == "DISABLED"
    with expect_error("ResourceNotFoundException"):
        ddb.describe_contributor_insights(TableName=table, IndexName="nope")
    with expect_error("ResourceNotFoundException"):
        ddb.describe_contributor_insights(TableName=table + "-missing")
    with expect_error("ValidationException"):
        ddb.update_contributor_insights(TableName=table, ContributorInsightsAction="PAUSE")


def test_kinesis_destination_state_transitions(ddb, make_table, endpoint_url, aws_cli):
    table = make_table()
    table_id = ddb.describe_table(TableName=table)["Table"]["TableId"]
    stream = f"arn:aws:kinesis:{REGION}:000000000000:stream/orders"
    not_valid = "Table is not in a valid state to enable Kinesis Streaming Destination: "
    enabled = ddb.enable_kinesis_streaming_destination(TableName=table, StreamArn=stream)
    assert enabled["DestinationStatus"] == "ENABLING"
    # (Transitional statuses last one second of server time; the engine tests pin the clock to
    # check the refusals inside that second. Here the clock is moved past it.)
    advance_clock(endpoint_url, 2)
    destination = ddb.describe_kinesis_streaming_destination(TableName=table)["KinesisDataStreamDestinations"][0]
    # Without a configuration the precision is absent (DynamoDB then means MILLISECOND).
    assert destination == {"StreamArn": stream, "DestinationStatus": "ACTIVE"}
    with expect_error("ValidationException", not_valid
                      + "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation."):
        ddb.enable_kinesis_streaming_destination(TableName=table, StreamArn=stream + "-second")
    with expect_error("ValidationException",
                      f"Invalid Request: Precision is already set to the desired value of MILLISECOND for tableId: {table_id}, kdsArn: {stream}"):
        ddb.update_kinesis_streaming_destination(TableName=table, StreamArn=stream, UpdateKinesisStreamingConfiguration={
            "ApproximateCreationDateTimePrecision": "MILLISECOND"})
    with expect_error("ValidationException", "Streaming destination cannot be updated with given parameters: "
                      "UpdateKinesisStreamingConfiguration cannot be null or contain only null values"):
        ddb.update_kinesis_streaming_destination(TableName=table, StreamArn=stream)
    updated = aws_cli("update-kinesis-streaming-destination", "--table-name", table, "--stream-arn", stream,
                      "--update-kinesis-streaming-configuration", "ApproximateCreationDateTimePrecision=MICROSECOND")
    assert updated.returncode == 0, updated.stderr
    assert updated.json["DestinationStatus"] == "UPDATING"
    destination = ddb.describe_kinesis_streaming_destination(TableName=table)["KinesisDataStreamDestinations"][0]
    assert destination["ApproximateCreationDateTimePrecision"] == "MICROSECOND"
    advance_clock(endpoint_url, 2)
    assert ddb.describe_kinesis_streaming_destination(TableName=table)[
        "KinesisDataStreamDestinations"][0]["DestinationStatus"] == "ACTIVE"
    assert ddb.disable_kinesis_streaming_destination(TableName=table, StreamArn=stream)[
        "DestinationStatus"] == "DISABLING"
    advance_clock(endpoint_url, 2)
    assert ddb.describe_kinesis_streaming_destination(TableName=table)[
        "KinesisDataStreamDestinations"] == [{"StreamArn": stream, "DestinationStatus": "DISABLED"}]
    with expect_error("ValidationException",
                      not_valid + "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation."):
        ddb.disable_kinesis_streaming_destination(TableName=table, StreamArn=stream)
    with expect_error("ValidationException", not_valid
                      + "Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE state. "
                      + f"TableName: {table}, kdsArn: {stream}"):
        ddb.update_kinesis_streaming_destination(TableName=table, StreamArn=stream, UpdateKinesisStreamingConfiguration={
            "ApproximateCreationDateTimePrecision": "MICROSECOND"})
    # Enable does not check the stream: an ARN that is no Kinesis stream ends ENABLE_FAILED.
    bad = "arn:aws:sqs:us-east-1:000000000000:queue/orders"
    assert ddb.enable_kinesis_streaming_destination(TableName=table, StreamArn=bad)["DestinationStatus"] == "ENABLING"
    advance_clock(endpoint_url, 2)
    failed = [d for d in ddb.describe_kinesis_streaming_destination(TableName=table)["KinesisDataStreamDestinations"]
              if d["StreamArn"] == bad]
    assert failed[0]["DestinationStatus"] == "ENABLE_FAILED" and failed[0]["DestinationStatusDescription"]
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Table: {table}-missing not found"):
        ddb.describe_kinesis_streaming_destination(TableName=table + "-missing")


def test_warm_throughput_table_class_and_sse_in_describe_table(ddb, make_table, endpoint_url):
    table = make_table(WarmThroughput={"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 5000},
                       TableClass="STANDARD_INFREQUENT_ACCESS",
                       SSESpecification={"Enabled": True, "SSEType": "KMS"})
    advance_clock(endpoint_url, 2)  # an asked-for warm throughput is UPDATING until it settles
    described = ddb.describe_table(TableName=table)["Table"]
    assert described["WarmThroughput"] == {"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 5000, "Status": "ACTIVE"}
    assert described["TableClassSummary"]["TableClass"] == "STANDARD_INFREQUENT_ACCESS"
    assert described["SSEDescription"]["Status"] == "ENABLED"
    ddb.update_table(TableName=table, WarmThroughput={"ReadUnitsPerSecond": 20000})
    assert ddb.describe_table(TableName=table)["Table"]["WarmThroughput"]["ReadUnitsPerSecond"] == 20000
    with expect_error("ValidationException", contains=["lower than current WarmThroughput"]):
        ddb.update_table(TableName=table, WarmThroughput={"ReadUnitsPerSecond": 16000})
    plain = ddb.describe_table(TableName=make_table())["Table"]
    assert plain["WarmThroughput"] == {"ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000, "Status": "ACTIVE"}
