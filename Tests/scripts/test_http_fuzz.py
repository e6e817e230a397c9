"""Tests of scripts/fuzz's HTTP driver (scripts/reliability.d/http_fuzz.py) against scripted
servers: a server that resets the connection before the whole request arrived must count as a
closed connection, never stop the run (CI failed on an ENOTCONN from the half-close)."""

import socket
import struct
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "reliability.d"))

import http_fuzz  # noqa: E402


def scripted_server(answer: bytes | None, read: int):
    """A listening socket whose one connection reads `read` bytes, sends `answer` (if any) and
    resets the connection (SO_LINGER 0) with the rest of the request unread."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        connection, _ = listener.accept()
        connection.recv(read)
        if answer is not None:
            connection.sendall(answer)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.close()
        listener.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread


def test_a_reset_before_the_request_is_sent_is_a_closed_connection():
    port, thread = scripted_server(None, read=16)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        # Larger than the socket buffers: the send is still going when the reset arrives.
        assert http_fuzz.send_half_closed(sock, b"POST / HTTP/1.1\r\n" + b"x" * 8_000_000) is None
    thread.join(5)


def test_an_answer_before_a_clean_close_is_read():
    answer = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        connection, _ = listener.accept()
        connection.recv(65536)
        connection.sendall(answer)
        connection.close()
        listener.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    with socket.create_connection(("127.0.0.1", listener.getsockname()[1]), timeout=5) as sock:
        assert http_fuzz.send_half_closed(sock, b"GET / HTTP/1.1\r\n\r\n") == (400, b"{}")
    thread.join(5)
