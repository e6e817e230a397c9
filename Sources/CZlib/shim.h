#ifndef LOCALDYNAMO_CZLIB_SHIM_H
#define LOCALDYNAMO_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 and inflateInit2 are macros (they pass the library version and the stream
/// size); these make them callable from Swift.
static inline int localdynamo_inflate_init(z_stream *stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

static inline int localdynamo_deflate_init(z_stream *stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}
#endif
