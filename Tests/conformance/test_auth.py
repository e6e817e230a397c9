"""`serve --require-auth --credentials FILE`: SigV4 verification of every request (botocore,
the AWS CLI, presigned URLs), DynamoDB's errors for everything tampered with, SIGHUP reloads,
signed admin calls, the bind warning, hostile access keys and what the debug log never shows."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.parse
from pathlib import Path

import boto3
import pytest
from botocore.auth import SigV4Auth, SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import FAKE_AMZ_DATE, admin_call, poll_until

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server process"
)

ALICE = ("AKIDALICE", "alice-secret")
TEMP = ("ASIATEMP", "temp-secret", "temp-token")
CREDENTIALS = f"""# accepted identities
[alice]
aws_access_key_id = {ALICE[0]}
aws_secret_access_key = {ALICE[1]}

[temporary]
aws_access_key_id = {TEMP[0]}
aws_secret_access_key = {TEMP[1]}
aws_session_token = {TEMP[2]}
"""
MISMATCH = ("The request signature we calculated does not match the signature you provided. Check your AWS Secret "
            "Access Key and signing method. Consult the service documentation for details.")
MARKER = "item-value-never-logged-7f3a"


def start(tmp_path: Path, *extra: str) -> ServerProcess:
    credentials = tmp_path / "credentials"
    credentials.write_text(CREDENTIALS)
    process = ServerProcess(_resolve_binary(), ["--in-memory", "--require-auth", "--credentials", str(credentials),
                                                "--log-level", "debug", *extra])
    process.start()
    process.credentials_path = credentials
    return process


@pytest.fixture
def server(tmp_path):
    process = start(tmp_path)
    yield process
    process.stop()


def client(url: str, credentials=ALICE, region: str = "us-east-1"):
    return boto3.client("dynamodb", endpoint_url=url, region_name=region, aws_access_key_id=credentials[0],
                        aws_secret_access_key=credentials[1],
                        aws_session_token=credentials[2] if len(credentials) > 2 else None,
                        config=Config(retries={"total_max_attempts": 1}))


def error(call) -> tuple[str, str, int]:
    with pytest.raises(ClientError) as raised:
        call()
    response = raised.value.response
    return response["Error"]["Code"], response["Error"]["Message"], response["ResponseMetadata"]["HTTPStatusCode"]


def signed_request(url: str, target: str = "ListTables", body: dict | None = None, credentials=ALICE) -> AWSRequest:
    request = AWSRequest(method="POST", url=url + "/", data=json.dumps(body or {}).encode(), headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": f"DynamoDB_20120810.{target}"})
    SigV4Auth(Credentials(*credentials), "dynamodb", "us-east-1").add_auth(request)
    return request


def send(url: str, method: str, path: str, headers: dict, body: bytes) -> tuple[int, dict]:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    if not any(name.lower() == "host" for name in headers):
        headers = {"Host": parts.netloc, **headers}
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    text = response.read()
    connection.close()
    return response.status, (json.loads(text) if text.startswith(b"{") else {"raw": text.decode()})


def code_of(answer: tuple[int, dict]) -> tuple[int, str, str | None]:
    status, body = answer
    return status, body.get("__type", body.get("raw", "")).split("#")[-1], body.get("message")


def test_botocore_signed_requests_pass_and_bad_ones_fail(server):
    ddb = client(server.url)
    ddb.create_table(TableName="Orders", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    ddb.put_item(TableName="Orders", Item={"pk": {"S": "a"}, "secret": {"S": MARKER}})
    assert ddb.get_item(TableName="Orders", Key={"pk": {"S": "a"}})["Item"]["secret"]["S"] == MARKER
    assert "Orders" in client(server.url, TEMP).list_tables()["TableNames"]  # session credentials

    assert error(lambda: client(server.url, ("AKIDALICE", "wrong")).list_tables()) == ("InvalidSignatureException", MISMATCH, 400)
    assert error(lambda: client(server.url, ("AKIDBOB", "x")).list_tables()) == (
        "UnrecognizedClientException", "The security token included in the request is invalid.", 400)
    assert error(lambda: client(server.url, (TEMP[0], TEMP[1])).list_tables()) == (
        "UnrecognizedClientException", "The security token included in the request is invalid", 400)
    assert error(lambda: client(server.url, (TEMP[0], TEMP[1], "other")).list_tables())[0] == "UnrecognizedClientException"
    unsigned = send(server.url, "POST", "/", {"Host": server.url[7:], "Content-Type": "application/x-amz-json-1.0",
                                              "X-Amz-Target": "DynamoDB_20120810.ListTables"}, b"{}")
    assert code_of(unsigned) == (400, "MissingAuthenticationTokenException", "Request is missing Authentication Token")
    # Streams sign as dynamodb too.
    streams = boto3.client("dynamodbstreams", endpoint_url=server.url, region_name="us-east-1",
                           aws_access_key_id=ALICE[0], aws_secret_access_key=ALICE[1])
    assert streams.list_streams()["Streams"] == []


def test_the_aws_cli_signs_its_way_in(server):
    exe = shutil.which("aws")
    base = [exe] if exe else [sys.executable, "-m", "awscli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_ACCESS_KEY_ID=ALICE[0], AWS_SECRET_ACCESS_KEY=ALICE[1], AWS_DEFAULT_REGION="us-east-1",
               AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull, AWS_MAX_ATTEMPTS="1", AWS_PAGER="")
    run = lambda: subprocess.run([*base, "dynamodb", "list-tables", "--endpoint-url", server.url, "--output", "json"],
                                 env=env, capture_output=True, text=True, timeout=60)
    answer = run()
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout)["TableNames"] == []
    env["AWS_SECRET_ACCESS_KEY"] = "wrong"
    answer = run()
    assert answer.returncode != 0 and "InvalidSignatureException" in answer.stderr


def test_every_signed_part_tampered_fails(server):
    url = server.url
    body = {"TableName": "Missing"}

    def attempt(change) -> tuple[int, str, str | None]:
        request = signed_request(url, "DescribeTable", body)
        parts = {"method": "POST", "path": "/", "headers": dict(request.headers.items()), "body": request.body}
        change(parts)
        return code_of(send(url, parts["method"], parts["path"], parts["headers"], parts["body"]))

    untouched = attempt(lambda parts: None)
    assert untouched[1] == "ResourceNotFoundException"  # the signature itself is good

    def header(name, value):
        return lambda parts: parts["headers"].__setitem__(name, value)

    def authorization(old, new):
        return lambda parts: parts["headers"].__setitem__(
            "Authorization", parts["headers"]["Authorization"].replace(old, new))

    mismatch = (400, "InvalidSignatureException", MISMATCH)
    cases = {
        # DynamoDB answers any method but POST as an unknown operation, before looking at signatures.
        "method": (lambda parts: parts.__setitem__("method", "PUT"), (404, "<UnknownOperationException/>\n", None)),
        "path": (lambda parts: parts.__setitem__("path", "/other"), mismatch),
        "query": (lambda parts: parts.__setitem__("path", "/?a=b"), mismatch),
        "host": (header("Host", "localhost:1"), mismatch),
        "content-type": (header("Content-Type", "application/json"), mismatch),
        "x-amz-target": (header("X-Amz-Target", "DynamoDB_20120810.ListTables"), mismatch),
        "x-amz-date": (lambda parts: parts["headers"].__setitem__(  # a few seconds off: inside the window
            "X-Amz-Date", parts["headers"]["X-Amz-Date"][:-3] + ("00Z" if parts["headers"]["X-Amz-Date"][-3:] != "00Z" else "01Z")), mismatch),
        "body": (lambda parts: parts.__setitem__("body", json.dumps({"TableName": "Missinh"}).encode()), mismatch),
        "region": (authorization("/us-east-1/", "/eu-west-1/"), mismatch),
        "service": (authorization("/dynamodb/", "/dynamodbx/"),
                    (400, "InvalidSignatureException", "Credential should be scoped to correct service: 'dynamodb'.")),
        "access key": (authorization("AKIDALICE/", "AKIDBOB/"),
                       (400, "UnrecognizedClientException", "The security token included in the request is invalid.")),
        "signature": (lambda parts: parts["headers"].__setitem__(
            "Authorization", parts["headers"]["Authorization"][:-1] + ("0" if parts["headers"]["Authorization"][-1] != "0" else "1")), mismatch),
    }
    for name, (change, expected) in cases.items():
        assert attempt(change) == expected, name

    def scope_day(parts):
        stamp = parts["headers"]["X-Amz-Date"]
        parts["headers"]["Authorization"] = parts["headers"]["Authorization"].replace(f"/{stamp[:8]}/", "/20000101/")
    status, code, message = attempt(scope_day)
    assert (status, code) == (400, "InvalidSignatureException")
    assert message.startswith("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '20000101' != ")

    # The session token of a temporary identity is signed, and must be the identity's.
    request = signed_request(url, credentials=TEMP)
    headers = dict(request.headers.items())
    headers["X-Amz-Security-Token"] = "other"
    assert code_of(send(url, "POST", "/", headers, request.body)) == mismatch
    request = signed_request(url, credentials=(TEMP[0], TEMP[1], "forged"))
    assert code_of(send(url, "POST", "/", dict(request.headers.items()), request.body)) == (
        400, "UnrecognizedClientException", "The security token included in the request is invalid")


def test_request_time_window_reads_the_server_clock(tmp_path):
    process = start(tmp_path, "--clock-skew", "60")
    try:
        request = signed_request(process.url)
        status, _ = admin_call(process.url, "POST", "/_localdynamo/clock", {"advanceSeconds": 30}, credentials=ALICE)
        assert status == 200
        # 30 s behind the server clock: inside the window.
        assert send(process.url, "POST", "/", dict(request.headers.items()), request.body) == (200, {"TableNames": []})
        admin_call(process.url, "POST", "/_localdynamo/clock", {"advanceSeconds": 31}, credentials=ALICE)
        status, code, message = code_of(send(process.url, "POST", "/", dict(request.headers.items()), request.body))
        assert (status, code) == (400, "InvalidSignatureException")
        stamp = request.headers["X-Amz-Date"]
        assert message.startswith(f"Signature expired: {stamp} is now earlier than ") and message.endswith(" - 1 min.)")
    finally:
        process.stop()


class BodyKeepingQueryAuth(SigV4QueryAuth):
    """botocore's presigner, minus its habit of moving a form body into the query: a DynamoDB
    call's JSON body stays the body and is signed by its hash."""

    def _modify_request_before_signing(self, request):
        data = request.data
        request.data = b""
        super()._modify_request_before_signing(request)
        request.data = data


def test_presigned_urls_are_accepted_until_they_expire(tmp_path):
    process = start(tmp_path)
    try:
        request = AWSRequest(method="POST", url=process.url + "/", data=b"{}", headers={
            "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.ListTables"})
        BodyKeepingQueryAuth(Credentials(*ALICE), "dynamodb", "us-east-1", expires=120).add_auth(request)
        assert "Authorization" not in request.headers and "X-Amz-Signature=" in request.url
        path = request.url[len(process.url):]
        headers = dict(request.headers.items())
        headers["Host"] = process.url[7:]
        assert send(process.url, "POST", path, headers, request.body) == (200, {"TableNames": []})
        tampered = path.replace("X-Amz-Expires=120", "X-Amz-Expires=600")
        assert code_of(send(process.url, "POST", tampered, headers, request.body)) == (400, "InvalidSignatureException", MISMATCH)
        admin_call(process.url, "POST", "/_localdynamo/clock", {"advanceSeconds": 180}, credentials=ALICE)
        status, code, message = code_of(send(process.url, "POST", path, headers, request.body))
        assert (status, code) == (400, "InvalidSignatureException")
        assert message.startswith("Signature expired: ") and message.endswith(" - 120 sec.)")
    finally:
        process.stop()


def test_sighup_rereads_the_credentials_file(server):
    bob = ("AKIDBOB", "bob-secret")
    assert error(lambda: client(server.url, bob).list_tables())[0] == "UnrecognizedClientException"
    server.credentials_path.write_text(CREDENTIALS + f"\n[bob]\naws_access_key_id = {bob[0]}\naws_secret_access_key = {bob[1]}\n")
    server.proc.send_signal(signal.SIGHUP)

    def bob_gets_in():
        try:
            return client(server.url, bob).list_tables()["TableNames"] == []
        except ClientError:
            return False
    poll_until(bob_gets_in, True, timeout=10)
    assert client(server.url).list_tables()["TableNames"] == []  # the others stay
    server.credentials_path.write_text("[broken]\naws_access_key_id = x\n")  # no secret: refused, identities kept
    server.proc.send_signal(signal.SIGHUP)
    poll_until(lambda: "credentials file not reloaded" in server.stderr_text(), True, timeout=10)
    assert client(server.url, bob).list_tables()["TableNames"] == []


def test_admin_calls_need_the_same_credentials(server):
    status, answer = admin_call(server.url, "GET", "/_localdynamo/clock")
    assert status == 403 and answer["error"].startswith("MissingAuthenticationTokenException")
    status, answer = admin_call(server.url, "GET", "/_localdynamo/clock", credentials=("AKIDALICE", "wrong"))
    assert status == 403 and answer["error"].startswith("InvalidSignatureException")
    status, answer = admin_call(server.url, "GET", "/_localdynamo/clock", credentials=ALICE)
    assert status == 200 and "epochSeconds" in answer
    status, answer = admin_call(server.url, "POST", "/_localdynamo/clock", {"advanceSeconds": 0}, credentials=TEMP)
    assert status == 200


def test_the_debug_log_holds_no_item_values_secrets_or_signatures(server):
    ddb = client(server.url)
    ddb.create_table(TableName="Logged", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    ddb.put_item(TableName="Logged", Item={"pk": {"S": MARKER}, "v": {"S": MARKER}})
    ddb.get_item(TableName="Logged", Key={"pk": {"S": MARKER}})
    error(lambda: ddb.put_item(TableName="Logged", Item={"pk": {"S": MARKER}}, ConditionExpression="attribute_not_exists(pk)"))
    error(lambda: client(server.url, ("AKIDALICE", "wrong-secret")).list_tables())
    request = signed_request(server.url)
    send(server.url, "POST", "/", dict(request.headers.items()), request.body)
    signature = request.headers["Authorization"].rsplit("Signature=", 1)[1]
    log = server.stderr_text()
    assert '"request"' in log or "request" in log  # the debug log is on
    for secret in (MARKER, ALICE[1], TEMP[1], TEMP[2], "wrong-secret", signature):
        assert secret not in log, f"{secret!r} appears in the debug log"


def test_binding_beyond_loopback_without_auth_warns(tmp_path):
    binary = _resolve_binary()
    process = subprocess.Popen([str(binary), "serve", "--in-memory", "--port", "0", "--host", "0.0.0.0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert "listening on" in line
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    assert "warning: listening on 0.0.0.0 without --require-auth" in stderr
    quiet = ServerProcess(binary, ["--in-memory"])
    quiet.start()
    quiet.stop()
    assert "warning" not in Path(quiet.stderr_file.name).read_text()


@pytest.mark.parametrize("access_key", ["..", ".", "..\\..", "~", "%2e%2e", "a b", "\u00e9\u2028", "x" * 300])
def test_hostile_access_keys_stay_inside_the_database_directory(tmp_path, access_key):
    data = tmp_path / "data"
    process = ServerProcess(_resolve_binary(), ["--db-path", str(data), "--per-access-key"])
    process.start()
    try:
        authorization = (f"AWS4-HMAC-SHA256 Credential={access_key}/20240101/us-east-1/dynamodb/aws4_request, "
                         "SignedHeaders=host;x-amz-date, Signature=" + "0" * 64)
        status, body = send(process.url, "POST", "/", {
            "Host": process.url[7:], "Content-Type": "application/x-amz-json-1.0", "X-Amz-Date": FAKE_AMZ_DATE,
            "X-Amz-Target": "DynamoDB_20120810.CreateTable", "Authorization": authorization.encode("utf-8").decode("latin-1")},
            json.dumps({"TableName": "Tab", "BillingMode": "PAY_PER_REQUEST",
                        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}).encode())
        assert status == 200, body
    finally:
        process.stop()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    for path in data.rglob("*"):
        assert path.parent == data, path
        assert len(path.name.encode()) <= 255
        assert not path.name.startswith("."), path


def test_namespaces_follow_the_verified_access_key(tmp_path):
    process = start(tmp_path, "--per-access-key")
    try:
        client(process.url).create_table(TableName="AliceOnly", BillingMode="PAY_PER_REQUEST",
                                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        assert client(process.url).list_tables()["TableNames"] == ["AliceOnly"]
        assert client(process.url, TEMP).list_tables()["TableNames"] == []
    finally:
        process.stop()


def test_require_auth_and_credentials_go_together(tmp_path):
    binary = str(_resolve_binary())
    for args in (["--require-auth"], ["--credentials", str(tmp_path / "x")]):
        answer = subprocess.run([binary, "serve", "--in-memory", *args], capture_output=True, text=True, timeout=30)
        assert answer.returncode != 0 and "--require-auth and --credentials FILE go together" in answer.stderr
    missing = subprocess.run([binary, "serve", "--in-memory", "--port", "0", "--require-auth", "--credentials",
                              str(tmp_path / "missing")], capture_output=True, text=True, timeout=30)
    assert missing.returncode != 0 and "cannot read the credentials file" in missing.stderr
