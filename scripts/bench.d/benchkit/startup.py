"""Cold start and idle memory of localdynamo: the resident set of a just-started server from
/proc/PID/smaps_rollup, and explained by part from /proc/PID/smaps (the binary's text and data,
the Swift runtime, Foundation, FoundationNetworking, libcurl and its TLS/LDAP libraries, ICU's
data, SQLite, libc and the rest, the heap, thread stacks)."""

from __future__ import annotations

import os
import re
import statistics

# The parts, in the order the report shows them; the first pattern that matches a mapping's
# file name (its basename) decides its part.
PARTS: list[tuple[str, re.Pattern]] = [
    ("ICU data and code (lib_FoundationICU)", re.compile(r"^lib_FoundationICU|^libicu")),
    ("FoundationNetworking", re.compile(r"^libFoundationNetworking")),
    ("Foundation (Foundation, FoundationEssentials, collections)",
     re.compile(r"^libFoundation|^lib_FoundationCollections|^lib_FoundationCShims|^libFoundationXML")),
    ("Swift runtime and stdlib (swiftCore, Dispatch, …)",
     re.compile(r"^libswift|^libdispatch|^libBlocksRuntime|^lib_Testing|^libTesting")),
    ("libcurl and its TLS/LDAP/HTTP2/Kerberos libraries",
     re.compile(r"^libcurl|^libssl|^libcrypto|^libldap|^liblber|^libnghttp|^libssh|^libpsl|^libidn|"
                r"^librtmp|^libgssapi|^libkrb5|^libk5crypto|^libkeyutils|^libcom_err|^libsasl|^libgnutls|"
                r"^libnettle|^libhogweed|^libbrotli|^libunistring|^libtasn1|^libp11|^libffi|^libgmp")),
    ("SQLite", re.compile(r"^libsqlite3")),
    ("libc, libstdc++, zlib, zstd and the loader",
     re.compile(r"^libc\.|^libm\.|^libstdc\+\+|^libgcc_s|^ld-linux|^libz\.|^libzstd|^libpthread|^libdl|"
                r"^librt|^libresolv|^liblzma|^libutil")),
]
BINARY = "localdynamo binary (text, rodata, data)"
HEAP = "heap (brk and malloc's mmap arenas)"
STACKS = "thread stacks (main and NIO/worker threads)"
OTHER_FILES = "other mapped files"
OTHER_ANON = "other anonymous (vdso, vvar, …)"
ORDER = [BINARY] + [name for name, _ in PARTS] + [OTHER_FILES, HEAP, STACKS, OTHER_ANON]

_HEADER = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$")


def smaps_rollup(pid: int) -> dict[str, int]:
    """The kB fields of /proc/PID/smaps_rollup (Rss, Pss, Private_Dirty, …); empty if unreadable."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[2] == "kB":
                    out[parts[0].rstrip(":")] = int(parts[1])
    except OSError:
        pass
    return out


def _mappings(pid: int) -> list[dict]:
    maps: list[dict] = []
    with open(f"/proc/{pid}/smaps") as f:
        current: dict | None = None
        for line in f:
            header = _HEADER.match(line)
            if header:
                current = dict(start=int(header.group(1), 16), end=int(header.group(2), 16),
                               perms=header.group(3), path=header.group(4).strip(), rss=0)
                maps.append(current)
            elif current is not None and line.startswith("Rss:"):
                current["rss"] = int(line.split()[1])
    return maps


def classify(maps: list[dict], binary: str) -> dict[str, int]:
    """Resident kB by part. An anonymous writable mapping right above a no-access guard page is a
    thread's stack (how glibc lays out pthread stacks); other anonymous writable memory is the
    heap (malloc's arenas and large blocks)."""
    parts = {name: 0 for name in ORDER}
    previous: dict | None = None
    binary_name = os.path.basename(binary)
    for mapping in maps:
        path, rss = mapping["path"], mapping["rss"]
        name = os.path.basename(path)
        if path.startswith("/") and name == binary_name:
            part = BINARY
        elif path.startswith("/"):
            part = next((label for label, pattern in PARTS if pattern.search(name)), OTHER_FILES)
        elif path == "[heap]":
            part = HEAP
        elif path == "[stack]":
            part = STACKS
        elif path == "" and "w" in mapping["perms"]:
            guarded = (previous is not None and previous["end"] == mapping["start"]
                       and previous["perms"].startswith("---") and previous["path"] == "")
            part = STACKS if guarded and mapping["end"] - mapping["start"] <= 16 * 1024 * 1024 else HEAP
        else:
            part = OTHER_ANON
        parts[part] += rss
        previous = mapping
    return parts


def breakdown(pid: int, binary: str) -> dict | None:
    """The rollup and the by-part breakdown of a running process, or None if /proc is unreadable."""
    try:
        maps = _mappings(pid)
    except OSError:
        return None
    rollup = smaps_rollup(pid)
    return dict(rollup=rollup, parts=classify(maps, binary),
                libraries=sorted({os.path.basename(m["path"]) for m in maps if m["path"].startswith("/")}))


def median_sample(samples: list[dict]) -> dict | None:
    """The sample whose RSS is the median's (the lower middle of an even count)."""
    measured = sorted((s for s in samples if s.get("rss_kb")), key=lambda s: s["rss_kb"])
    return measured[(len(measured) - 1) // 2] if measured else None


def summary_lines(label: str, samples: list[dict]) -> list[str]:
    """Markdown: the median start and RSS, then the median sample's resident set by part."""
    values = [s["ms"] for s in samples]
    rss = [s["rss_kb"] for s in samples if s.get("rss_kb")]
    lines = [f"Cold start of {label} over {len(values)} fresh starts (process start to first answered "
             f"request): median {statistics.median(values):.1f} ms, min {min(values):.1f} ms, "
             f"max {max(values):.1f} ms; RSS at first answer median "
             f"{statistics.median(rss) / 1024:.1f} MB." if rss else "", ""]
    sample = median_sample(samples)
    memory = sample.get("memory") if sample else None
    if memory:
        rollup = memory["rollup"]
        lines += [f"Resident set of the median start of {label} by part (/proc/PID/smaps; Rss "
                  f"{rollup.get('Rss', 0) / 1024:.1f} MB, Pss {rollup.get('Pss', 0) / 1024:.1f} MB, "
                  f"private dirty {rollup.get('Private_Dirty', 0) / 1024:.1f} MB):", "",
                  "| part | resident |", "|---|---:|"]
        for name in ORDER:
            kb = memory["parts"].get(name, 0)
            if kb:
                lines.append(f"| {name} | {kb / 1024:.2f} MB |")
        lines.append("")
    return lines
