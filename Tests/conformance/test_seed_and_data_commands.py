"""`serve --seed`, `localdynamo import` / `export` / `reset` on the real binary, checked
through boto3: fixtures load, bad lines are reported by file and line (never a silent partial
load), exports read back into equal tables, and the same commands work on a database directory."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import boto3
import pytest
from botocore.config import Config

from conftest import REPO_ROOT, ServerProcess, _resolve_binary

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server processes"
)

SEED = REPO_ROOT / "fixtures" / "seed" / "locations"
LOCATIONS = "LocationsExample-Locations"
CHECKINS = "LocationsExample-Checkins"


def dynamodb(url: str):
    return boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1", aws_access_key_id="k",
                        aws_secret_access_key="s", config=Config(retries={"max_attempts": 1}))


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([str(_resolve_binary()), *args], capture_output=True, text=True, timeout=120)
    if check:
        assert result.returncode == 0, f"{args} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def scan_all(client, table: str) -> list[dict]:
    items, start = [], None
    while True:
        page = client.scan(TableName=table, **({"ExclusiveStartKey": start} if start else {}))
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return items


def by_key(items: list[dict], key: str) -> dict:
    return {item[key]["S"]: item for item in items}


@pytest.fixture
def workdir():
    directory = Path(tempfile.mkdtemp(prefix="localdynamo-data-"))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def seeded(workdir):
    process = ServerProcess(_resolve_binary(), ["--db-path", str(workdir / "db"), "--seed", str(SEED)])
    url = process.start()
    yield process, url, workdir
    if process.alive():
        process.stop()


def make_table(client, name: str, key: str = "id") -> None:
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": key, "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": key, "KeyType": "HASH"}])


# -- serve --seed ---------------------------------------------------------------------------


def test_seed_creates_tables_with_indexes_and_items(seeded):
    _, url, _ = seeded
    client = dynamodb(url)
    assert sorted(client.list_tables()["TableNames"]) == [CHECKINS, LOCATIONS]
    locations = by_key(scan_all(client, LOCATIONS), "locationId")
    assert len(locations) == 3
    ferry = locations["0B4C6F7E-1A4B-4B0E-9E33-5A1D0C2B9F01"]
    # Plain JSON: numbers become N with their digits, strings S.
    assert ferry["latitude"] == {"N": "37.7955"} and ferry["name"] == {"S": "Ferry Building"}
    assert len(scan_all(client, CHECKINS)) == 4
    newest_first = client.query(TableName=CHECKINS, IndexName="byLocation", ScanIndexForward=False,
                                KeyConditionExpression="#l = :l", ExpressionAttributeNames={"#l": "location"},
                                ExpressionAttributeValues={":l": {"S": "0B4C6F7E-1A4B-4B0E-9E33-5A1D0C2B9F01"}})
    assert [item["checkinTime"]["S"] for item in newest_first["Items"]] == [
        "2026-01-05T17:40:00.000Z", "2026-01-03T09:15:00.000Z"]


def test_seed_is_idempotent_on_restart(seeded):
    process, url, workdir = seeded
    client = dynamodb(url)
    client.put_item(TableName=LOCATIONS, Item={"locationId": {"S": "added"}, "name": {"S": "kept"}})
    client.delete_item(TableName=CHECKINS, Key={"checkinId": {"S": "C1000000-0000-4000-8000-000000000001"}})
    process.stop()
    again = ServerProcess(_resolve_binary(), ["--db-path", str(workdir / "db"), "--seed", str(SEED)])
    url = again.start()
    try:
        client = dynamodb(url)
        assert len(scan_all(client, LOCATIONS)) == 4
        assert len(scan_all(client, CHECKINS)) == 3
        assert f"seed: {LOCATIONS} exists, left as it is" in again.stderr_text()
    finally:
        again.stop()


@pytest.mark.parametrize("name, content, expected", [
    ("Tee.items.jsonl", '{"id": {"S": "a"}}\n{"id": {"S": "b"}\n', "Tee.items.jsonl:2: not JSON"),
    ("Tee.items.jsonl", '{"id": {"S": "a"}}\n\n{"id": {"Q": "b"}}\n', "Tee.items.jsonl:3: not a DynamoDB JSON item"),
    ("Tee.items.json", '[\n  {"id": "a"},\n  {"id": "b",}\n]\n', "Tee.items.json:3: not JSON"),
    ("Tee.items.json", '{"id": "a"}', "Tee.items.json:1: a .json items file holds one JSON array"),
    ("Uuu.items.json", '[]', "Uuu.items.json: there is no Uuu.table.json"),
])
def test_seed_rejects_bad_files_naming_file_and_line(workdir, name, content, expected):
    seed = workdir / "seed"
    seed.mkdir()
    (seed / "Tee.table.json").write_text(json.dumps({
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}))
    (seed / name).write_text(content)
    result = run("serve", "--in-memory", "--port", "0", "--seed", str(seed), check=False)
    assert result.returncode != 0
    assert expected in result.stderr, result.stderr
    assert "listening on" not in result.stdout


def test_seed_rejects_an_invalid_create_table_input(workdir):
    seed = workdir / "seed"
    seed.mkdir()
    (seed / "Tee.table.json").write_text('{"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}')
    result = run("serve", "--in-memory", "--port", "0", "--seed", str(seed), check=False)
    assert result.returncode != 0
    assert "Tee.table.json: ValidationException" in result.stderr, result.stderr


def test_seed_item_rejected_by_dynamodb_stops_the_start(workdir):
    seed = workdir / "seed"
    seed.mkdir()
    (seed / "Tee.table.json").write_text(json.dumps({
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}))
    (seed / "Tee.items.json").write_text('[{"id": "a"}, {"id": 5}]')
    result = run("serve", "--in-memory", "--port", "0", "--seed", str(seed), check=False)
    assert result.returncode != 0
    assert "Tee.items.json:1: ValidationException" in result.stderr, result.stderr


# -- import / export / reset against a running server ---------------------------------------


def test_import_reports_a_bad_line_and_fails_without_writing(seeded):
    _, url, workdir = seeded
    client = dynamodb(url)
    make_table(client, "Imported")
    lines = [json.dumps({"id": {"S": f"item-{i}"}, "n": {"N": str(i)}}) for i in range(60)]
    lines[41] = '{"id": {"S": "broken"'
    source = workdir / "items.jsonl"
    source.write_text("\n".join(lines) + "\n")
    failed = run("import", "Imported", str(source), "--endpoint", url, check=False)
    assert failed.returncode != 0
    assert f"{source}:42: not JSON" in failed.stderr
    assert "nothing was written" in failed.stderr
    assert client.scan(TableName="Imported")["Count"] == 0

    skipped = run("import", "Imported", str(source), "--endpoint", url, "--on-error", "skip", check=False)
    assert skipped.returncode == 3, skipped.stderr
    assert f"skipped {source}:42: not JSON" in skipped.stderr
    assert "imported 59 items into Imported, skipped 1 bad entries" in skipped.stdout
    assert client.scan(TableName="Imported")["Count"] == 59
    # Not a terminal: plain progress lines, no carriage returns.
    assert "\r" not in skipped.stderr


def test_import_reports_an_item_dynamodb_rejects_by_line(seeded):
    _, url, workdir = seeded
    client = dynamodb(url)
    make_table(client, "Keyed")
    source = workdir / "items.json"
    source.write_text('[\n {"id": "a"},\n {"id": "b"},\n {"other": "no key"},\n {"id": "c"}\n]\n')
    failed = run("import", "Keyed", str(source), "--endpoint", url, check=False)
    assert failed.returncode != 0
    assert f"{source}:4: ValidationException" in failed.stderr
    skipped = run("import", "Keyed", str(source), "--endpoint", url, "--on-error", "skip", check=False)
    assert skipped.returncode == 3
    assert sorted(item["id"]["S"] for item in scan_all(client, "Keyed")) == ["a", "b", "c"]


def test_import_into_a_missing_table_fails(seeded):
    _, url, workdir = seeded
    source = workdir / "items.jsonl"
    source.write_text('{"id": {"S": "a"}}\n')
    failed = run("import", "Missing", str(source), "--endpoint", url, check=False)
    assert failed.returncode != 0
    assert "ResourceNotFoundException" in failed.stderr


@pytest.mark.parametrize("format", ["jsonl", "json"])
def test_export_and_import_round_trip(seeded, format):
    _, url, workdir = seeded
    client = dynamodb(url)
    client.put_item(TableName=LOCATIONS, Item={
        "locationId": {"S": "every-type"}, "big": {"N": "12345678901234567890123456789012345678"},
        "small": {"N": "-1.5E-100"}, "flag": {"BOOL": True}, "nothing": {"NULL": True},
        "list": {"L": [{"S": "x"}, {"N": "2"}]}, "map": {"M": {"nested": {"S": "é ✓"}}}})
    out = workdir / f"locations.{format}"
    exported = run("export", LOCATIONS, "--endpoint", url, "--format", format, "--output", str(out))
    assert f"exported 4 items of {LOCATIONS}" in exported.stdout
    make_table(client, "Copy", key="locationId")
    run("import", "Copy", str(out), "--endpoint", url)
    assert by_key(scan_all(client, "Copy"), "locationId") == by_key(scan_all(client, LOCATIONS), "locationId")


def test_export_to_standard_output_is_dynamodb_json_lines(seeded):
    _, url, _ = seeded
    result = run("export", CHECKINS, "--endpoint", url)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 4
    assert all(set(line["checkinId"]) == {"S"} for line in lines)


def test_s3_export_layout_round_trip_on_a_database_directory(seeded):
    process, url, workdir = seeded
    process.stop()
    db = str(workdir / "db")
    s3 = workdir / "s3"
    refused = run("export", CHECKINS, "--db-path", db, "--format", "s3", "--s3-dir", str(s3), "--bucket", "bucket", check=False)
    assert refused.returncode != 0 and "--enable-pitr" in refused.stderr
    done = run("export", CHECKINS, "--db-path", db, "--format", "s3", "--s3-dir", str(s3), "--bucket", "bucket",
               "--prefix", "exports", "--enable-pitr")
    assert "exported 4 items" in done.stdout
    exports = list((s3 / "bucket" / "exports" / "AWSDynamoDB").iterdir())
    assert len(exports) == 1
    data = list((exports[0] / "data").glob("*.json.gz"))
    assert len(gzip.decompress(data[0].read_bytes()).decode().splitlines()) == 4
    # The table gets the items back from the export directory.
    run("reset", CHECKINS, "--db-path", db)
    again = ServerProcess(_resolve_binary(), ["--db-path", db])
    url = again.start()
    try:
        client = dynamodb(url)
        assert client.list_tables()["TableNames"] == [LOCATIONS]
        client.create_table(TableName=CHECKINS, BillingMode="PAY_PER_REQUEST",
                            AttributeDefinitions=[{"AttributeName": "checkinId", "AttributeType": "S"}],
                            KeySchema=[{"AttributeName": "checkinId", "KeyType": "HASH"}])
        run("import", CHECKINS, str(s3 / "bucket" / "exports"), "--endpoint", url)
        assert len(scan_all(client, CHECKINS)) == 4
    finally:
        again.stop()


def test_reset_deletes_every_table_and_seeds_again(seeded):
    _, url, _ = seeded
    client = dynamodb(url)
    make_table(client, "Scratch")
    client.delete_item(TableName=LOCATIONS, Key={"locationId": {"S": "9A8B7C6D-5E4F-4A3B-2C1D-0E9F8A7B6C03"}})
    result = run("reset", "--endpoint", url, "--seed", str(SEED))
    assert "deleted 3 tables" in result.stdout
    assert f"seed: created {LOCATIONS} with 3 items" in result.stdout
    assert sorted(client.list_tables()["TableNames"]) == [CHECKINS, LOCATIONS]
    assert len(scan_all(client, LOCATIONS)) == 3


def test_import_into_a_database_directory_then_serve_it(workdir):
    db = str(workdir / "db")
    seed = workdir / "seed"
    seed.mkdir()
    (seed / "Tee.table.json").write_text(json.dumps({
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}))
    run("reset", "--db-path", db, "--seed", str(seed))
    source = workdir / "items.jsonl"
    source.write_text("".join(json.dumps({"id": {"S": f"k{i}"}}) + "\n" for i in range(1000)))
    result = run("import", "Tee", str(source), "--db-path", db)
    assert "imported 1000 items into Tee" in result.stdout
    process = ServerProcess(_resolve_binary(), ["--db-path", db])
    url = process.start()
    try:
        assert len(scan_all(dynamodb(url), "Tee")) == 1000
    finally:
        process.stop()


def test_progress_on_a_terminal_is_a_bar_with_rate_and_eta(seeded):
    import pty

    _, url, workdir = seeded
    make_table(dynamodb(url), "Barred")
    source = workdir / "items.jsonl"
    source.write_text("".join(json.dumps({"id": {"S": f"k{i}"}}) + "\n" for i in range(3000)))
    controller, terminal = pty.openpty()
    try:
        process = subprocess.run([str(_resolve_binary()), "import", "Barred", str(source), "--endpoint", url],
                                 stdout=subprocess.PIPE, stderr=terminal, text=True, timeout=120)
        os.close(terminal)
        terminal = None
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if terminal is not None:
            os.close(terminal)
        os.close(controller)
    assert process.returncode == 0
    text = shown.decode()
    # The final state is always drawn: a redrawn bar (carriage return), counts, rate and ETA.
    assert "\r[##############################] 3000/3000 items" in text, text[-500:]
    assert "/s  ETA " in text
