#ifndef LOCALDYNAMO_CSQLITE_PAGE_CACHE_H
#define LOCALDYNAMO_CSQLITE_PAGE_CACHE_H

#include <stdbool.h>
#include <stdint.h>

/// Installs LocalDynamo's page cache: SQLite's default page cache behind a thin layer whose
/// truncation returns at once when no page at or above the limit can be in the cache.
///
/// Why: when a B-tree split hands out new pages in the wrong order, SQLite swaps two of them
/// through a scratch page number (the lock-byte page, 262,145 with 4 KiB pages). The default cache
/// remembers that number as its highest key, and the next commit's truncation to the database's
/// size then walks every page it holds. For an in-memory database the cache is the database, so
/// that walk grows with the data (about one commit in five of a table filled at random keys). This
/// layer keeps its own bound on the keys that can be live (the highest key a fetch created, plus
/// the few pages moved above it and not moved back) and skips the call when nothing can be removed.
///
/// Must run before SQLite initializes (before the first connection opens); returns whether the
/// layer is installed (false when SQLite was already initialized by someone else, which is only
/// slower). Safe to call more than once; only the first call acts.
bool localdynamo_page_cache_install(void);

/// The calling thread's counts of truncations the layer skipped and passed on to SQLite's cache,
/// since the thread began (SQLite calls the cache on the thread running the statement).
void localdynamo_page_cache_thread_counts(uint64_t *skipped, uint64_t *passed);

#endif
