"""Tests of scripts/generated_files.py: a generator's output folder is written file by file, only
where the text changed, so a no-op regeneration leaves every file and its modification time
alone (and the next build incremental); `stale` (the generators' `--check`) sees every change."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import generated_files  # noqa: E402


def test_unchanged_files_are_not_rewritten(tmp_path):
    out = tmp_path / "Generated"
    files = {"A.swift": "let a = 1\n", "Sub/B.swift": "let b = 2\n"}
    assert generated_files.stale(str(out), files) == ["A.swift", "Sub/B.swift"]
    assert generated_files.sync(str(out), files) == (["A.swift", "Sub/B.swift"], [])
    assert generated_files.stale(str(out), files) == []
    # Backdate both files: a no-op regeneration must not touch them.
    for name in files:
        os.utime(out / name, (1_000_000, 1_000_000))
    assert generated_files.sync(str(out), files) == ([], [])
    assert [os.stat(out / name).st_mtime for name in files] == [1_000_000, 1_000_000]
    # One file changed: only it is written.
    changed = dict(files, **{"A.swift": "let a = 3\n"})
    assert generated_files.stale(str(out), changed) == ["A.swift"]
    assert generated_files.sync(str(out), changed) == (["A.swift"], [])
    assert (out / "A.swift").read_text() == "let a = 3\n"
    assert os.stat(out / "Sub/B.swift").st_mtime == 1_000_000


def test_files_no_longer_generated_are_removed_with_their_folder(tmp_path):
    out = tmp_path / "Generated"
    generated_files.sync(str(out), {"A.swift": "a\n", "Sub/B.swift": "b\n"})
    (out / "notes.txt").write_text("kept: not a generated Swift file\n")
    assert generated_files.stale(str(out), {"A.swift": "a\n"}) == ["Sub/B.swift"]
    assert generated_files.sync(str(out), {"A.swift": "a\n"}) == ([], ["Sub/B.swift"])
    assert not (out / "Sub").exists()
    assert (out / "notes.txt").exists()
    assert generated_files.stale(str(out), {"A.swift": "a\n"}) == []
