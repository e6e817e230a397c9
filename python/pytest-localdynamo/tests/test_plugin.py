"""The plugin's fixtures, run in an inner pytest session (pytester) against the real binary.

LOCALDYNAMO_BIN names the binary (scripts/test sets it); the inner session loads the plugin
from this checkout's src/ with -p, as an installed plugin is loaded through its entry point.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "src"
REPO = HERE.parents[2]
SEED = REPO / "fixtures" / "seed" / "locations"


def binary() -> str:
    configured = os.environ.get("LOCALDYNAMO_BIN")
    if configured:
        return configured
    for candidate in (REPO / ".build/debug/localdynamo", REPO / ".build/release/localdynamo"):
        if candidate.exists():
            return str(candidate)
    pytest.fail("set LOCALDYNAMO_BIN to the localdynamo binary", pytrace=False)


@pytest.fixture
def inner(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PYTHONPATH", str(SOURCE) + os.pathsep + os.environ.get("PYTHONPATH", ""))

    def run(source: str, *args: str):
        pytester.makepyfile(source)
        return pytester.runpytest_subprocess("-p", "pytest_localdynamo.plugin", "-p", "no:cacheprovider",
                                             "--localdynamo-bin", binary(), *args)

    return run


def test_session_server_is_seeded_and_restored_before_each_test(inner):
    result = inner(
        """
        def test_first_sees_the_seed_and_changes_it(localdynamo_clean):
            client = localdynamo_clean.client()
            names = client.list_tables()["TableNames"]
            assert names == ["LocationsExample-Checkins", "LocationsExample-Locations"]
            assert client.scan(TableName="LocationsExample-Locations")["Count"] == 3
            client.put_item(TableName="LocationsExample-Locations", Item={"locationId": {"S": "new"}})
            client.create_table(TableName="Scratch", BillingMode="PAY_PER_REQUEST",
                                AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                                KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}])

        def test_second_sees_the_seed_again(localdynamo_clean):
            client = localdynamo_clean.client()
            assert client.scan(TableName="LocationsExample-Locations")["Count"] == 3
            assert "Scratch" not in client.list_tables()["TableNames"]

        def test_same_server_for_the_session(localdynamo, localdynamo_clean):
            assert localdynamo is localdynamo_clean
            assert localdynamo.endpoint.startswith("http://127.0.0.1:")
        """,
        "--localdynamo-seed", str(SEED),
    )
    result.assert_outcomes(passed=3)


def test_without_a_seed_the_server_starts_empty(inner):
    result = inner(
        """
        def test_empty(localdynamo_clean):
            assert localdynamo_clean.client().list_tables()["TableNames"] == []
        """
    )
    result.assert_outcomes(passed=1)


def test_a_missing_binary_is_a_clear_error(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PYTHONPATH", str(SOURCE))
    pytester.makepyfile("def test_x(localdynamo):\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "pytest_localdynamo.plugin", "-p", "no:cacheprovider",
                                           "--localdynamo-bin", "/nonexistent/localdynamo")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*cannot run /nonexistent/localdynamo*"])
