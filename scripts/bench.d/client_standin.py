#!/usr/bin/env python3
"""A fixed-answer stand-in for DynamoDB, for counting DynamoClient's own instructions.

`client-bench` under `valgrind --tool=callgrind` against this server counts only the client's
user-space work (libcurl included): every answer is prepared once, with its `x-amz-crc32`, and
sent back unchanged for its `X-Amz-Target`. The answers have the shapes LocalDynamo sends for
the bench table (scripts/bench.d/callgrind.py's items: pk S, sk N, data S of 120 bytes, n N):

    GetItem   {"Item": <one item>}
    PutItem   {}
    Query     {"Items": [<10 items>], "Count": 10, "ScannedCount": 10}

Usage: client_standin.py PORT (serves until killed; prints "ready" when listening).
"""

import http.server
import json
import sys
import zlib

PAYLOAD = "abcdefghij" * 12


def item(pk, sk, n):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}, "data": {"S": PAYLOAD}, "n": {"N": str(n)}}


ANSWERS = {
    "GetItem": {"Item": item("p00000001", 3, 103)},
    "PutItem": {},
    "Query": {"Items": [item("p00000001", s, 100 + s) for s in range(10)], "Count": 10, "ScannedCount": 10},
}
BODIES = {name: json.dumps(answer, separators=(",", ":")).encode() for name, answer in ANSWERS.items()}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        operation = self.headers.get("X-Amz-Target", "").rpartition(".")[2]
        body = BODIES.get(operation)
        if body is None:
            body = b'{"__type":"com.amazon.coral.service#UnknownOperationException"}'
            self.send_response(400)
        else:
            self.send_response(200)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-amzn-RequestId", "STANDIN")
        self.send_header("x-amz-crc32", str(zlib.crc32(body) & 0xFFFFFFFF))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


if __name__ == "__main__":
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    print("ready", flush=True)
    server.serve_forever()
