#ifndef LOCALDYNAMO_CMALLOCINFO_SHIM_H
#define LOCALDYNAMO_CMALLOCINFO_SHIM_H
#include <stddef.h>
#include <stdlib.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
/// The C allocator's account (glibc's mallinfo2, which Swift's Glibc module does not import):
/// bytes handed out and not freed, and bytes held from the system. Returns 0 where unavailable.
static inline int localdynamo_malloc_info(size_t *in_use, size_t *held) {
    struct mallinfo2 info = mallinfo2();
    *in_use = info.uordblks + info.hblkhd;
    *held = info.arena + info.hblkhd;
    return 1;
}
#else
static inline int localdynamo_malloc_info(size_t *in_use, size_t *held) {
    (void)in_use;
    (void)held;
    return 0;
}
#endif
#endif
