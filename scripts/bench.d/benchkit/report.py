"""The Markdown report: number formats, the tables, the targets and their verdicts, and the part of
docs/performance.md between the bench markers."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
from pathlib import Path

import clients

from . import instructions, startup
from .common import BEGIN_MARK, END_MARK, ROOT, median
from .targets import bytes_per_item, cell, evaluate_targets
from .workloads import PER_PARTITION, TABLE, WORKLOADS


def fmt(value, digits=0) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def fmt_mb(kb) -> str:
    return "–" if kb is None else f"{kb / 1024:.1f} MB"


def fmt_us(us) -> str:
    if us is None:
        return "–"
    if us >= 100_000:
        return f"{us / 1000:,.0f} ms"
    if us >= 1_000:
        return f"{us / 1000:.2f} ms"
    return f"{us:.0f} µs" if us >= 10 else f"{us:.1f} µs"


def fmt_ratio(a, b) -> str:
    if a is None or b is None or b == 0:
        return "–"
    r = a / b
    return f"{r:,.0f}×" if r >= 10 else f"{r:.2f}×"


def machine_info(ref: str | None) -> dict:
    model = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = proc_meminfo_gb()
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    wrk = subprocess.run(["wrk", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    commit = subprocess.run(["git", "rev-parse", "--short", ref or "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    dirty = "" if ref else subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                                          capture_output=True, text=True).stdout.strip()
    return dict(nproc=os.cpu_count(), cpu=model, mem_gb=mem, kernel=platform.release(),
                swift=swift[0] if swift else "?", wrk=wrk[0].split(" [")[0] if wrk else "?",
                python=platform.python_version(),
                commit=commit + (" (built from a `git archive` export: --ref)" if ref
                                 else " (work tree, with uncommitted changes)" if dirty else ""),
                loadavg=os.getloadavg())


def proc_meminfo_gb() -> float | None:
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    return None


def by_key(records: list[dict]) -> dict[str, dict]:
    return {r["key"]: r for r in records}


def render(results: dict) -> str:
    args = results["args"]
    records = results["servers"]
    keyed = by_key(records)
    labels = [(r["key"], r["label"]) for r in records]
    ours = [r["key"] for r in records if r["kind"] == "ours"]
    peers = [r["key"] for r in records if r["kind"] == "peer"]
    has_ceiling = "ceiling" in keyed
    m = results["machine"]
    lines: list[str] = []
    add = lines.append
    add(BEGIN_MARK)
    add("")
    add(f"## Latest run: {results['date']} ({results['profile']})")
    add("")
    add(f"- Machine: {m['nproc']} cores ({m['cpu']}), {fmt(m['mem_gb'], 0)} GiB, Linux {m['kernel']}; "
        f"{m['swift']}; {m['wrk']}; Python {m['python']}.")
    add(f"- Code: commit {m['commit']}. Load average before the run: "
        + ", ".join(f"{x:.2f}" for x in m["loadavg"]) + ".")
    others = [cell(r, w, c, "other_cores") for r in records for w in r["workloads"] for c in r["workloads"][w]]
    other = median(others)
    if results.get("note"):
        add(f"- **Note:** {results['note']}")
    if other is not None and other >= 0.15:
        add(f"- **Shared machine:** other processes kept a median of {other:.2f} of the {m['nproc']} cores busy "
            "during the measured runs (column *other cores* below): treat these numbers as noisy lower bounds.")
    add(f"- Command: `{results['command']}`; each cell is the median of {args['reps']} wrk runs of "
        f"{args['duration']} s (after a {args['warmup']} s warm-up per workload at 8 connections), "
        f"wrk threads = min(connections, 2), `--timeout 10s`.")
    add(f"- Data: table `{TABLE}` (pk S, sk N), {args['items']:,} items of ~200 bytes in "
        f"{args['items'] // PER_PARTITION:,} partitions of {PER_PARTITION}, preloaded through the API with "
        "BatchWriteItem (25 per request, 2 connections). Requests: `scripts/bench.d/dynamo.lua`.")
    add(f"- Load: `BENCH_OP=WORKLOAD BENCH_TABLE={TABLE} BENCH_PARTITIONS={args['items'] // PER_PARTITION} "
        f"BENCH_PER_PART={PER_PARTITION} wrk -t min(C,2) -c C -d {args['duration']}s --timeout 10s "
        "-s scripts/bench.d/dynamo.lua http://127.0.0.1:PORT/` for C in "
        + ", ".join(str(c) for c in args["conns"]) + "; server CPU from `/proc/PID/stat` before and after.")
    add("- Servers, one after another on 127.0.0.1:")
    for r in records:
        add(f"  - {r['label']}: `{r['command']}`")
    add("")

    # Throughput
    add("### Requests per second")
    add("")
    header = ["workload", "conns"] + [label for _, label in labels]
    ratio_cols = []
    for o in ours:
        if has_ceiling:
            ratio_cols.append((o, "ceiling"))
        for p in peers:
            ratio_cols.append((o, p))
    short = {"ld-mem": "mem", "ld-disk": "disk", "moto": "moto", "ministack": "ministack", "ceiling": "ceiling"}
    header += [f"{short.get(a, a)}/{short.get(b, b)}" for a, b in ratio_cols]
    add("| " + " | ".join(header) + " |")
    add("|" + "---|" * 2 + "---:|" * (len(header) - 2))
    for workload in args["workloads"]:
        for conns in args["conns"]:
            row = [WORKLOADS[workload], str(conns)]
            for key, _ in labels:
                value = cell(keyed[key], workload, conns, "rps")
                errors = (cell(keyed[key], workload, conns, "non2xx") or 0) + (cell(keyed[key], workload, conns, "socket_errors") or 0)
                row.append(fmt(value) + (f" ({errors} errors)" if errors else ""))
            for a, b in ratio_cols:
                row.append(fmt_ratio(cell(keyed[a], workload, conns, "rps"), cell(keyed[b], workload, conns, "rps")))
            add("| " + " | ".join(row) + " |")
    add("")

    # Latency
    add("### Latency p50 / p99")
    add("")
    add("| workload | conns | " + " | ".join(label for _, label in labels) + " |")
    add("|---|---|" + "---:|" * len(labels))
    for workload in args["workloads"]:
        for conns in args["conns"]:
            row = [WORKLOADS[workload], str(conns)]
            for key, _ in labels:
                p50 = cell(keyed[key], workload, conns, "p50_us")
                p99 = cell(keyed[key], workload, conns, "p99_us")
                row.append("–" if p50 is None else f"{fmt_us(p50)} / {fmt_us(p99)}")
            add("| " + " | ".join(row) + " |")
    add("")

    # CPU per request
    add("### Server CPU time per request (user + system, all threads, from /proc/PID/stat)")
    add("")
    add("| workload | conns | " + " | ".join(label for _, label in labels) + " | other cores |")
    add("|---|---|" + "---:|" * (len(labels) + 1))
    for workload in args["workloads"]:
        for conns in args["conns"]:
            row = [WORKLOADS[workload], str(conns)]
            for key, _ in labels:
                row.append(fmt_us(cell(keyed[key], workload, conns, "cpu_us_per_req")).replace("µs", "µs")
                           if cell(keyed[key], workload, conns, "cpu_us_per_req") is not None else "–")
            row.append(fmt(median([cell(keyed[k], workload, conns, "other_cores") for k, _ in labels]), 2))
            add("| " + " | ".join(row) + " |")
    add("")
    add("*other cores*: CPU that neither the server nor wrk used during the runs (median over the "
        "servers' runs), in cores; it is other processes on the machine.")
    add("")

    # Start and memory
    add("### Start-up and memory")
    add("")
    add("| server | first answer after start | idle RSS | RSS after preload | RSS at end | peak RSS | threads | preload |")
    add("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in records:
        preload_text = "–"
        if r.get("preload_s"):
            preload_text = f"{r['preload_s']:.2f} s ({args['items'] / r['preload_s']:,.0f} items/s)"
        add(f"| {r['label']} | {fmt(r.get('cold_start_ms'), 1)} ms | {fmt_mb(r.get('idle_rss_kb'))} | "
            f"{fmt_mb(r.get('loaded_rss_kb'))} | {fmt_mb(r.get('final_rss_kb'))} | {fmt_mb(r.get('peak_rss_kb'))} | "
            f"{r.get('threads') or '–'} | {preload_text} |")
    add("")
    add("*RSS at end* includes every item the write workloads added (PutItem and BatchWriteItem write new keys).")
    add("")
    for key, samples in results.get("cold_starts", {}).items():
        lines.extend(startup.summary_lines(keyed[key]["label"] if key in keyed else key, samples))

    # Size sweep
    if results.get("sizes"):
        add("### Latency and memory as the table grows (1 connection)")
        add("")
        add("| server | items | GetItem p50 / p99 | Query p50 / p99 | GetItem req/s | Query req/s | RSS | load rate |")
        add("|---|---:|---:|---:|---:|---:|---:|---:|")
        for key, rows in results["sizes"].items():
            for row in rows:
                add(f"| {keyed[key]['label'] if key in keyed else key} | {row['items']:,} | "
                    f"{fmt_us(row['get']['p50_us'])} / {fmt_us(row['get']['p99_us'])} | "
                    f"{fmt_us(row['query']['p50_us'])} / {fmt_us(row['query']['p99_us'])} | "
                    f"{fmt(row['get']['rps'])} | {fmt(row['query']['rps'])} | {fmt_mb(row['rss_kb'])} | "
                    f"{fmt(row['load_items_per_s'])} items/s |")
        add("")
        for key, rows in results["sizes"].items():
            per_item = bytes_per_item(rows)
            if per_item is not None:
                add(f"{keyed[key]['label'] if key in keyed else key}: {per_item:,.0f} bytes of RSS per item "
                    f"from {rows[0]['items']:,} to {rows[-1]['items']:,} items (~200-byte items).")
        add("")

    # Scan
    if results.get("scan"):
        add("### Scan of a large table (whole table, 1 MB pages, one connection; and 2 parallel segments)")
        add("")
        add("| server | items | pages | Scan items/s | parallel Scan (2 segments) items/s | RSS loaded |")
        add("|---|---:|---:|---:|---:|---:|")
        for key, scan in results["scan"].items():
            add(f"| {keyed[key]['label'] if key in keyed else key} | {scan['items']:,} | {scan['pages']:,} | "
                f"{fmt(scan['items_per_s'])} | {fmt(scan['parallel_items_per_s'])} | {fmt_mb(scan.get('rss_kb'))} |")
        add("")

    # Vector search
    if results.get("vectors"):
        lines += vector_section(results["vectors"], lambda key: keyed[key]["label"] if key in keyed else key)

    # TTL sweep
    if results.get("ttl"):
        add("### TTL sweep (`POST /_localdynamo/ttl/sweep` after moving the clock; half the table expired)")
        add("")
        add("| server | items | expired | expired items deleted/s | pass with nothing due |")
        add("|---|---:|---:|---:|---:|")
        for key, ttl in results["ttl"].items():
            add(f"| {keyed[key]['label'] if key in keyed else key} | {ttl['items']:,} | {ttl['expired']:,} | "
                f"{fmt(ttl['deleted_per_s'])} | {ttl['idle_pass_ms']:.1f} ms |")
        add("")

    # Targets
    targets = evaluate_targets(results)
    if targets:
        add("### Targets (issue 19)")
        add("")
        add("| target | measured | verdict |")
        add("|---|---|---|")
        for name, measured, ok in targets:
            add(f"| {name} | {measured} | {'met' if ok else '**missed**' if ok is False else '–'} |")
        add("")

    if results.get("instructions"):
        for line in instructions.render(results["instructions"], m["commit"].split(" ")[0]):
            add(line)

    problems = [f"{r['label']}: {p}" for r in records for p in r["problems"]]
    if problems:
        add("### Problems (a server that failed, or a workload whose probe request did not do what it should)")
        add("")
        for p in problems:
            add(f"- {p}")
        add("")
    errors = [(r["label"], w, c, cell(r, w, c, "non2xx"), cell(r, w, c, "socket_errors"))
              for r in records for w in r["workloads"] for c in r["workloads"][w]]
    bad = [e for e in errors if e[3] or e[4]]
    add("### Errors")
    add("")
    if bad:
        for label, w, c, non2xx, sock in bad:
            add(f"- {label}, {WORKLOADS[w]}, {c} connections: {non2xx} non-2xx answers, {sock} socket errors/timeouts")
    else:
        total = sum(cell(r, w, c, "requests") or 0 for r in records for w in r["workloads"] for c in r["workloads"][w])
        add(f"None: all {total:,} measured requests were answered 2xx (wrk counts statuses ≥ 400; before each "
            "workload a probe checked its requests' answers: the item, 10 query items, no unprocessed items).")
    add("")

    if results.get("perf"):
        for key, profile in results["perf"].items():
            add(f"### Profile: {keyed[key]['label'] if key in keyed else key}, "
                f"{WORKLOADS[profile.get('workload', 'get')]} at 8 connections")
            add("")
            if profile.get("error"):
                add(f"perf failed: {profile['error']}")
            else:
                add(f"{fmt(profile.get('rps'))} req/s during the profile. `perf stat`:")
                add("")
                add("```")
                add("\n".join(l for l in (profile.get("stat") or "").splitlines() if l.strip()))
                add("```")
                add("")
                add("`perf record -e cpu-clock -F 999 -g` (self time) by shared object; the inclusive "
                    "(caller) view is in `perf-*-inclusive.txt` beside the raw results:")
                add("")
                add("```")
                add("\n".join(profile.get("dsos", [])))
                add("```")
                add("")
                add("Top symbols (share of all samples):")
                add("")
                add("```")
                add("\n".join(l[:160] for l in profile.get("top", [])))
                add("```")
                add("")
                add("Top symbols inside the localdynamo binary (share of all samples):")
                add("")
                add("```")
                add("\n".join(l[:160] for l in profile.get("own", [])))
                add("```")
            add("")
    for line in clients.render_clients(results.get("clients") or [], fmt, fmt_us):
        add(line)
    for line in clients.render_store(results.get("store") or {}):
        add(line)
    add(END_MARK)
    return "\n".join(lines) + "\n"


def write_doc(report: str, path: Path) -> None:
    if path.exists():
        text = path.read_text()
        if BEGIN_MARK in text and END_MARK in text:
            before = text[: text.index(BEGIN_MARK)]
            after = text[text.index(END_MARK) + len(END_MARK):]
            path.write_text(before + report.rstrip("\n") + after)
            return
        path.write_text(text.rstrip("\n") + "\n\n" + report)
        return
    path.write_text("# Performance\n\nMeasured by `scripts/bench` (see its `--help`).\n\n" + report)


def vector_section(by_server: dict, label) -> list[str]:
    """The vector-search table: one row per server measured (`label(key)` names it)."""
    lines = ["### Vector search (SearchVectors `TopK` 10 over one COSINE index, one connection; no peer has vector indexes)", "",
             "| server | vectors × dimensions | first search | p50 | p99 | after a restart: first / p50 / p99 | "
             "backfill vectors/s | index RSS / raw f32 | PutItem CPU with index / without |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key, vectors in by_server.items():
        search = vectors["search"]
        restart = vectors.get("after_restart")
        restarted = f"{restart['first_ms']:.0f} / {restart['p50_ms']:.1f} / {restart['p99_ms']:.1f} ms" if restart else "–"
        put = vectors["put_cpu_us"]
        lines.append(
            f"| {label(key)} | {vectors['items']:,} × {vectors['dimensions']} | {search['first_ms']:.0f} ms | "
            f"{search['p50_ms']:.1f} ms | {search['p99_ms']:.1f} ms | {restarted} | {fmt(vectors['backfill_vectors_per_s'])} | "
            f"{vectors['index_rss_mb']:.0f} MB / {vectors['raw_mb']:.0f} MB ({vectors['index_rss_mb'] / vectors['raw_mb']:.2f}×) | "
            f"{put['with_index']:.0f} / {put['without']:.0f} µs ({put['ratio']:.2f}×) |")
    lines.append("")
    return lines
