import CMallocInfo

#if canImport(Glibc)
    import Glibc
#endif

/// The process's memory as the operating system and the C allocator see it, for `/metrics`:
/// together with SQLite's own counter it tells whether growth is SQLite's caches, the Swift heap,
/// or memory the allocator holds but no longer uses. Every reading is `nil` where the platform
/// does not offer it (Linux with glibc 2.33 or later offers all three).
struct ProcessMemory: Sendable, Equatable {
    /// Resident set size in bytes (`/proc/self/statm`).
    var residentBytes: Int?
    /// Bytes the allocator has handed out and not had back (glibc's `mallinfo2`: `uordblks` plus
    /// `hblkhd`, the large blocks it maps on their own).
    var mallocInUseBytes: Int?
    /// Bytes the allocator holds from the system in its arenas and large mappings (in use or free).
    var mallocHeldBytes: Int?

    /// Reads the current figures.
    static func current() -> ProcessMemory {
        var memory = ProcessMemory()
        #if os(Linux) && canImport(Glibc)
            memory.residentBytes = residentFromStatm()
        #endif
        var inUse = 0
        var held = 0
        if localdynamo_malloc_info(&inUse, &held) != 0 {
            memory.mallocInUseBytes = inUse
            memory.mallocHeldBytes = held
        }
        return memory
    }

    #if os(Linux) && canImport(Glibc)
        /// The second field of `/proc/self/statm` (resident pages) times the page size.
        private static func residentFromStatm() -> Int? {
            let descriptor = open("/proc/self/statm", O_RDONLY)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes = [UInt8](repeating: 0, count: 128)
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            let fields = bytes[..<count].split(separator: UInt8(ascii: " "))
            guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
    #endif
}
