"""Wire-level behaviour of the DynamoDB JSON 1.0 protocol.

Facts encoded here (real DynamoDB):
  * errors are HTTP 400 with a JSON body {"__type": "<namespace>#<Code>", "message": ...};
    the namespace is com.amazonaws.dynamodb.v20120810 for service errors,
    com.amazon.coral.validate for ValidationException and com.amazon.coral.service
    for protocol-level errors (SerializationException, UnknownOperationException,
    MissingAuthenticationTokenException);
  * the request body is parsed first, then the X-Amz-Target is resolved, then the
    Authorization header is checked;
  * every response carries x-amzn-RequestId (52 upper-case alphanumerics) and
    x-amz-crc32 (CRC32 of the body bytes, decimal);
  * the response Content-Type mirrors the JSON flavour of the request.
"""

from __future__ import annotations

import json
import os
import re
import zlib

import pytest

from ddb_helpers import (
    API_VERSION,
    JSON_10,
    check_raw_error,
    unique_name,
    wire_type,
)

REQUEST_ID_RE = re.compile(r"^[0-9A-Z]{52}$")


def assert_standard_headers(resp):
    request_id = resp.header("x-amzn-RequestId")
    assert request_id is not None, f"missing x-amzn-RequestId in {resp.headers}"
    assert REQUEST_ID_RE.match(request_id), f"x-amzn-RequestId {request_id!r} is not 52 [0-9A-Z] chars"
    crc = resp.header("x-amz-crc32")
    assert crc is not None, f"missing x-amz-crc32 in {resp.headers}"
    assert crc == str(zlib.crc32(resp.body)), f"x-amz-crc32 {crc} != crc32(body) {zlib.crc32(resp.body)}"
    length = resp.header("content-length")
    if length is not None:
        assert int(length) == len(resp.body)


# ---------------------------------------------------------------------------
# Successful responses
# ---------------------------------------------------------------------------


def test_list_tables_success_has_standard_headers(raw):
    resp = raw.call("ListTables", {})
    assert resp.status == 200
    assert resp.header("content-type") == JSON_10
    body = resp.json()
    assert isinstance(body.get("TableNames"), list)
    assert_standard_headers(resp)


def test_application_json_content_type_is_accepted_and_mirrored(raw):
    resp = raw.call("ListTables", {}, content_type="application/json")
    assert resp.status == 200
    assert resp.header("content-type") == "application/json"
    assert isinstance(resp.json()["TableNames"], list)
    assert_standard_headers(resp)


def test_request_ids_are_unique(raw):
    ids = {raw.call("ListTables", {}).header("x-amzn-RequestId") for _ in range(5)}
    assert len(ids) == 5


def test_unknown_request_fields_are_ignored(raw):
    resp = raw.call("ListTables", {"hi": "yo", "stuff": ["things"]})
    assert resp.status == 200
    assert isinstance(resp.json()["TableNames"], list)


def test_null_members_are_treated_as_absent(raw):
    resp = raw.call("ListTables", {"ExclusiveStartTableName": None, "Limit": None})
    assert resp.status == 200
    assert isinstance(resp.json()["TableNames"], list)


def test_get_root_is_a_health_check(raw):
    """DynamoDB's own answer (dynalite's tests, recorded against the service): plain text, the
    trailing space included; LocalDynamo's JSON health is under /_localdynamo/."""
    resp = raw.send(method="GET", target=None, auth=None, content_type=None)
    assert (resp.status, resp.body) == (200, b"healthy: dynamodb.us-east-1.amazonaws.com ")
    assert resp.header("content-type") is None
    health = raw.send(method="GET", path="/_localdynamo/health", target=None, auth=None, content_type=None)
    assert (health.status, health.json()) == (200, {"status": "ok"})


# ---------------------------------------------------------------------------
# Error body shape
# ---------------------------------------------------------------------------


def test_resource_not_found_error_body_shape(raw):
    name = unique_name("missing")
    resp = raw.call("DescribeTable", {"TableName": name})
    assert resp.status == 400
    assert resp.header("content-type") == JSON_10
    assert resp.json() == {
        "__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
        "message": f"Requested resource not found: Table: {name} not found",
    }
    assert_standard_headers(resp)


def test_validation_error_body_shape(raw):
    resp = raw.call("ListTables", {"Limit": 0})
    assert resp.status == 400
    assert resp.json() == {
        "__type": "com.amazon.coral.validate#ValidationException",
        "message": "1 validation error detected: Value '0' at 'limit' failed to satisfy "
        "constraint: Member must have value greater than or equal to 1",
    }
    assert_standard_headers(resp)


def test_wire_type_namespaces():
    # Guard for the helper used all over the suite.
    assert wire_type("ValidationException") == "com.amazon.coral.validate#ValidationException"
    assert wire_type("SerializationException") == "com.amazon.coral.service#SerializationException"
    assert wire_type("ResourceInUseException") == "com.amazonaws.dynamodb.v20120810#ResourceInUseException"


# ---------------------------------------------------------------------------
# Malformed requests
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload",
    [b"hi", b'{"TableName": ', b"{'TableName': 'x'}", b'{"TableName": "abc",}', b"\xff\xfe\x00garbage"],
    ids=["not-json", "truncated", "single-quotes", "trailing-comma", "binary-garbage"],
)
def test_malformed_json_is_serialization_exception(raw, payload):
    resp = raw.send(payload, operation="DescribeTable")
    body = check_raw_error(resp, "SerializationException")
    assert set(body) <= {"__type", "message", "Message"}
    assert_standard_headers(resp)


def test_empty_body_is_serialization_exception(raw):
    resp = raw.send(b"", operation="ListTables")
    check_raw_error(resp, "SerializationException")
    assert_standard_headers(resp)


def test_malformed_json_is_detected_before_target_and_auth(raw):
    # No target and no credentials: the body is still parsed first.
    resp = raw.send(b"hi", target=None, auth=None)
    check_raw_error(resp, "SerializationException")


@pytest.mark.parametrize(
    "payload",
    [{"TableName": True}, {"TableName": 123}, {"TableName": ["abc"]}, {"TableName": {"S": "abc"}}],
    ids=["bool", "number", "list", "object"],
)
def test_wrongly_typed_member_is_serialization_exception(raw, payload):
    resp = raw.call("DescribeTable", payload)
    check_raw_error(resp, "SerializationException")


def test_wrongly_typed_integer_member_is_serialization_exception(raw):
    resp = raw.call("ListTables", {"Limit": "5"})
    check_raw_error(resp, "SerializationException")


# ---------------------------------------------------------------------------
# Target resolution
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "DynamoDB_20120810.ListTable",
        "DynamoDB_20120810.NoSuchOperation",
        "DynamoDB_20120810.",
        "whatever",
        "Foo.ListTables",
    ],
)
def test_unknown_target_is_unknown_operation_exception(raw, target):
    resp = raw.send({}, target=target)
    check_raw_error(resp, "UnknownOperationException")
    assert_standard_headers(resp)


def test_missing_target_is_unknown_operation_exception(raw):
    resp = raw.send({}, target=None)
    check_raw_error(resp, "UnknownOperationException")


def test_unknown_target_is_reported_before_missing_authentication(raw):
    resp = raw.send({}, target=f"{API_VERSION}.NoSuchOperation", auth=None)
    check_raw_error(resp, "UnknownOperationException")


def test_missing_target_is_reported_before_missing_authentication(raw):
    resp = raw.send({}, target=None, auth=None)
    check_raw_error(resp, "UnknownOperationException")


# ---------------------------------------------------------------------------
# Authentication
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("operation", ["ListTables", "DescribeTable", "GetItem"])
def test_missing_authorization_is_missing_authentication_token(raw, operation):
    resp = raw.send({}, operation=operation, auth=None)
    assert resp.status == 400
    assert resp.json() == {
        "__type": "com.amazon.coral.service#MissingAuthenticationTokenException",
        "message": "Request is missing Authentication Token",
    }
    assert_standard_headers(resp)


# ---------------------------------------------------------------------------
# Connection handling
# ---------------------------------------------------------------------------


def test_keep_alive_serves_several_requests_on_one_connection(raw):
    conn = raw.connection()
    try:
        first = raw.send({}, operation="ListTables", conn=conn)
        assert first.status == 200
        assert not first.will_close
        sock = conn.sock
        assert sock is not None
        sequence = [
            ({}, "ListTables", 200),
            ({"TableName": unique_name("ka")}, "DescribeTable", 400),
            (b"not json", "ListTables", 400),
            ({"Limit": 1}, "ListTables", 200),
            ({}, "ListTables", 200),
        ]
        for payload, op, status in sequence:
            resp = raw.send(payload, operation=op, conn=conn)
            assert resp.status == status, resp.body
            assert not resp.will_close, f"server closed the connection after {op} ({status})"
            assert conn.sock is sock, "the HTTP connection was not reused"
    finally:
        conn.close()


# (body, request options, whether real DynamoDB is known to answer 4xx). For the
# cases marked False the exact status is not pinned, only that the server answers
# and keeps serving (e.g. deeply nested but well-formed JSON).
_BAD_REQUESTS = {
    "malformed-json": (b"{{{", dict(operation="ListTables"), True),
    "empty-body": (b"", dict(operation="CreateTable"), True),
    "unknown-target": (b"{}", dict(target="DynamoDB_20120810.Nope"), True),
    "missing-target": (b"{}", dict(target=None), True),
    "missing-auth": (b"{}", dict(operation="ListTables", auth=None), True),
    "invalid-utf8-in-string": (b'{"TableName": "\xc3\x28abc"}', dict(operation="DescribeTable"), True),
    "random-bytes-1mb": (os.urandom(1024 * 1024), dict(operation="PutItem"), True),
    "wrong-types-everywhere": (
        json.dumps({"TableName": {"x": [1, 2, {"y": None}]}, "Item": "oops", "Key": 7}).encode(),
        dict(operation="PutItem"),
        True,
    ),
    "null-json": (b"null", dict(operation="ListTables"), False),
    "array-json": (b"[]", dict(operation="DescribeTable"), False),
    "string-json": (b'"x"', dict(operation="PutItem"), False),
    "deep-array-nesting": (b"[" * 100_000 + b"]" * 100_000, dict(operation="ListTables"), False),
    "deep-object-nesting": (b'{"a":' * 50_000 + b"1" + b"}" * 50_000, dict(operation="ListTables"), False),
    "lone-surrogate-escape": (b'{"TableName": "\\ud800abc"}', dict(operation="DescribeTable"), False),
    "huge-number": (b'{"Limit": 1' + b"0" * 5000 + b"}", dict(operation="ListTables"), False),
}


@pytest.mark.parametrize("case", sorted(_BAD_REQUESTS))
def test_server_keeps_serving_after_bad_request(raw, case):
    body, options, known_4xx = _BAD_REQUESTS[case]
    resp = raw.send(body, **options)
    if known_4xx:
        assert 400 <= resp.status < 500, f"{case}: expected a 4xx answer, got {resp.status}"
    else:
        assert 200 <= resp.status < 500, f"{case}: server error {resp.status}"
    # The server must still answer correctly, on a new connection.
    follow_up = raw.call("ListTables", {})
    assert follow_up.status == 200
    assert isinstance(follow_up.json()["TableNames"], list)


def test_error_responses_do_not_leak_request_state(raw):
    # A failing request on a connection must not poison the next request on it.
    conn = raw.connection()
    try:
        bad = raw.send(b'{"TableName": "', operation="DescribeTable", conn=conn)
        assert bad.status == 400
        good = raw.send({"Limit": 1}, operation="ListTables", conn=conn)
        assert good.status == 200
        assert "TableNames" in good.json()
    finally:
        conn.close()


def test_content_length_matches_body_for_large_response(raw, ddb, make_table):
    # A response noticeably larger than a single TCP segment is framed correctly.
    name = make_table()
    blob = "x" * 200_000
    ddb.put_item(TableName=name, Item={"pk": {"S": "big"}, "v": {"S": blob}})
    resp = raw.call("GetItem", {"TableName": name, "Key": {"pk": {"S": "big"}}, "ConsistentRead": True})
    assert resp.status == 200
    assert resp.json()["Item"]["v"]["S"] == blob
    assert_standard_headers(resp)
