import CZlib

/// gzip streams (RFC 1952) through zlib: what exports write and GZIP imports read.
package enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `bytes` compressed as one gzip member.
    package static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard localdynamo_deflate_init(&stream, Z_DEFAULT_COMPRESSION, 15 + 16) == Z_OK else {
            throw Failure(description: "zlib could not start compressing")
        }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        try input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            var status: Int32 = Z_OK
            repeat {
                try chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = deflate(&stream, Z_FINISH)
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        throw Failure(description: "zlib failed to compress (\(status))")
                    }
                    output.append(contentsOf: target[..<(target.count - Int(stream.avail_out))])
                }
            } while status != Z_STREAM_END
        }
        return output
    }

    /// The bytes of a gzip (or zlib) stream, every concatenated member.
    /// - Throws: ``Failure`` for data that is not a complete gzip stream.
    package static func decompress(_ bytes: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        var input = bytes
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        try input.withUnsafeMutableBufferPointer { source in
            var offset = 0
            while offset < source.count {
                var stream = z_stream()
                guard localdynamo_inflate_init(&stream, 15 + 32) == Z_OK else {
                    throw Failure(description: "zlib could not start decompressing")
                }
                defer { inflateEnd(&stream) }
                stream.next_in = source.baseAddress! + offset
                stream.avail_in = uInt(source.count - offset)
                var status: Int32 = Z_OK
                repeat {
                    try chunk.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = uInt(target.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        guard status == Z_OK || status == Z_STREAM_END else {
                            throw Failure(description: "The data is not valid gzip (zlib status \(status))")
                        }
                        output.append(contentsOf: target[..<(target.count - Int(stream.avail_out))])
                    }
                } while status != Z_STREAM_END
                offset = source.count - Int(stream.avail_in)
            }
        }
        return output
    }
}
