"""HTTP details of the service as it answers today: compressed request bodies, compressed
responses, Date/Server headers, CORS, non-object JSON bodies, tag operations' empty bodies.

Compression facts are ScyllaDB Alternator's measurements against DynamoDB (2025,
test_compressed_request.py / test_compressed_response.py): gzip and deflate request bodies are
inflated, concatenated gzip members are one body, a corrupt / truncated / empty compressed body
or an unknown coding is answered 500; responses of 4 KiB and more are compressed when
Accept-Encoding allows it, with DynamoDB's weighting rules. CORS preflight headers as captured
from dynamodb.us-east-1 (aws cors-test, 2020)."""

from __future__ import annotations

import gzip
import json
import re
import zlib

import pytest

from ddb_helpers import check_raw_error

THRESHOLD = 4096
DATE_RE = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$")


def _put(raw, table, pk, body_bytes=None, encoding=None, **extra):
    payload = json.dumps({"TableName": table, "Item": {"pk": {"S": pk}, **extra}}).encode()
    data = body_bytes(payload) if body_bytes else payload
    headers = {"Content-Encoding": encoding} if encoding else {}
    return raw.send(data, operation="PutItem", headers=headers)


def _stored(ddb, table, pk):
    return ddb.get_item(TableName=table, Key={"pk": {"S": pk}}, ConsistentRead=True).get("Item")


@pytest.mark.parametrize("encoding, compress", [("gzip", gzip.compress), ("deflate", zlib.compress),
                                                ("GZIP", gzip.compress)])
def test_compressed_request_bodies_are_inflated(raw, ddb, hash_table, encoding, compress):
    resp = _put(raw, hash_table, f"z-{encoding}", compress, encoding, v={"S": "value"})
    assert resp.status == 200, resp.body
    assert _stored(ddb, hash_table, f"z-{encoding}")["v"] == {"S": "value"}


def test_concatenated_gzip_members_are_one_body(raw, ddb, hash_table):
    resp = _put(raw, hash_table, "z-two", lambda p: gzip.compress(p[:10]) + gzip.compress(p[10:]), "gzip")
    assert resp.status == 200, resp.body
    assert _stored(ddb, hash_table, "z-two") is not None


@pytest.mark.parametrize("case, encoding, transform", [
    ("not compressed", "gzip", lambda p: p),
    ("truncated", "gzip", lambda p: gzip.compress(p)[:-1]),
    ("empty", "gzip", lambda p: b""),
    ("deflate not compressed", "deflate", lambda p: p),
    ("deflate empty", "deflate", lambda p: b""),
    ("unknown coding", "garbage", lambda p: p),
])
def test_undecodable_bodies_are_answered_500_and_write_nothing(raw, ddb, hash_table, case, encoding, transform):
    pk = "z-bad-" + case.replace(" ", "-")
    resp = _put(raw, hash_table, pk, transform, encoding)
    assert resp.status == 500
    assert resp.json()["__type"].endswith("InternalServerError")
    assert resp.header("x-amz-crc32") == str(zlib.crc32(resp.body))
    assert _stored(ddb, hash_table, pk) is None


def test_the_size_limit_applies_to_the_inflated_body(raw, hash_table):
    payload = b'{"TableName": "' + hash_table.encode() + b'"' + b" " * (17 * 1024 * 1024) + b"}"
    resp = raw.send(gzip.compress(payload), operation="DescribeTable", headers={"Content-Encoding": "gzip"})
    assert resp.status == 413


@pytest.fixture(scope="module")
def big_item(hash_table, ddb):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "big"}, "x": {"S": "x" * THRESHOLD}})
    return {"TableName": hash_table, "Key": {"pk": {"S": "big"}}}


def _decoded(resp):
    encoding = resp.header("content-encoding")
    # botocore's check: the CRC is of the bytes on the wire.
    assert resp.header("x-amz-crc32") == str(zlib.crc32(resp.body))
    assert int(resp.header("content-length")) == len(resp.body)
    if encoding == "gzip":
        return json.loads(gzip.decompress(resp.body))
    if encoding == "deflate":
        return json.loads(zlib.decompress(resp.body))
    assert encoding is None
    return resp.json()


@pytest.mark.parametrize("accept, expected", [
    (None, None), ("identity", None), ("", None), ("br", None), ("x-gzip", None), ("compress", None),
    ("gzip", "gzip"), ("deflate", "deflate"), ("gzip, deflate", "gzip"),
    ("br, identity, deflate, gzip", "deflate"), ("GZIP, identity", "gzip"), ("dog, gzip ,, cat", "gzip"),
    ("gzip;q=0.8, deflate;q=0.5", "gzip"), ("br, gzip;q=0, deflate; q = 0.5 , identity;q=0", "deflate"),
    ("*", "gzip"), ("*, deflate;q=0.5", "gzip"), ("*, deflate", "deflate"), ("*, identity", "gzip"),
    ("*, gzip;q=0.5", "deflate"), ("gzip ;q=0", None), ("identity;q=0", None), ("*;q=0", None),
    ("*;q=0.5,identity", "gzip"), ("gzip;q=0.5,identity;q=0.8", "gzip"), ("br;q=0.8,identity;q=0.5,*;q=0", None),
    ('"gzip"', None), ("gzip br", None), ("gzip:q=1", None), ("deflate;q=0.5, gzip;q=31", "gzip"),
    ("gzip;q=31,deflate;q=51", "gzip"), ("deflate;q=0.5, gzip;q=0.2", "deflate"),
    ("deflate;q=0.5, gzip;q=1;q=0.2", "gzip"), ("deflate;q=0.5,gzip;q=0.", "deflate"),
    ("deflate;q=0.5,gzip;q=0.x", "gzip"), ("deflate;q=-0.5,gzip;q=0.2", "gzip"), ("gzip;nq=1;q=0 ", None),
    ("gzip;q=0, gzip;q=1, gzip;q=0", "gzip"), ("br,identity;q=0.5,gzip;q=0.0001", "gzip"),
])
def test_responses_of_4_kib_are_compressed_as_accept_encoding_allows(raw, big_item, accept, expected):
    headers = {} if accept is None else {"Accept-Encoding": accept}
    resp = raw.call("GetItem", big_item, headers=headers)
    assert resp.status == 200
    assert resp.header("content-encoding") == expected
    assert _decoded(resp)["Item"]["x"]["S"] == "x" * THRESHOLD


def test_responses_under_4_kib_are_not_compressed(raw, ddb, hash_table):
    value = "y" * (THRESHOLD - 100)
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "small"}, "x": {"S": value}})
    resp = raw.call("GetItem", {"TableName": hash_table, "Key": {"pk": {"S": "small"}}},
                    headers={"Accept-Encoding": "gzip"})
    assert len(resp.body) < THRESHOLD
    assert resp.header("content-encoding") is None
    assert resp.json()["Item"]["x"]["S"] == value


@pytest.mark.parametrize("payload", [{}, {"TableName": 5}])
def test_every_answer_has_date_and_server(raw, payload):
    resp = raw.call("DescribeTable" if payload else "ListTables", payload)
    assert resp.header("server") == "Server"
    assert DATE_RE.match(resp.header("date") or ""), resp.headers


def test_cors_preflight_answers_as_dynamodb(raw):
    requested = "Content-Type,X-Amz-Target,user-agent,content-length,host,Authorization"
    resp = raw.send(b"", method="OPTIONS", target=None, auth=None, content_type=None,
                    headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                             "Access-Control-Request-Headers": requested})
    assert resp.status == 200
    assert resp.body == b""
    assert resp.header("access-control-allow-origin") == "*"
    assert resp.header("access-control-allow-headers") == requested
    assert resp.header("access-control-allow-methods") == "POST"
    assert resp.header("access-control-max-age") == "172800"
    assert resp.header("x-amzn-requestid")
    assert DATE_RE.match(resp.header("date") or "")


@pytest.mark.parametrize("payload", [{}, {"TableName": "nope-missing-table"}])
def test_browsers_may_read_the_request_id_and_crc(raw, payload):
    resp = raw.call("DescribeTable" if payload else "ListTables", payload, headers={"Origin": "https://app.example"})
    assert resp.header("access-control-allow-origin") == "*"
    exposed = [name.strip().lower() for name in resp.header("access-control-expose-headers").split(",")]
    assert {"x-amzn-requestid", "x-amz-crc32", "x-amzn-errortype", "x-amzn-errormessage", "date"} <= set(exposed)


@pytest.mark.parametrize("body", [b"null", b" null ", b"[]", b'"ListTables"', b"5", b"true"])
def test_a_body_that_is_no_json_object_is_a_serialization_exception(raw, body):
    resp = raw.send(body, operation="ListTables")
    check_raw_error(resp, "SerializationException")


def test_tag_and_untag_answer_with_an_empty_body(raw, ddb, hash_table):
    arn = ddb.describe_table(TableName=hash_table)["Table"]["TableArn"]
    tagged = raw.call("TagResource", {"ResourceArn": arn, "Tags": [{"Key": "k", "Value": "v"}]})
    assert (tagged.status, tagged.body) == (200, b"")
    untagged = raw.call("UntagResource", {"ResourceArn": arn, "TagKeys": ["k"]})
    assert (untagged.status, untagged.body) == (200, b"")


def _raw_exchange(raw, request: bytes) -> bytes:
    import socket
    with socket.create_connection((raw.host, raw.port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_an_over_long_request_target_is_refused_400(raw):
    # DynamoDB answers a 17,000-byte path 400 (not a signature error: it never reads that far).
    body = b"{}"
    request = (b"POST /" + b"x" * 17000 + b" HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
               b"X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 2\r\n\r\n" + body)
    answer = _raw_exchange(raw, request)
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert b"InvalidSignature" not in answer


def test_a_path_under_the_limit_is_still_served(raw):
    resp = raw.call("ListTables", {}, path="/" + "x" * 15000)
    assert resp.status == 200


def test_an_over_long_header_block_is_refused_400(raw):
    request = (b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Filler: " + b"a" * (100 * 1024) +
               b"\r\nContent-Length: 0\r\n\r\n")
    assert _raw_exchange(raw, request).startswith(b"HTTP/1.1 400 ")


def test_answers_prepared_off_the_event_loop_are_compressed_too(raw, big_item):
    # Scan runs on the thread pool; its answer is compressed there, before it is written.
    resp = raw.call("Scan", {"TableName": big_item["TableName"]}, headers={"Accept-Encoding": "deflate"})
    assert resp.status == 200
    assert resp.header("content-encoding") == "deflate"
    assert any(item["x"]["S"] == "x" * THRESHOLD for item in _decoded(resp)["Items"] if "x" in item)
