"""Tests of scripts/portability-check: snippets it must flag and snippets it must accept."""

import importlib.machinery
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "portability-check"


def load_checker():
    loader = importlib.machinery.SourceFileLoader("portability_check", str(SCRIPT))
    spec = importlib.util.spec_from_loader("portability_check", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


checker = load_checker()


def lines(source):
    return [number for number, _ in checker.findings(source)]


FLAGGED = [
    ("import Glibc\n", [1]),
    ("import FoundationNetworking\n", [1]),
    ("@preconcurrency import Dispatch\n", [1]),
    ("import CCurl\n", [1]),
    ("let home = getenv(\"HOME\")\n", [1]),
    ("usleep(1000)\n", [1]),
    ("let fd = socket(AF_INET, 1, 0)\n", [1]),
    ("pthread_mutex_lock(&lock)\n", [1]),
    ("let thread = Thread { work() }\n", [1]),
    ("DispatchQueue.global().async { }\n", [1]),
    ("let process = Process()\n", [1]),
    # A guard that tests something else is no guard.
    ("#if DEBUG\nimport Glibc\n#endif\n", [2]),
    ("#if swift(>=6.0)\n#else\nusleep(1)\n#endif\n", [3]),
    # After the #endif the guard is over.
    ("#if canImport(Glibc)\nimport Glibc\n#endif\nusleep(1)\n", [4]),
    # Code after a comment or string on the same line is still read.
    ("let s = \"x\"; usleep(1) // sleep\n", [1]),
    ("/* a */ import Darwin\n", [1]),
]

ACCEPTED = [
    "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n",
    "#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n",
    "#if os(Linux)\nlet thread = Thread { }\n#else\nlet queue = DispatchQueue(label: \"q\")\n#endif\n",
    "#if canImport(CCurl)\nimport CCurl\nfinal class Pool {\n#if DEBUG\n  let t = Thread { }\n#endif\n}\n#endif\n",
    "#if DEBUG\n#elseif canImport(Glibc)\nimport Glibc\n#endif\n",
    # Comments, doc comments and strings mention what they like.
    "/// Each transfer blocks one Thread; getenv(\"X\") is not used.\nlet a = 1\n",
    "/* Thread { }\n   /* nested */ usleep(1) */\nlet b = 2\n",
    "let message = \"Thread() and usleep(1)\"\n",
    "let text = \"\"\"\n  import Glibc\n  usleep(1)\n  \"\"\"\n",
    # Methods and members with a POSIX name are not the POSIX call.
    "func close() {}\nhandle.close()\nlet r = configuration.random()\n",
    "struct Host2 {}\nlet threadCount = 1\nlet isThread = true\n",
    "import Foundation\nimport Synchronization\nimport DynamoAPI\n",
]


@pytest.mark.parametrize("source,expected", FLAGGED)
def test_flags_unguarded_uses(source, expected):
    assert lines(source) == expected


@pytest.mark.parametrize("source", ACCEPTED)
def test_accepts_guarded_or_portable_code(source):
    assert lines(source) == []


def test_command_line_reports_file_and_line_and_fails(tmp_path):
    bad = tmp_path / "Bad.swift"
    bad.write_text("import Foundation\nlet t = Thread { }\n")
    good = tmp_path / "Good.swift"
    good.write_text("#if canImport(Glibc)\nimport Glibc\n#endif\n")
    result = subprocess.run([sys.executable, str(SCRIPT), str(bad), str(good)], capture_output=True, text=True)
    assert result.returncode == 1
    assert f"{bad}:2: Thread" in result.stdout
    assert "Good.swift" not in result.stdout
    result = subprocess.run([sys.executable, str(SCRIPT), str(good)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_the_app_facing_modules_pass():
    result = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout
