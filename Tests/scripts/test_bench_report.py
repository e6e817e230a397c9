"""Tests of scripts/bench's report maths (scripts/bench.d/benchkit): medians and summaries of wrk
runs, number formats, the targets' verdicts, the RSS cost per item and the doc's bench markers."""

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "bench.d"))

from benchkit import common, measurement, report, startup, targets  # noqa: E402
from benchkit.workloads import WORKLOAD_ORDER, WORKLOADS  # noqa: E402


def run(rps, p50=100, p99=900, cpu=50.0, other=0.1, requests=1000, non2xx=0, socket_errors=0):
    return dict(rps=rps, latency_us=dict(p50=p50, p99=p99), cpu_us_per_req=cpu, other_cores=other,
                requests=requests, non2xx=non2xx, socket_errors=socket_errors)


def server(key, kind, cells, **extra):
    """A results.json server record: `cells` maps (workload, conns) to a summary's fields."""
    workloads: dict = {}
    for (workload, conns), summary in cells.items():
        workloads.setdefault(workload, {})[conns] = dict(summary=summary, runs=[])
    return dict(key=key, label=key, kind=kind, workloads=workloads, problems=[], **extra)


def test_median_ignores_missing_values():
    assert common.median([3, None, 1, 2]) == 2
    assert common.median([None, None]) is None
    assert common.median([1, 2, 3, 4]) == 2.5


def test_summary_takes_medians_and_sums_counts():
    summary = measurement.summarize([run(100, p50=10, requests=5, non2xx=1),
                                     run(300, p50=30, requests=7, socket_errors=2),
                                     run(200, p50=20, requests=9)])
    assert summary["rps"] == 200
    assert summary["p50_us"] == 20
    assert summary["requests"] == 21
    assert summary["non2xx"] == 1 and summary["socket_errors"] == 2
    assert summary["reps"] == 3
    assert summary["rps_all"] == [100.0, 300.0, 200.0]


def test_summary_median_is_order_independent_seeded():
    rng = random.Random(19)
    for _ in range(50):
        runs = [run(rng.uniform(1, 1e5), p50=rng.randint(1, 10_000)) for _ in range(rng.randint(1, 7))]
        shuffled = runs[:]
        rng.shuffle(shuffled)
        assert measurement.summarize(runs)["rps"] == measurement.summarize(shuffled)["rps"]
        rates = sorted(r["rps"] for r in runs)
        assert rates[0] <= measurement.summarize(runs)["rps"] <= rates[-1]


@pytest.mark.parametrize("a, b, text", [(50, 100, "0.50×"), (1000, 10, "100×"), (12345, 1, "12,345×"),
                                        (None, 1, "–"), (1, 0, "–")])
def test_ratio_format(a, b, text):
    assert report.fmt_ratio(a, b) == text


@pytest.mark.parametrize("us, text", [(None, "–"), (5.25, "5.2 µs"), (85, "85 µs"), (1500, "1.50 ms"),
                                      (250_000, "250 ms")])
def test_microseconds_format(us, text):
    assert report.fmt_us(us) == text


def test_ceiling_share_verdicts():
    results = dict(servers=[
        server("ld-mem", "ours", {("get", 8): dict(rps=61), ("query", 8): dict(rps=44)}),
        server("ceiling", "ceiling", {("get", 8): dict(rps=100), ("query", 8): dict(rps=100)}),
    ])
    verdicts = {name: (value, ok) for name, value, ok in targets.evaluate_targets(results)}
    get = verdicts[f"ld-mem {WORKLOADS['get']}, 8 conns ≥ 60% of ceiling"]
    query = verdicts[f"ld-mem {WORKLOADS['query']}, 8 conns ≥ 45% of ceiling"]
    assert get == ("61% (61 / 100)", True)
    assert query == ("44% (44 / 100)", False)
    # PutItem's share is a disk target only.
    assert not any("PutItem (new key), 8 conns" in name for name in verdicts)


def test_cost_ratio_verdicts_compare_cpu_per_request():
    results = dict(servers=[server("ld-disk", "ours", {
        ("put", 8): dict(cpu_us_per_req=100.0),
        ("put-gsi2", 8): dict(cpu_us_per_req=150.0),
        ("put-stream", 8): dict(cpu_us_per_req=116.0),
    })])
    verdicts = {name: (value, ok) for name, value, ok in targets.evaluate_targets(results)}
    assert verdicts[f"ld-disk {WORKLOADS['put-gsi2']}: CPU per request ≤ 1.5× {WORKLOADS['put']}"] \
        == ("1.50× (150 µs vs 100 µs)", True)
    assert verdicts[f"ld-disk {WORKLOADS['put-stream']}: CPU per request ≤ 1.15× {WORKLOADS['put']}"][1] is False


def test_peer_multiples_and_string_connection_keys():
    # results.json written and read back has string keys for the connection counts.
    ours = server("ld-mem", "ours", {})
    ours["workloads"] = {"get": {"8": dict(summary=dict(rps=5000))}}
    moto = server("moto", "peer", {("get", 8): dict(rps=100)})
    verdicts = {name: (value, ok) for name, value, ok in targets.evaluate_targets(dict(servers=[ours, moto]))}
    assert verdicts[f"ld-mem {WORKLOADS['get']}, 8 conns ≥ 50× moto"] == ("50×", True)


def test_scan_rss_and_cold_start_verdicts():
    results = dict(
        servers=[server("ld-mem", "ours", {}, idle_rss_kb=16 * 1024)],
        scan={"ld-mem": dict(items=100_000, pages=50, items_per_s=300_000.0, parallel_items_per_s=200_000.0)},
        sizes={"ld-mem": [dict(items=1_000, rss_kb=20_000), dict(items=1_000_000, rss_kb=290 * 1024)]},
        cold_starts={"ld-mem": [dict(ms=20.0, rss_kb=14 * 1024), dict(ms=40.0, rss_kb=30 * 1024),
                                dict(ms=25.0, rss_kb=15 * 1024)]},
    )
    verdicts = {name: (value, ok) for name, value, ok in targets.evaluate_targets(results)}
    assert verdicts["ld-mem idle RSS ≤ 15 MB"] == ("16.0 MB", False)
    assert verdicts["ld-mem Scan of 100,000 items ≥ 250,000 items/s"][1] is True
    assert verdicts["ld-mem parallel Scan (2 segments) of 100,000 items ≥ 250,000 items/s"][1] is False
    assert verdicts["ld-mem RSS with 1,000,000 items ≤ 300 MB"] == ("290 MB", True)
    assert verdicts["ld-mem cold start ≤ 15 ms"] == ("25.0 ms (median of 3)", False)
    assert verdicts["ld-mem RSS at first answer ≤ 15 MB"] == ("15.0 MB (median of 3)", True)
    fast = dict(servers=[server("ld-mem", "ours", {})], cold_starts={"ld-mem": [dict(ms=15.0), dict(ms=9.0)]})
    verdicts = {name: (value, ok) for name, value, ok in targets.evaluate_targets(fast)}
    assert verdicts["ld-mem cold start ≤ 15 ms"] == ("12.0 ms (median of 2)", True)
    assert "ld-mem RSS at first answer ≤ 15 MB" not in verdicts


def mapping(start, end, perms, path="", rss=0):
    return dict(start=start, end=end, perms=perms, path=path, rss=rss)


def test_resident_set_by_part():
    """Libraries go to their part by file name, the executable to its own, an anonymous writable
    mapping right above a guard page to the thread stacks, other anonymous memory to the heap."""
    maps = [
        mapping(0x1000, 0x9000, "r-xp", "/work/.build/release/localdynamo", rss=3000),
        mapping(0x9000, 0xA000, "rw-p", "[heap]", rss=500),
        mapping(0x10000, 0x11000, "---p"),
        mapping(0x11000, 0x91000, "rw-p", rss=40),
        mapping(0x100000, 0x200000, "rw-p", rss=700),
        mapping(0x300000, 0x301000, "r--p", "/usr/lib/swift/linux/lib_FoundationICU.so", rss=1100),
        mapping(0x301000, 0x302000, "r-xp", "/usr/lib/swift/linux/libFoundationNetworking.so", rss=600),
        mapping(0x302000, 0x303000, "r-xp", "/usr/lib/swift/linux/libFoundationEssentials.so", rss=2000),
        mapping(0x303000, 0x304000, "r-xp", "/usr/lib/swift/linux/libswiftCore.so", rss=4000),
        mapping(0x304000, 0x305000, "r-xp", "/usr/lib/x86_64-linux-gnu/libcurl.so.4.8.0", rss=300),
        mapping(0x305000, 0x306000, "r-xp", "/usr/lib/x86_64-linux-gnu/libcrypto.so.3", rss=2000),
        mapping(0x306000, 0x307000, "r-xp", "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6", rss=800),
        mapping(0x307000, 0x308000, "r-xp", "/usr/lib/x86_64-linux-gnu/libc.so.6", rss=1500),
        mapping(0x308000, 0x309000, "r--p", "/usr/lib/locale/C.utf8/LC_CTYPE", rss=20),
        mapping(0x7ff0000, 0x7ff1000, "rw-p", "[stack]", rss=60),
        mapping(0x7ff2000, 0x7ff3000, "r-xp", "[vdso]", rss=4),
    ]
    parts = startup.classify(maps, "/anywhere/localdynamo")
    assert parts[startup.BINARY] == 3000
    assert parts[startup.HEAP] == 1200
    assert parts[startup.STACKS] == 100
    assert parts[startup.OTHER_FILES] == 20
    assert parts[startup.OTHER_ANON] == 4
    by_name = {name.split(" ")[0]: kb for name, kb in parts.items() if kb}
    assert by_name["ICU"] == 1100 and by_name["FoundationNetworking"] == 600 and by_name["Foundation"] == 2000
    assert by_name["Swift"] == 4000 and by_name["libcurl"] == 2300 and by_name["SQLite"] == 800
    assert by_name["libc,"] == 1500
    assert sum(parts.values()) == sum(m["rss"] for m in maps)


def test_resident_set_parts_add_up_for_random_layouts():
    """Seeded: whatever the mix of mappings, every resident kB lands in exactly one part."""
    rng = random.Random(46)
    paths = ["", "", "[heap]", "[stack]", "[vdso]", "/x/localdynamo", "/l/libswiftCore.so", "/l/libssl.so.3",
             "/l/libldap.so.2", "/l/libFoundation.so", "/l/other.so", "/l/libz.so.1"]
    for _ in range(200):
        maps, address = [], 0x1000
        for _ in range(rng.randrange(1, 40)):
            size = rng.choice([0x1000, 0x21000, 0x800000])
            maps.append(mapping(address, address + size, rng.choice(["---p", "rw-p", "r-xp", "r--p"]),
                                rng.choice(paths), rng.randrange(0, 5000)))
            address += size + rng.choice([0, 0x1000])
        parts = startup.classify(maps, "/bin/localdynamo")
        assert sum(parts.values()) == sum(m["rss"] for m in maps)
        assert set(parts) == set(startup.ORDER)


def test_cold_start_summary_shows_the_median_start_by_part():
    memory = lambda rss: dict(rollup=dict(Rss=rss, Pss=rss - 100, Private_Dirty=900),  # noqa: E731
                              parts={startup.BINARY: rss - 1024, startup.HEAP: 1024}, libraries=[])
    samples = [dict(ms=ms, rss_kb=rss, memory=memory(rss)) for ms, rss in ((30.0, 20480), (10.0, 10240),
                                                                          (20.0, 30720))]
    assert startup.median_sample(samples)["rss_kb"] == 20480
    text = "\n".join(startup.summary_lines("ld-mem", samples))
    assert "median 20.0 ms, min 10.0 ms, max 30.0 ms; RSS at first answer median 20.0 MB." in text
    assert "Rss 20.0 MB" in text and f"| {startup.BINARY} | 19.00 MB |" in text
    assert f"| {startup.HEAP} | 1.00 MB |" in text and startup.STACKS not in text


def test_client_and_store_verdicts():
    rows = [dict(client="DynamoClient", operation="get", concurrency=8, rps=12_000.0),
            dict(client="boto3", operation="get", concurrency=8, rps=1_000.0),
            dict(client="DynamoClient", operation="put", concurrency=8, rps=9_000.0),
            dict(client="boto3", operation="put", concurrency=8, rps=1_000.0),
            # At one request in flight there is no target.
            dict(client="DynamoClient", operation="query", concurrency=1, rps=100.0),
            dict(client="boto3", operation="query", concurrency=1, rps=100.0)]
    store = dict(save_500_ms=41.0, query_1000_ms=12.0, scan_1000_ms=99.0)
    results = dict(servers=[], clients=rows, store=store)
    verdicts = {name: (value, ok) for name, value, ok in targets.evaluate_targets(results)}
    assert verdicts["DynamoClient GetItem, 8 in flight ≥ 10× boto3"] == ("12.0×", True)
    assert verdicts["DynamoClient PutItem (new key), 8 in flight ≥ 10× boto3"] == ("9.0×", False)
    assert not any(name.startswith("DynamoClient Query") for name in verdicts)
    assert verdicts["DynamoStore `save()` of 500 new objects (5 transactions of 100) ≤ 40 ms"] == ("41.0 ms", False)
    assert verdicts["DynamoStore fetch of 1,000 objects planned as a Query (one partition) ≤ 50 ms"] == ("12.0 ms", True)
    assert not any("Scan" in name for name in verdicts)


def test_ttl_sweep_verdicts_and_section():
    results = dict(
        servers=[server("ld-disk", "ours", {})],
        ttl={"ld-disk": dict(items=100_000, expired=50_000, deleted_per_s=25_000.0, idle_pass_ms=12.5)},
    )
    verdicts = {name: (value, ok) for name, value, ok in targets.evaluate_targets(results)}
    assert verdicts["ld-disk TTL sweep of 50,000 expired items ≥ 20,000 items/s"] == ("25,000 items/s", True)
    assert verdicts["ld-disk TTL pass with 50,000 items none due ≤ 10 ms"] == ("12.5 ms", False)


def test_vector_search_verdicts_and_section():
    vectors = dict(items=100_000, dimensions=384, raw_mb=153.6, load_items_per_s=9_000.0, backfill_vectors_per_s=7_200.0,
                   search=dict(first_ms=266.0, p50_ms=12.7, p99_ms=31.0, searches=100), index_rss_mb=165.0,
                   put_cpu_us=dict(with_index=120.0, without=100.0, ratio=1.2),
                   after_restart=dict(first_ms=270.0, p50_ms=12.4, p99_ms=16.3, searches=100))
    results = dict(servers=[server("ld-disk", "ours", {})], vectors={"ld-disk": vectors})
    verdicts = {name: (value, ok) for name, value, ok in targets.evaluate_targets(results)}
    assert verdicts["ld-disk SearchVectors p50 over 100,000 × 384 ≤ 15 ms"] == ("12.7 ms", True)
    assert verdicts["ld-disk SearchVectors p99 over 100,000 × 384 ≤ 30 ms"] == ("31.0 ms", False)
    assert verdicts["ld-disk SearchVectors p99 over 100,000 × 384 after a restart ≤ 30 ms"] == ("16.3 ms", True)
    assert verdicts["ld-disk vector index backfill ≥ 50,000 vectors/s"] == ("7,200 vectors/s", False)
    assert verdicts["ld-disk vector index RSS ≤ 1.5× its raw f32 bytes"] == ("1.07×", True)
    assert verdicts["ld-disk PutItem CPU with a vector index ≤ 1.3× without"] == ("1.20×", True)
    text = "\n".join(report.vector_section(results["vectors"], lambda key: key))
    assert "| 100,000 × 384 | 266 ms | 12.7 ms | 31.0 ms | 270 / 12.4 / 16.3 ms | 7,200 | 165 MB / 154 MB (1.07×) | 120 / 100 µs (1.20×) |" in text


def test_bytes_per_item():
    rows = [dict(items=1_000, rss_kb=10_000), dict(items=100_000, rss_kb=None),
            dict(items=1_001_000, rss_kb=10_000 + 250_000)]
    assert targets.bytes_per_item(rows) == pytest.approx(250_000 * 1024 / 1_000_000)
    assert targets.bytes_per_item(rows[:1]) is None


def test_write_doc_replaces_only_between_markers(tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text(f"# Title\n\nbefore\n\n{common.BEGIN_MARK}\nold\n{common.END_MARK}\n\nafter\n")
    report.write_doc(f"{common.BEGIN_MARK}\nnew\n{common.END_MARK}\n", doc)
    assert doc.read_text() == f"# Title\n\nbefore\n\n{common.BEGIN_MARK}\nnew\n{common.END_MARK}\n\nafter\n"


def test_every_workload_is_ordered_and_named():
    assert sorted(WORKLOAD_ORDER) == sorted(WORKLOADS)
    lua = (ROOT / "scripts" / "bench.d" / "dynamo.lua").read_text()
    for workload in WORKLOADS:
        assert f'"{workload}"' in lua, f"dynamo.lua has no BENCH_OP {workload}"


def test_instruction_change_is_relative_to_before():
    from benchkit import instructions
    assert instructions.change(200_000, 150_000) == "−25.0%"
    assert instructions.change(200_000, 210_000) == "+5.0%"
    assert instructions.change(None, 150_000) == "–"
    assert instructions.change(200_000, None) == "–"


def test_instruction_table_sets_each_count_beside_its_before():
    from benchkit import instructions
    lines = instructions.render({"counts": {"get": 99_281, "put-stream": 240_000}}, "abc1234")
    table = "\n".join(lines)
    assert "| GetItem | 198,562 | 99,281 | −50.0% |" in table
    assert "| PutItem on a table with a stream | – (new) | 240,000 | – |" in table
    # A workload with a before but not measured in this run still shows its before.
    assert "| BatchWriteItem of 25 new items | 2,530,319 | – | – |" in table
    assert "this run (abc1234)" in table


def test_instruction_table_says_why_it_is_missing():
    from benchkit import instructions
    lines = instructions.render({"error": "callgrind.py exited with 1 (see logs/callgrind.log)"}, "abc1234")
    assert lines[-2] == "Not measured: callgrind.py exited with 1 (see logs/callgrind.log)."
