#ifndef LOCALDYNAMO_CZLIB_SHIM_H
#define LOCALDYNAMO_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 and inflateInit2 are macros; these wrap them for Swift.
static inline int localdynamo_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int localdynamo_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 32);
}
#endif
