"""The pytest plugin: `localdynamo` (one server per session) and `localdynamo_clean` (the
session's server restored to its starting state before the test)."""

from __future__ import annotations

import shlex
from typing import Iterator

import pytest

from .server import LocalDynamo, find_binary

CLEAN_SNAPSHOT = "pytest-localdynamo-clean"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("localdynamo")
    group.addoption("--localdynamo-bin", help="the localdynamo binary (default: $LOCALDYNAMO_BIN, then PATH)")
    group.addoption("--localdynamo-seed", help="a fixtures directory passed to serve --seed")
    group.addoption("--localdynamo-args", default="", help="more serve arguments, shell-quoted")
    parser.addini("localdynamo_seed", "a fixtures directory passed to serve --seed", default="")
    parser.addini("localdynamo_args", "more serve arguments, shell-quoted", default="")


@pytest.fixture(scope="session")
def localdynamo(request: pytest.FixtureRequest) -> Iterator[LocalDynamo]:
    """A LocalDynamo server for the whole session, in memory on a free port, seeded from
    `--localdynamo-seed` (or the `localdynamo_seed` ini value) when given."""
    config = request.config
    args = shlex.split(config.getoption("--localdynamo-args") or config.getini("localdynamo_args"))
    seed = config.getoption("--localdynamo-seed") or config.getini("localdynamo_seed")
    if seed:
        args += ["--seed", str(seed)]
    server = LocalDynamo(find_binary(config.getoption("--localdynamo-bin")), args).start()
    server.snapshot(CLEAN_SNAPSHOT)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def localdynamo_clean(localdynamo: LocalDynamo) -> LocalDynamo:
    """The session's server, restored before this test to the state it started in (seeded
    tables and items, nothing else): a snapshot restore, milliseconds for test-sized data."""
    localdynamo.restore(CLEAN_SNAPSHOT)
    return localdynamo
