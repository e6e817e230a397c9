"""Helpers shared by the conformance tests (imported by conftest.py and the test modules).

Everything here is deliberately independent of the server implementation: it only
speaks HTTP / the DynamoDB JSON 1.0 protocol.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import time
import urllib.parse
import uuid
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence

import pytest
from botocore.exceptions import ClientError

API_VERSION = "DynamoDB_20120810"
JSON_10 = "application/x-amz-json-1.0"
REGION = "us-east-1"

# A syntactically complete SigV4 Authorization header. The server does not verify
# signatures; it only requires that such a header is present.
FAKE_AUTHORIZATION = (
    "AWS4-HMAC-SHA256 Credential=testing/20240101/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
    "Signature=" + "0" * 64
)
FAKE_AMZ_DATE = "20240101T000000Z"

# Fully qualified "__type" values used on the wire by real DynamoDB.
_CORAL_SERVICE = "com.amazon.coral.service#"
_CORAL_VALIDATE = "com.amazon.coral.validate#"
_DYNAMODB = "com.amazonaws.dynamodb.v20120810#"
_SERVICE_LEVEL = {
    "SerializationException",
    "UnknownOperationException",
    "MissingAuthenticationTokenException",
    "IncompleteSignatureException",
    "InvalidSignatureException",
    "AccessDeniedException",
}


def wire_type(code: str) -> str:
    """The fully qualified __type string real DynamoDB sends for an error code."""
    if code == "ValidationException":
        return _CORAL_VALIDATE + code
    if code in _SERVICE_LEVEL:
        return _CORAL_SERVICE + code
    return _DYNAMODB + code


# ---------------------------------------------------------------------------
# Error message matching
# ---------------------------------------------------------------------------

# In 2026 DynamoDB began wrapping the "bespoke" ValidationException messages that PutItem,
# UpdateItem and DeleteItem's request validation returns in the envelope of its constraint
# violations ("1 validation error detected: <message>"); the 2026-08-12 capture of us-east-1
# shows it, and shows Query, Scan, the batches, transactions and table operations still answering
# the bare text. Tests state the bare text; for those three operations (and raw responses, whose
# operation the helper does not know) the enveloped text is accepted too, since which of their
# messages come from request validation and which from evaluating the item is the server's
# business. Every other operation must answer exactly the text given.
ENVELOPE = "1 validation error detected: "
ENVELOPED_OPERATIONS = frozenset({"PutItem", "UpdateItem", "DeleteItem"})
_ENVELOPED_RE = re.compile(r"^\d+ validation errors? detected: ")


def accepted_messages(
    code: str, message: str, alternatives: Sequence[str] = (), operation: Optional[str] = None
) -> list[str]:
    msgs = [message, *alternatives]
    if code == "ValidationException" and (operation is None or operation in ENVELOPED_OPERATIONS):
        msgs += [ENVELOPE + m for m in msgs if not _ENVELOPED_RE.match(m)]
    return msgs


def check_error_parts(
    code_seen: str,
    message_seen: Optional[str],
    code: str,
    message: Optional[str] = None,
    *,
    alternatives: Sequence[str] = (),
    contains: Iterable[str] = (),
    operation: Optional[str] = None,
) -> None:
    assert code_seen == code, f"expected error code {code!r}, got {code_seen!r} (message: {message_seen!r})"
    if message is not None:
        options = accepted_messages(code, message, alternatives, operation)
        assert message_seen in options, (
            f"unexpected {code} message.\n  got:      {message_seen!r}\n  expected: {options[0]!r}"
            + ("".join(f"\n  or:       {o!r}" for o in options[1:]))
        )
    for fragment in contains:
        assert message_seen is not None and fragment in message_seen, (
            f"{code} message {message_seen!r} does not contain {fragment!r}"
        )


def check_client_error(
    err: ClientError,
    code: str,
    message: Optional[str] = None,
    *,
    alternatives: Sequence[str] = (),
    contains: Iterable[str] = (),
    status: int = 400,
) -> None:
    resp = err.response
    check_error_parts(
        resp.get("Error", {}).get("Code"),
        resp.get("Error", {}).get("Message"),
        code,
        message,
        alternatives=alternatives,
        contains=contains,
        operation=err.operation_name,
    )
    assert resp["ResponseMetadata"]["HTTPStatusCode"] == status


@contextlib.contextmanager
def expect_error(
    code: str,
    message: Optional[str] = None,
    *,
    alternatives: Sequence[str] = (),
    contains: Iterable[str] = (),
    status: int = 400,
):
    """Context manager asserting that a boto3 call raises the given DynamoDB error."""
    with pytest.raises(ClientError) as excinfo:
        yield excinfo
    check_client_error(
        excinfo.value, code, message, alternatives=alternatives, contains=contains, status=status
    )


def check_raw_error(
    resp: "RawResponse",
    code: str,
    message: Optional[str] = None,
    *,
    alternatives: Sequence[str] = (),
    contains: Iterable[str] = (),
    status: int = 400,
) -> dict:
    """Assert a raw HTTP response is a DynamoDB JSON error of the given code."""
    assert resp.status == status, f"expected HTTP {status}, got {resp.status}: {resp.body[:500]!r}"
    try:
        body = resp.json()
    except ValueError:
        raise AssertionError(f"error body is not JSON: {resp.body[:500]!r}") from None
    assert isinstance(body, dict), body
    assert body.get("__type") == wire_type(code), f"unexpected __type in {body!r}"
    msg = body.get("message", body.get("Message"))
    check_error_parts(code, msg, code, message, alternatives=alternatives, contains=contains)
    return body


# ---------------------------------------------------------------------------
# Raw HTTP access
# ---------------------------------------------------------------------------


@dataclass
class RawResponse:
    status: int
    headers: dict  # lower-cased header names
    body: bytes
    will_close: bool = False

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name.lower())


_DEFAULT = object()


class RawHttp:
    """Minimal HTTP/1.1 client that sends arbitrary bytes with chosen headers.

    Nothing is signed. By default a well-formed (fake) SigV4 Authorization header,
    X-Amz-Date and the JSON 1.0 content type are sent; each can be overridden or
    removed (pass None).
    """

    def __init__(self, url: str, timeout: float = 30.0):
        parsed = urllib.parse.urlsplit(url)
        assert parsed.scheme == "http", f"only http endpoints are supported, got {url!r}"
        self.host = parsed.hostname or "127.0.0.1"
        self.port = parsed.port or 80
        self.timeout = timeout

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def send(
        self,
        body: Any = b"",
        *,
        target: Any = _DEFAULT,
        operation: Optional[str] = None,
        auth: Any = _DEFAULT,
        content_type: Any = JSON_10,
        headers: Optional[dict] = None,
        method: str = "POST",
        path: str = "/",
        conn: Optional[http.client.HTTPConnection] = None,
    ) -> RawResponse:
        if isinstance(body, (dict, list)):
            data = json.dumps(body).encode("utf-8")
        elif isinstance(body, str):
            data = body.encode("utf-8")
        elif body is None:
            data = b""
        else:
            data = bytes(body)

        if target is _DEFAULT:
            target = f"{API_VERSION}.{operation or 'ListTables'}"
        if auth is _DEFAULT:
            auth = FAKE_AUTHORIZATION

        hdrs = {}
        if content_type is not None:
            hdrs["Content-Type"] = content_type
        if target is not None:
            hdrs["X-Amz-Target"] = target
        if auth is not None:
            hdrs["Authorization"] = auth
            hdrs["X-Amz-Date"] = FAKE_AMZ_DATE
        if headers:
            hdrs.update(headers)

        own = conn is None
        c = conn or self.connection()
        try:
            if method in ("GET", "HEAD", "DELETE", "OPTIONS") and not data:
                c.request(method, path, headers=hdrs)
            else:
                c.request(method, path, body=data, headers=hdrs)
            r = c.getresponse()
            payload = r.read()
            return RawResponse(
                status=r.status,
                headers={k.lower(): v for k, v in r.getheaders()},
                body=payload,
                will_close=r.will_close,
            )
        finally:
            if own:
                c.close()

    def call(self, operation: str, payload: Any, **kwargs) -> RawResponse:
        """Send a JSON payload to a DynamoDB operation (target derived from the name)."""
        return self.send(payload, operation=operation, **kwargs)


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------


def unique_name(tag: str = "t") -> str:
    return f"ldc-{tag}-{uuid.uuid4().hex[:12]}"


def wait_until_active(client, name: str, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        table = client.describe_table(TableName=name)["Table"]
        if table["TableStatus"] == "ACTIVE" and all(
            gsi.get("IndexStatus") == "ACTIVE" for gsi in table.get("GlobalSecondaryIndexes", [])
        ):
            return table
        if time.monotonic() > deadline:
            raise AssertionError(f"table {name} did not become ACTIVE (last status {table['TableStatus']})")
        time.sleep(0.1)


def poll_until(read, expected, timeout: float = 5.0):
    """Calls read() until it returns `expected`, for at most `timeout` seconds; returns the last
    value (for asynchronous effects such as global-table replication)."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if value == expected or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def wait_until_gone(client, name: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.describe_table(TableName=name)
        except ClientError as e:
            if e.response["Error"]["Code"] == "ResourceNotFoundException":
                return
            raise
        if time.monotonic() > deadline:
            raise AssertionError(f"table {name} still exists {timeout}s after DeleteTable")
        time.sleep(0.1)


class TableFactory:
    """Creates uniquely named tables and deletes them again on cleanup()."""

    def __init__(self, client, tag: str = "t"):
        self.client = client
        self.tag = tag
        self.created: list[str] = []

    def create(
        self,
        hash_key: tuple = ("pk", "S"),
        range_key: Optional[tuple] = None,
        *,
        billing_mode: Optional[str] = "PAY_PER_REQUEST",
        throughput: Optional[tuple] = None,
        name: Optional[str] = None,
        wait: bool = True,
        **extra,
    ) -> str:
        name = name or unique_name(self.tag)
        attrs = [{"AttributeName": hash_key[0], "AttributeType": hash_key[1]}]
        schema = [{"AttributeName": hash_key[0], "KeyType": "HASH"}]
        if range_key:
            attrs.append({"AttributeName": range_key[0], "AttributeType": range_key[1]})
            schema.append({"AttributeName": range_key[0], "KeyType": "RANGE"})
        params = dict(TableName=name, AttributeDefinitions=attrs, KeySchema=schema)
        if billing_mode == "PAY_PER_REQUEST":
            params["BillingMode"] = "PAY_PER_REQUEST"
        else:
            if billing_mode is not None:
                params["BillingMode"] = billing_mode
            rcu, wcu = throughput or (5, 5)
            params["ProvisionedThroughput"] = {"ReadCapacityUnits": rcu, "WriteCapacityUnits": wcu}
        params.update(extra)
        self.client.create_table(**params)
        self.created.append(name)
        if wait:
            wait_until_active(self.client, name)
        return name

    def cleanup(self) -> None:
        for name in reversed(self.created):
            try:
                table = self.client.describe_table(TableName=name)["Table"]
                if table.get("DeletionProtectionEnabled"):
                    wait_until_active(self.client, name)
                    self.client.update_table(TableName=name, DeletionProtectionEnabled=False)
                    wait_until_active(self.client, name)
                self.client.delete_table(TableName=name)
            except ClientError:
                pass
            except Exception:  # pragma: no cover - cleanup must never mask a test result
                pass
        self.created.clear()


def admin_call(url: str, method: str, path: str, body: dict | None = None,
               credentials: tuple[str, ...] | None = None) -> tuple[int, dict]:
    """Calls the admin API (`/_localdynamo/...`): returns the HTTP status and the JSON answer,
    for errors too. With `credentials` (key id, secret[, session token]) the call is signed
    with SigV4 as botocore signs DynamoDB calls (service `dynamodb`, region us-east-1), as a
    server run with `--require-auth` requires."""
    import urllib.error
    import urllib.request

    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if credentials is not None:
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials

        unsigned = AWSRequest(method=method, url=url + path, data=data or b"", headers=headers)
        SigV4Auth(Credentials(*credentials), "dynamodb", REGION).add_auth(unsigned)
        headers = dict(unsigned.headers.items())
    request = urllib.request.Request(url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
