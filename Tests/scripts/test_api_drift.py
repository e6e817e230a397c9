"""Tests of scripts/api-drift with two small fake botocore models (no network)."""

import copy
import gzip
import importlib.machinery
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "api-drift"


def load_script():
    loader = importlib.machinery.SourceFileLoader("api_drift", str(SCRIPT))
    spec = importlib.util.spec_from_loader("api_drift", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


drift = load_script()

DYNAMODB = {
    "operations": {
        "GetItem": {"input": {"shape": "GetItemInput"}, "output": {"shape": "GetItemOutput"}},
        "OldThing": {"input": {"shape": "OldThingInput"}},
    },
    "shapes": {
        "GetItemInput": {"type": "structure", "required": ["TableName"],
                         "members": {"TableName": {"shape": "TableName"}, "Legacy": {"shape": "String"}}},
        "GetItemOutput": {"type": "structure", "members": {"Item": {"shape": "AttributeMap"}}},
        "OldThingInput": {"type": "structure", "members": {}},
        "TableStatus": {"type": "string", "enum": ["ACTIVE", "CREATING", "GONE"]},
        "TableName": {"type": "string"},
        "String": {"type": "string"},
        "AttributeMap": {"type": "map"},
    },
}

STREAMS = {
    "operations": {"GetRecords": {"input": {"shape": "GetRecordsInput"}}},
    "shapes": {
        "GetRecordsInput": {"type": "structure", "members": {"ShardIterator": {"shape": "String"}}},
        "ShardIteratorType": {"type": "string", "enum": ["TRIM_HORIZON", "LATEST"]},
        "String": {"type": "string"},
    },
}


def write_models(directory: Path, dynamodb, streams, gzipped=True, version=None):
    for service, model in (("dynamodb", dynamodb), ("dynamodbstreams", streams)):
        folder = directory / "data" / service / "2012-08-10"
        folder.mkdir(parents=True)
        text = json.dumps(model)
        if gzipped:
            (folder / "service-2.json.gz").write_bytes(gzip.compress(text.encode()))
        else:
            (folder / "service-2.json").write_text(text)
    if version:
        (directory / "__init__.py").write_text(f"__version__ = '{version}'\n")
    return directory / "data"


def newer_models():
    dynamodb, streams = copy.deepcopy(DYNAMODB), copy.deepcopy(STREAMS)
    dynamodb["operations"]["SearchThings"] = {"input": {"shape": "SearchThingsInput"},
                                              "output": {"shape": "SearchThingsOutput"}}
    del dynamodb["operations"]["OldThing"]
    dynamodb["shapes"]["SearchThingsInput"] = {"type": "structure", "members": {}}
    dynamodb["shapes"]["SearchThingsOutput"] = {"type": "structure", "members": {}}
    del dynamodb["shapes"]["OldThingInput"]
    members = dynamodb["shapes"]["GetItemInput"]["members"]
    del members["Legacy"]
    members["Filter"] = {"shape": "String"}
    members["Mode"] = {"shape": "String"}
    dynamodb["shapes"]["GetItemInput"]["required"].append("Mode")
    dynamodb["shapes"]["TableStatus"]["enum"] = ["ACTIVE", "CREATING", "ARCHIVED"]
    streams["shapes"]["ShardIteratorType"]["enum"].append("AT_TIMESTAMP")
    return dynamodb, streams


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def test_the_drift_of_two_models_is_listed(tmp_path):
    pinned = write_models(tmp_path / "old", DYNAMODB, STREAMS)
    newer = write_models(tmp_path / "new", *newer_models(), gzipped=False, version="9.9.9")
    proc = run("--pinned", str(pinned), "--offline", str(newer))
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == [
        f"botocore {drift.pinned_version()} (pinned) against 9.9.9",
        "DynamoDB: 10 changes",
        "  new operation SearchThings (SearchThingsInput → SearchThingsOutput)",
        "  removed operation OldThing",
        "  new shape SearchThingsInput (structure)",
        "  new shape SearchThingsOutput (structure)",
        "  removed shape OldThingInput",
        "  GetItemInput: new member Filter (String)",
        "  GetItemInput: new member Mode (String, required)",
        "  GetItemInput: removed member Legacy",
        "  TableStatus: new enum value ARCHIVED",
        "  TableStatus: removed enum value GONE",
        "DynamoDB Streams: 1 change",
        "  ShardIteratorType: new enum value AT_TIMESTAMP",
    ]
    as_json = json.loads(run("--pinned", str(pinned), "--offline", str(newer), "--json").stdout)
    assert as_json["against"] == "9.9.9"
    assert as_json["drift"]["DynamoDB Streams"] == ["ShardIteratorType: new enum value AT_TIMESTAMP"]


def test_the_same_models_have_no_drift(tmp_path):
    pinned = write_models(tmp_path / "old", DYNAMODB, STREAMS)
    same = write_models(tmp_path / "same", DYNAMODB, STREAMS, gzipped=False)
    proc = run("--pinned", str(pinned), "--offline", str(same))
    assert (proc.returncode, proc.stdout.splitlines()[-1]) == (0, "no drift"), proc.stderr


def test_the_installed_pinned_botocore_against_itself_has_no_drift():
    import botocore

    data = Path(botocore.__file__).parent / "data"
    proc = run("--offline", str(data))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == f"botocore {drift.pinned_version()} (pinned) against {botocore.__version__}\nno drift\n"


def test_a_missing_model_is_an_error(tmp_path):
    pinned = write_models(tmp_path / "old", DYNAMODB, STREAMS)
    proc = run("--pinned", str(pinned), "--offline", str(tmp_path / "nowhere"))
    assert proc.returncode == 2
    assert "no dynamodb model in" in proc.stderr


def test_the_pin_is_the_one_the_generated_shapes_name():
    assert drift.pinned_version() == drift.generated_version()
    assert drift.pinned_version() in (ROOT / "docs" / "compatibility.md").read_text().splitlines()[2]


def test_pip_index_versions_output_is_read():
    text = "botocore (1.45.2)\nAvailable versions: 1.45.2, 1.45.1, 1.44.8\n  INSTALLED: 1.44.8\n  LATEST:    1.45.2\n"
    assert drift.newest_version_from(text) == "1.45.2"
    assert drift.newest_version_from("Available versions: 2.0.0, 1.9.9\n") == "2.0.0"
    try:
        drift.newest_version_from("ERROR: No matching distribution found for botocore")
    except drift.DriftError as error:
        assert "could not read a version" in str(error)
    else:
        raise AssertionError("no error for output without a version")


def test_the_pin_is_read_from_requirements(tmp_path):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("# pinned\nboto3==1.2.3\nbotocore==1.2.3  # with boto3\npytest>=8\n")
    assert drift.pinned_version(str(requirements)) == "1.2.3"


def test_a_downloaded_wheel_is_unpacked_into_a_data_directory(tmp_path):
    import zipfile

    wheel = tmp_path / "botocore-9.9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for service, model in (("dynamodb", DYNAMODB), ("dynamodbstreams", STREAMS)):
            archive.writestr(f"botocore/data/{service}/2012-08-10/service-2.json.gz", gzip.compress(json.dumps(model).encode()))
        archive.writestr("botocore/__init__.py", "__version__ = '9.9.9'\n")
    data = drift.unpack_models(str(wheel), str(tmp_path / "data"))
    assert drift.read_model(data, "dynamodbstreams") == STREAMS
    assert drift.compare(data, data) == {"DynamoDB": [], "DynamoDB Streams": []}
    broken = tmp_path / "broken.whl"
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("botocore/__init__.py", "")
    try:
        drift.unpack_models(str(broken), str(tmp_path / "other"))
    except drift.DriftError as error:
        assert "has no botocore/data/dynamodb/2012-08-10/service-2.json.gz" in str(error)
    else:
        raise AssertionError("no error for a wheel without the models")
