#ifndef LOCALDYNAMO_CSQLITE_SHIM_H
#define LOCALDYNAMO_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro over a cast Swift cannot import; this makes it callable.
static inline sqlite3_destructor_type localdynamo_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
