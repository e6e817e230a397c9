extension Database {
    /// How much of a database file each reader connection maps into memory (`PRAGMA mmap_size`):
    /// 1 GiB of address space, not of memory.
    ///
    /// A reader then reads the file's pages where the kernel's page cache holds them, instead of
    /// copying each page its own 2 MB page cache lacks with a `pread` (a system call and a copy
    /// per page, per connection). Pages still in the write-ahead log are read as before. SQLite
    /// keeps the mapping in step with the file: a read transaction that finds the database
    /// changed (a checkpoint that shrank it after a restore, a `VACUUM`) drops the mapping and
    /// maps the file again at its new size. Only reader connections map (they never write);
    /// the writer writes through its page cache as before. Past this size a reader reads the
    /// rest of the file with `pread`, as without mapping.
    static let readerMapBytes = 1 << 30

    /// Sets a new reader connection up: read-only statements, and the file mapped for reading
    /// (``readerMapBytes``).
    static func configureReader(_ connection: SQLiteConnection) throws {
        try connection.execute("PRAGMA query_only=1")
        try connection.execute("PRAGMA mmap_size=\(readerMapBytes)")
    }
}
