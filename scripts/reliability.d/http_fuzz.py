"""The HTTP target of scripts/fuzz: mutated requests as raw bytes on sockets to the real binary.

Three kinds of input, chosen by a seeded generator: a mutated JSON body with correct framing on
a keep-alive connection; mutated headers (names, values, the target, the content type and
encoding, a fake SigV4 Authorization) with a valid body; and the whole request's bytes mutated,
sent on a fresh connection that is then half-closed. Every answer must be a status below 500
and, when it carries a JSON `__type`, one of DynamoDB's error types; a request with no answer
and no close within the time limit is a hang.
"""

from __future__ import annotations

import errno
import json
import random
import re
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "Tests" / "fuzz" / "corpus"

# The errors the service's documentation and botocore's model name (DynamoDB's vocabulary);
# InternalServerError and ServiceUnavailable are 5xx and count as failures here.
COMMON_ERRORS = {
    "AccessDeniedException", "ConditionalCheckFailedException", "IncompleteSignatureException",
    "InvalidSignatureException", "ItemCollectionSizeLimitExceededException", "LimitExceededException",
    "MissingAuthenticationTokenException", "ProvisionedThroughputExceededException", "RequestLimitExceeded",
    "ResourceInUseException", "ResourceNotFoundException", "ThrottlingException", "UnrecognizedClientException",
    "ValidationException", "SerializationException", "UnknownOperationException", "RequestEntityTooLarge",
}

DICTIONARY = [b"{", b"}", b"[", b"]", b":", b",", b'"', b"\\", b"\\u0000", b"null", b"true", b"1e400", b'{"S":"x"}',
              b'{"N":"1"}', b'{"M":{}}', b'{"L":[]}', b'{"NULL":true}', b'"TableName"', b'"fuzz"', b'"Key"',
              b'"Item"', b"\xff", b"\xc3\xa9", b"\xed\xa0\x80", b"\r\n", b"\r\n\r\n", b"Content-Length: ",
              b"Transfer-Encoding: chunked", b"0\r\n\r\n", b"Expect: 100-continue", b" HTTP/1.1", b"Host: "]
TARGETS = ["DynamoDB_20120810.", "DynamoDBStreams_20120810.", "", "DynamoDB_20120810", "dynamodb_20120810.GetItem"]
CONTENT_TYPES = ["application/x-amz-json-1.0", "application/x-amz-json-1.1", "application/json",
                 "application/x-amz-cbor-1.1", "text/plain", "", "application/x-amz-json-1.0; charset=utf-8"]
CODING_FAILURE = re.compile(rb"Content-Encoding '.*' is not supported|The request body is not valid (gzip|deflate) data")
AUTHORIZATION = ("AWS4-HMAC-SHA256 Credential=fuzz/20261125/us-east-1/dynamodb/aws4_request, "
                 "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0" * 64)


def vocabulary() -> set[str]:
    """DynamoDB's error types: botocore's model's exceptions and the documented common errors."""
    import botocore.session
    model = botocore.session.get_session().get_service_model("dynamodb")
    modelled = {name for name in model.shape_names if model.shape_for(name).metadata.get("exception")}
    return (modelled | COMMON_ERRORS) - {"InternalServerError", "ServiceUnavailable"}


def load_corpus() -> list[tuple[str, bytes]]:
    """(operation, body) of every shapes corpus file, then the raw requests of corpus/http."""
    entries = [(path.name.split("-")[0], path.read_bytes().strip()) for path in sorted((CORPUS / "shapes").glob("*.json"))]
    entries += [("", path.read_bytes()) for path in sorted((CORPUS / "http").glob("*"))]
    return entries


def mutate(rng: random.Random, data: bytes, corpus: list[tuple[str, bytes]]) -> bytes:
    """One to four byte-level mutations (the Swift fuzzer's kinds, in brief)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        position = rng.randrange(len(out) + 1)
        end = min(len(out), position + 1 + rng.randrange(16))
        op = rng.randrange(9)
        if op == 0 and out:
            out[min(position, len(out) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1 and out:
            out[min(position, len(out) - 1)] = rng.choice(b'\x00\n\r "\\{}[]:,\x7f\x80\xc0\xff0')
        elif op == 2:
            del out[position:end]
        elif op == 3:
            out[position:position] = out[position:end]
        elif op in (4, 5):
            out[position:position] = rng.choice(DICTIONARY)
        elif op == 6:
            other = rng.choice(corpus)[1]
            start = rng.randrange(len(other) + 1)
            out[position:position] = other[start:start + 1 + rng.randrange(64)]
        elif op == 7:
            del out[position:]
        else:
            out[position:position] = (b"[" if rng.random() < 0.5 else b'{"a":') * rng.randrange(1, 400)
    return bytes(out[:65536])


def frame(operation: str, body: bytes, rng: random.Random, mutate_headers: bool, corpus) -> bytes:
    headers = [("Host", "localhost"), ("Content-Type", "application/x-amz-json-1.0"),
               ("X-Amz-Target", f"DynamoDB_20120810.{operation}"), ("X-Amz-Date", "20261125T120000Z"),
               ("Authorization", AUTHORIZATION)]
    if mutate_headers:
        for _ in range(rng.randint(1, 3)):
            index = rng.randrange(len(headers))
            name, value = headers[index]
            choice = rng.randrange(6)
            if choice == 0:
                value = rng.choice(TARGETS) + (operation if rng.random() < 0.5 else rng.choice(corpus)[0])
            elif choice == 1:
                value = rng.choice(CONTENT_TYPES)
            elif choice == 2:
                headers.append((rng.choice(["Content-Encoding", "Accept-Encoding", "X-Amz-Security-Token",
                                            "X-Amz-Content-Sha256", "Origin", "Expect"]),
                                rng.choice(["gzip", "deflate", "zstd", "identity", "*", "100-continue", "x" * 300])))
            elif choice == 3:
                del headers[index]
                continue
            else:
                value = mutate(rng, value.encode(), corpus).decode("latin-1")
                name = mutate(rng, name.encode(), corpus).decode("latin-1") if choice == 5 else name
            headers[index] = (name.replace("\r", "").replace("\n", ""), value.replace("\r", "").replace("\n", ""))
    lines = [b"POST / HTTP/1.1"] + [f"{name}: {value}".encode("latin-1") for name, value in headers]
    lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


@dataclass
class Figures:
    inputs: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    types: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    hangs: int = 0
    server_errors: int = 0
    outside_vocabulary: int = 0
    coding_500s: int = 0
    samples: dict[str, bytes] = field(default_factory=dict)


def read_response(sock: socket.socket) -> tuple[int, bytes] | None:
    """One response (status, body), or None when the server closed without one."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None if not data else (_status(data), b"")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = _status(head)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    if status == 100:   # an interim answer to Expect: 100-continue, the real one follows
        return read_response_after(sock, rest[length:])
    return status, rest[:length]


def read_response_after(sock: socket.socket, pending: bytes) -> tuple[int, bytes] | None:
    class Replay:
        def __init__(self):
            self.pending = pending

        def recv(self, size):
            if self.pending:
                chunk, self.pending = self.pending, b""
                return chunk
            return sock.recv(size)
    return read_response(Replay())  # type: ignore[arg-type]


def _status(head: bytes) -> int:
    parts = head.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def check(figures: Figures, allowed: set[str], status: int, body: bytes, request: bytes) -> None:
    figures.statuses[str(status)] = figures.statuses.get(str(status), 0) + 1
    figures.samples.setdefault(str(status), body[:200] + b" <- " + request[:200])
    kind = ""
    if body[:1] == b"{":
        try:
            kind = str(json.loads(body).get("__type", "")).split("#")[-1]
        except (ValueError, AttributeError):
            kind = ""
    elif body[:1] == b"<":   # DynamoDB's XML answer to a request without a JSON content type
        kind = body[1:].split(b"/", 1)[0].split(b">", 1)[0].decode("latin-1")
    if kind:
        figures.types[kind] = figures.types.get(kind, 0) + 1
    if status == 500 and kind == "InternalServerError" and CODING_FAILURE.search(body):
        # DynamoDB's own answer to an unknown Content-Encoding or a corrupt compressed body
        # (measured; Tests/conformance/test_parity_http.py), counted apart.
        figures.coding_500s += 1
    elif status >= 500 or status == 0:
        figures.server_errors += 1
        figures.failures.append(f"HTTP {status} {body[:200]!r} for {request[:300]!r}")
    elif status >= 400 and kind and kind not in allowed:
        figures.outside_vocabulary += 1
        figures.failures.append(f"{kind} is not DynamoDB's for {request[:300]!r}")


def connect(url: str, timeout: float) -> socket.socket:
    host, port = url.split("//", 1)[1].rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def send_half_closed(sock: socket.socket, request: bytes) -> tuple[int, bytes] | None:
    """Sends `request`, half-closes, and reads the answer; None when the connection ended without one.

    A server may answer a request it cannot parse and close before the rest has arrived; its
    kernel then resets the connection, so the send or the half-close can fail (EPIPE,
    ECONNRESET, ENOTCONN, depending on when the reset lands) while the answer may still be
    waiting to be read.
    """
    try:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
    except OSError as error:
        if error.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN):
            raise
    try:
        return read_response(sock)
    except ConnectionResetError:
        return None


def run(url: str, inputs: int, seed: int, timeout: float, setup) -> Figures:
    """`inputs` requests; `setup()` (re)creates the corpus's table now and then."""
    rng = random.Random(seed)
    corpus = load_corpus()
    allowed = vocabulary()
    figures = Figures()
    sock = None
    for number in range(inputs):
        if number % 2000 == 0:
            setup()
        operation, body = corpus[number] if number < len(corpus) else rng.choice(corpus)
        kind = rng.random()
        raw = not operation or kind >= 0.85
        if not operation:
            request = body
        elif kind < 0.6 and number >= len(corpus):
            request = frame(operation, mutate(rng, body, corpus), rng, False, corpus)
        else:
            request = frame(operation, body, rng, number >= len(corpus), corpus)
        if raw and number >= len(corpus):
            request = mutate(rng, request, corpus)
        figures.inputs += 1
        try:
            if raw:
                with connect(url, timeout) as fresh:
                    answer = send_half_closed(fresh, request)
                if answer is None:
                    figures.statuses["closed"] = figures.statuses.get("closed", 0) + 1
                else:
                    check(figures, allowed, answer[0], answer[1], request)
                continue
            for attempt in range(2):
                if sock is None:
                    sock = connect(url, timeout)
                try:
                    sock.sendall(request)
                    answer = read_response(sock)
                except (ConnectionResetError, BrokenPipeError):
                    answer = None
                if answer is not None or attempt == 1:
                    break
                sock.close()   # the server closed a kept-alive connection: once more on a new one
                sock = None
            if answer is None:
                figures.statuses["closed"] = figures.statuses.get("closed", 0) + 1
                sock.close()
                sock = None
            else:
                check(figures, allowed, answer[0], answer[1], request)
        except socket.timeout:
            figures.hangs += 1
            figures.failures.append(f"no answer within {timeout} s to {request[:300]!r}")
            if sock is not None:
                sock.close()
                sock = None
        except ConnectionRefusedError:
            figures.failures.append(f"the server refused connections after {request[:300]!r}")
            break
    if sock is not None:
        sock.close()
    return figures
