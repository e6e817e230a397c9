"""Hostile clients over raw sockets: slowloris, idle crowds, the connection limit, oversized and
malformed input, half-closed sockets. Each gets an answer or a close; everyone else is served on
time. These tests start their own servers with small limits (`--request-timeout`,
`--idle-timeout`, `--max-connections`), so nothing here waits for a default timeout.
"""

from __future__ import annotations

import os
import resource
import socket
import threading
import time

import pytest

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import FAKE_AMZ_DATE, FAKE_AUTHORIZATION

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server processes"
)

HEALTH = b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"


def list_tables_request(close: bool = False) -> bytes:
    body = b"{}"
    return (b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
            b"X-Amz-Target: DynamoDB_20120810.ListTables\r\n"
            b"Authorization: " + FAKE_AUTHORIZATION.encode() + b"\r\nX-Amz-Date: " + FAKE_AMZ_DATE.encode() + b"\r\n"
            + (b"Connection: close\r\n" if close else b"")
            + b"Content-Length: %d\r\n\r\n" % len(body) + body)


@pytest.fixture
def serve():
    started: list[ServerProcess] = []

    def start(*flags: str) -> tuple[str, int]:
        server = ServerProcess(_resolve_binary(), ["--in-memory", *flags])
        started.append(server)
        url = server.start()
        host, port = url.removeprefix("http://").rsplit(":", 1)
        return host, int(port)

    yield start
    for server in started:
        server.stop()


def connect(address: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(address, timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_answer(sock: socket.socket) -> bytes:
    """One whole HTTP answer (headers and a Content-Length body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return head + b"\r\n\r\n" + rest


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (reads and drops anything it sends first)."""
    deadline = time.monotonic() + seconds
    while (remaining := deadline - time.monotonic()) > 0:
        sock.settimeout(remaining)
        try:
            if not sock.recv(65536):
                return True
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True
    return False


def timed_health(address) -> float:
    started = time.monotonic()
    with connect(address) as sock:
        sock.sendall(HEALTH)
        assert read_answer(sock).startswith(b"HTTP/1.1 200 ")
    return time.monotonic() - started


@pytest.fixture
def many_files():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_health_stays_fast_beside_slowloris_and_idle_crowds(serve, many_files):
    address = serve("--request-timeout", "120", "--idle-timeout", "120")
    idle = [connect(address) for _ in range(2000)]
    slow = [connect(address) for _ in range(50)]
    stop = threading.Event()

    def drip():  # one byte a second on each slowloris connection, a request never finished
        request = list_tables_request()
        position = 0
        while not stop.wait(1.0):
            for sock in slow:
                sock.send(request[position:position + 1])
            position = min(position + 1, len(request) - 2)

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    try:
        timings = [timed_health(address) for _ in range(20)]
        assert max(timings) < 1.0, f"health checks took {timings}"
        # The idle crowd was accepted and is still being held, not refused.
        sock = idle[-1]
        sock.sendall(HEALTH)
        assert read_answer(sock).startswith(b"HTTP/1.1 200 ")
    finally:
        stop.set()
        dripper.join()
        for sock in idle + slow:
            sock.close()


def test_slowloris_is_closed_by_the_request_timeout(serve):
    address = serve("--request-timeout", "1", "--idle-timeout", "60")
    request = list_tables_request()
    slow = [connect(address) for _ in range(10)]
    started = time.monotonic()
    for position in range(4):  # a byte every 0.2 s: never a whole request
        for sock in slow:
            sock.send(request[position:position + 1])
        time.sleep(0.2)
    assert all(closed_within(sock, 10) for sock in slow)
    assert time.monotonic() - started >= 1.0
    # A client that sends whole requests is unaffected.
    with connect(address) as sock:
        sock.sendall(list_tables_request())
        assert read_answer(sock).startswith(b"HTTP/1.1 200 ")


def test_a_body_trickling_in_is_closed_by_the_request_timeout(serve):
    address = serve("--request-timeout", "1")
    with connect(address) as sock:
        request = list_tables_request()
        head, _, _ = request.partition(b"\r\n\r\n")
        sock.sendall(head.replace(b"Content-Length: 2", b"Content-Length: 100") + b"\r\n\r\n{")
        assert closed_within(sock, 10)


def test_an_idle_keep_alive_connection_is_closed_and_a_busy_one_kept(serve):
    address = serve("--idle-timeout", "1")
    idle = connect(address)
    idle.sendall(list_tables_request())
    assert read_answer(idle).startswith(b"HTTP/1.1 200 ")
    busy = connect(address)
    started = time.monotonic()
    while time.monotonic() - started < 2.5:  # a request every 0.3 s keeps it open
        busy.sendall(list_tables_request())
        assert read_answer(busy).startswith(b"HTTP/1.1 200 ")
        time.sleep(0.3)
    assert closed_within(idle, 10)
    assert time.monotonic() - started >= 1.0
    busy.close()
    idle.close()


def test_connections_over_the_limit_are_closed_and_the_others_served(serve):
    address = serve("--max-connections", "20")
    held = [connect(address) for _ in range(20)]
    for sock in held:  # each one accepted and served
        sock.sendall(HEALTH)
        assert read_answer(sock).startswith(b"HTTP/1.1 200 ")
    extra = [connect(address) for _ in range(5)]
    assert all(closed_within(sock, 5) for sock in extra)
    for sock in held:  # unaffected
        sock.sendall(HEALTH)
        assert read_answer(sock).startswith(b"HTTP/1.1 200 ")
    for sock in held[:10] + extra:
        sock.close()
    deadline = time.monotonic() + 10  # the server sees the closes shortly
    while True:
        with connect(address) as sock:
            try:
                sock.sendall(HEALTH)
                if read_answer(sock).startswith(b"HTTP/1.1 200 "):
                    break
            except (ConnectionResetError, BrokenPipeError):
                pass  # still refused
        assert time.monotonic() < deadline, "no room after closing half the connections"
        time.sleep(0.05)
    for sock in held[10:]:
        sock.close()


@pytest.mark.parametrize("case", ["17 MB body", "1 MB header block", "pipelined garbage", "invalid UTF-8 request line"])
def test_hostile_requests_get_an_error_or_a_close_and_others_are_served(serve, case):
    address = serve()
    with connect(address) as sock:
        if case == "17 MB body":
            head = list_tables_request().partition(b"\r\n\r\n")[0].replace(b"Content-Length: 2", b"Content-Length: 17825792")
            sock.sendall(head + b"\r\n\r\n")
            try:
                sock.sendall(b"x" * (17 * 1024 * 1024))
            except (BrokenPipeError, ConnectionResetError):
                pass
            answer = read_answer(sock)
            assert answer.startswith(b"HTTP/1.1 413 "), answer[:100]
        elif case == "1 MB header block":
            try:
                sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n" + b"X-Filler: " + b"a" * (1024 * 1024) + b"\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            answer = read_answer(sock)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer[:100]
        elif case == "pipelined garbage":
            sock.sendall(list_tables_request() + os.urandom(4096) + list_tables_request())
            first = read_answer(sock)
            assert first.startswith(b"HTTP/1.1 200 "), first[:100]
            assert closed_within(sock, 10)
        else:
            sock.sendall(b"POST /\xff\xfe\xc3\x28 HTTP/1.1\r\nHost: \xc3\x28\r\n\r\n")
            answer = read_answer(sock)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer[:100]
    assert timed_health(address) < 1.0


def test_a_half_closed_client_still_gets_its_answer(serve):
    address = serve()
    with connect(address) as sock:
        sock.sendall(list_tables_request())
        sock.shutdown(socket.SHUT_WR)
        assert read_answer(sock).startswith(b"HTTP/1.1 200 ")
        assert closed_within(sock, 10)
    with connect(address) as sock:  # half-closed before a whole request: closed, no stall
        sock.sendall(list_tables_request()[:30])
        sock.shutdown(socket.SHUT_WR)
        assert closed_within(sock, 10)
    assert timed_health(address) < 1.0
