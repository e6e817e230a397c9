"""The container image (docker/Dockerfile) checked without a Docker engine by scripts/docker-check:
COPY sources, the drop-in interface of amazon/dynamodb-local, the health check, and the
entrypoint run with DynamoDB Local's command lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT, _resolve_binary

CHECK = REPO_ROOT / "scripts" / "docker-check"


def run_check(dockerfile: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, LOCALDYNAMO_BIN=str(_resolve_binary()))
    if dockerfile:
        env["LOCALDYNAMO_DOCKERFILE"] = str(dockerfile)
    return subprocess.run([sys.executable, str(CHECK)], capture_output=True, text=True, timeout=120, env=env)


def test_the_image_passes_the_check():
    result = run_check()
    assert result.returncode == 0, result.stderr
    assert "docker-check: ok" in result.stdout


def test_the_check_catches_a_broken_image(tmp_path):
    broken = tmp_path / "Dockerfile"
    broken.write_text(
        "FROM swift:6.2-bookworm AS build\n"
        "COPY Package.swift ./\nCOPY Sources ./Sources\nCOPY Missing ./Missing\n"
        "FROM debian:bookworm-slim\n"
        "COPY --from=build /usr/local/bin/localdynamo /usr/local/bin/localdynamo\n"
        "EXPOSE 8000\n"
        'HEALTHCHECK CMD ["sh", "-c", "exec 3<>/dev/tcp/127.0.0.1/8000"]\n'
        'ENTRYPOINT ["localdynamo", "serve"]\n'
    )
    result = run_check(broken)
    assert result.returncode == 1
    for expected in ["COPY source Missing does not exist", "target DynamoStoreTests (Tests/DynamoStoreTests) is not copied",
                     "WORKDIR must be /home/dynamodblocal", "non-root USER", "HEALTHCHECK needs a shell",
                     "CMD must be DynamoDB Local's default"]:
        assert expected in result.stderr, result.stderr
