"""Tests of scripts/bootstrap and scripts/run's install step, with fake dpkg-query, apt-get, sudo,
python3 and swift on the PATH (each records its arguments): scripts/run asks for what building and
serving need and no test tool; scripts/test's full bootstrap asks for the test tools too; nothing
is installed, or said, when nothing is missing."""

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD_PACKAGES = ["libsqlite3-dev", "libcurl4-openssl-dev", "zlib1g-dev", "libzstd-dev", "pkg-config"]
TEST_TOOLS = ["zstd", "chromium", "chromium-driver", "pytest", "selenium", "moto", "boto3", "requirements.txt"]


def executable(path: Path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def fake_machine(tmp_path: Path, installed: bool):
    """A copy of scripts/run and scripts/bootstrap in a scratch tree, and a bin folder of fakes:
    dpkg-query says every package is installed (or none), python3 says every Python package is
    there (or none), the others only log. Returns (tree, env, log)."""
    tree = tmp_path / "tree"
    for name in ["run", "bootstrap"]:
        (tree / "scripts").mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / "scripts" / name, tree / "scripts" / name)
    (tree / "Tests" / "conformance").mkdir(parents=True)
    shutil.copy2(ROOT / "Tests" / "conformance" / "requirements.txt", tree / "Tests" / "conformance")
    log = tmp_path / "calls.log"
    bin_dir = tmp_path / "bin"
    record = f'echo "$(basename "$0") $*" >> {log}\n'
    executable(bin_dir / "dpkg-query", "#!/bin/sh\n" + record
               + ("echo 'install ok installed'\n" if installed else "echo 'unknown ok not-installed'\n"))
    executable(bin_dir / "apt-get", "#!/bin/sh\n" + record)
    executable(bin_dir / "sudo", "#!/bin/sh\n" + record + 'exec "$@"\n')
    executable(bin_dir / "swift", "#!/bin/sh\n" + record)
    # `python3 -` is the check for missing packages (its script comes on stdin).
    executable(bin_dir / "python3", "#!/bin/sh\n" + record
               + f'if [ "$1" = "-" ]; then cat >/dev/null; exit {0 if installed else 1}; fi\n')
    # What scripts/run execs once the build is done.
    executable(tree / ".build" / "release" / "localdynamo", "#!/bin/sh\n" + record)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    return tree, env, log


def calls(log: Path, command: str) -> list[str]:
    if not log.exists():
        return []
    return [line.split(" ", 1)[1] if " " in line else "" for line in log.read_text().splitlines()
            if line.split(" ", 1)[0] == command]


def installed_packages(log: Path) -> list[str]:
    """Every package apt-get was asked to install."""
    return [word for line in calls(log, "apt-get") if line.startswith("install")
            for word in line.split() if not word.startswith("-") and word != "install"]


def run(tree: Path, env: dict, *command: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(tree / "scripts" / command[0]), *command[1:]], cwd=tree, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def test_run_installs_only_what_building_and_serving_need(tmp_path):
    tree, env, log = fake_machine(tmp_path, installed=False)
    result = run(tree, env, "run", "--port", "8001")
    assert result.returncode == 0, result.stderr
    assert installed_packages(log) == BUILD_PACKAGES
    assert calls(log, "apt-get")[0] == "update -qq"
    assert len([line for line in calls(log, "apt-get") if line.startswith("update")]) == 1
    # No Python package is looked for or installed, and no test tool is asked for by any command.
    assert calls(log, "python3") == []
    everything = log.read_text()
    for tool in TEST_TOOLS:
        assert tool not in everything.split(), f"scripts/run asked for {tool}:\n{everything}"
    # Then it builds and serves.
    assert calls(log, "swift") == ["build -c release --product localdynamo"]
    assert calls(log, "localdynamo") == [
        "serve --host 127.0.0.1 --port 8000 --db-path ./.localdynamo --port 8001"]


def test_the_full_bootstrap_adds_the_test_tools(tmp_path):
    tree, env, log = fake_machine(tmp_path, installed=False)
    result = run(tree, env, "bootstrap")
    assert result.returncode == 0, result.stderr
    assert installed_packages(log) == BUILD_PACKAGES + ["zstd", "chromium", "chromium-driver"]
    assert len([line for line in calls(log, "apt-get") if line.startswith("update")]) == 1
    assert calls(log, "python3")[-1] == "-m pip install -q -r Tests/conformance/requirements.txt"


def test_scripts_call_the_bootstrap_they_need():
    def bootstrap_lines(script):
        return [line.strip() for line in (ROOT / "scripts" / script).read_text().splitlines()
                if line.strip().startswith("scripts/bootstrap")]
    assert bootstrap_lines("run") == ["scripts/bootstrap --serve"]
    assert bootstrap_lines("bench") == ["scripts/bootstrap --serve"]
    assert bootstrap_lines("test") == ["scripts/bootstrap || exit 1"]


def test_nothing_missing_means_no_install_and_no_output(tmp_path):
    tree, env, log = fake_machine(tmp_path, installed=True)
    for mode in (["--serve"], []):
        result = run(tree, env, "bootstrap", *mode)
        assert result.returncode == 0, result.stderr
        assert result.stdout == "" and result.stderr == ""
    assert calls(log, "apt-get") == [] and calls(log, "sudo") == []
    assert not any(line.startswith("-m pip") for line in calls(log, "python3"))


def test_an_unknown_argument_is_refused(tmp_path):
    tree, env, log = fake_machine(tmp_path, installed=False)
    result = run(tree, env, "bootstrap", "--serv")
    assert result.returncode == 2
    assert "usage" in result.stderr
    assert calls(log, "apt-get") == []
