import DynamoEngine

extension AdminRoutes {
    /// `GET /metrics`: Prometheus' text format, open to every caller (read-only, no item data).
    static let metrics: [AdminRoute] = [
        AdminRoute(
            "GET", "/metrics",
            "Prometheus text format: requests and latency per operation, errors, faults, connections, table sizes, stream records, TTL deletions, stale answers, SQLite page-cache hits, memory (resident, allocator, SQLite)",
            contentType: "text/plain; version=0.0.4; charset=utf-8", openToAll: true
        ) { _, environment in
            let engine = environment.engine
            let (tables, pageCache) = try await environment.blocking { (try engine.tableMetrics(), engine.pageCacheMetrics()) }
            return MetricsExposition.render(
                requests: environment.metrics, tables: tables,
                injectedFaults: environment.faults.injectedCount,
                ttlDeletions: engine.counters.ttlDeletedItems, staleAnswers: engine.staleAnswerCount, pageCache: pageCache,
                memory: ProcessMemory.current(), sqliteMemory: SQLiteMemory.current())
        }
    ]
}

/// Renders every `/metrics` family.
enum MetricsExposition {
    static func render(
        requests: ServerMetrics?, tables: [TableMetrics], injectedFaults: Int, ttlDeletions: Int, staleAnswers: Int = 0,
        pageCache: [(namespace: String, counts: PageCacheCounts)] = [],
        memory: ProcessMemory = ProcessMemory(), sqliteMemory: SQLiteMemory? = nil
    ) -> String {
        var out = PrometheusText()
        if let requests {
            let slots = requests.usedSlots
            out.family(
                "localdynamo_requests_total", type: "counter",
                help: "Requests answered, by operation (admin calls and unknown targets count as other).")
            for slot in slots { out.sample("localdynamo_requests_total", [("operation", slot.name)], slot.requests.current) }
            out.family("localdynamo_request_duration_seconds", type: "histogram", help: "Time from a request's head to its answer, by operation.")
            for slot in slots {
                var cumulative = 0
                for (index, bound) in (ServerMetrics.bucketBounds + [.infinity]).enumerated() {
                    cumulative += slot.buckets[index].current
                    out.sample(
                        "localdynamo_request_duration_seconds_bucket",
                        [("operation", slot.name), ("le", PrometheusText.number(bound))], cumulative)
                }
                out.sample("localdynamo_request_duration_seconds_sum", [("operation", slot.name)], Double(slot.nanoseconds.current) / 1e9)
                out.sample("localdynamo_request_duration_seconds_count", [("operation", slot.name)], cumulative)
            }
            out.family("localdynamo_errors_total", type: "counter", help: "Error answers, by operation and error type.")
            for error in requests.errorCounts {
                out.sample("localdynamo_errors_total", [("operation", error.operation), ("type", error.type)], error.count)
            }
            out.family("localdynamo_open_connections", type: "gauge", help: "HTTP connections open now.")
            out.sample("localdynamo_open_connections", [], requests.openConnections.current)
            out.family("localdynamo_connections_total", type: "counter", help: "HTTP connections accepted since start.")
            out.sample("localdynamo_connections_total", [], requests.acceptedConnections.current)
        }
        out.family(
            "localdynamo_injected_faults_total", type: "counter",
            help: "Requests that met an injected fault (serve --fault, POST /_localdynamo/faults).")
        out.sample("localdynamo_injected_faults_total", [], injectedFaults)
        out.family("localdynamo_ttl_deleted_items_total", type: "counter", help: "Items the TTL sweeper deleted.")
        out.sample("localdynamo_ttl_deleted_items_total", [], ttlDeletions)
        out.family(
            "localdynamo_consistency_stale_answers_total", type: "counter",
            help: "Items an eventually consistent read answered in an earlier version or left out (serve --consistency service).")
        out.sample("localdynamo_consistency_stale_answers_total", [], staleAnswers)
        out.family("localdynamo_table_items", type: "gauge", help: "Items in a table.")
        for table in tables { out.sample("localdynamo_table_items", labels(table), Int(table.items)) }
        out.family("localdynamo_table_size_bytes", type: "gauge", help: "A table's size as DescribeTable reports it.")
        for table in tables { out.sample("localdynamo_table_size_bytes", labels(table), Int(table.bytes)) }
        out.family("localdynamo_stream_records_total", type: "counter", help: "Stream records written for a table.")
        for table in tables { out.sample("localdynamo_stream_records_total", labels(table), Int(table.streamRecords)) }
        out.family("localdynamo_sqlite_page_cache_hits_total", type: "counter", help: "Pages SQLite found in its page cache, by namespace.")
        for entry in pageCache { out.sample("localdynamo_sqlite_page_cache_hits_total", [("namespace", entry.namespace)], Int(entry.counts.hits)) }
        out.family("localdynamo_sqlite_page_cache_misses_total", type: "counter", help: "Pages SQLite read from the database file, by namespace.")
        for entry in pageCache {
            out.sample("localdynamo_sqlite_page_cache_misses_total", [("namespace", entry.namespace)], Int(entry.counts.misses))
        }
        renderMemory(into: &out, memory: memory, sqliteMemory: sqliteMemory)
        return out.text
    }

    /// The memory families; a reading the platform does not offer is left out.
    private static func renderMemory(into out: inout PrometheusText, memory: ProcessMemory, sqliteMemory: SQLiteMemory?) {
        let gauges: [(String, String, Int?)] = [
            ("process_resident_memory_bytes", "Resident memory size in bytes.", memory.residentBytes),
            ("localdynamo_malloc_in_use_bytes", "Bytes the C allocator has handed out and not had back.", memory.mallocInUseBytes),
            ("localdynamo_malloc_held_bytes", "Bytes the C allocator holds from the system, in use or free.", memory.mallocHeldBytes),
            (
                "localdynamo_sqlite_memory_bytes", "Bytes SQLite holds (page caches, statements, schemas) across every connection.",
                sqliteMemory.map { Int($0.used) }
            ),
            ("localdynamo_sqlite_memory_high_water_bytes", "The most SQLite has held since start.", sqliteMemory.map { Int($0.highWater) }),
        ]
        for (name, help, reading) in gauges {
            guard let reading else { continue }
            out.family(name, type: "gauge", help: help)
            out.sample(name, [], reading)
        }
    }

    private static func labels(_ table: TableMetrics) -> [(String, String)] {
        [("namespace", table.namespace), ("table", table.table)]
    }
}
