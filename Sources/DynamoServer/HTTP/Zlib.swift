import CZlib

/// gzip and zlib ("deflate") streams, over the system's zlib.
enum Zlib {
    /// The two stream formats HTTP's `gzip` and `deflate` codings name.
    enum Format: Sendable {
        /// RFC 1952, `Content-Encoding: gzip`.
        case gzip
        /// RFC 1950 (a zlib stream), `Content-Encoding: deflate`.
        case zlib

        var windowBits: Int32 { self == .gzip ? 15 + 16 : 15 }
    }

    /// Why a body could not be inflated.
    enum InflateError: Error, Equatable {
        /// Not a valid stream, or cut short.
        case corrupt
        /// The inflated bytes would exceed the limit.
        case tooLarge
    }

    /// Inflates a whole body.
    ///
    /// gzip: consecutive members are inflated one after another (RFC 1952 allows them); bytes
    /// after the last member that do not start another one are ignored, as DynamoDB ignores
    /// them. zlib: exactly one stream, nothing after it.
    ///
    /// - Throws: ``InflateError/corrupt`` for an empty, malformed or truncated stream,
    ///   ``InflateError/tooLarge`` as soon as the output would pass `limit` bytes.
    static func inflate(_ input: [UInt8], format: Format, limit: Int) throws(InflateError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(4096, input.count * 4)))
        var offset = 0
        repeat {
            offset += try inflateStream(input, from: offset, format: format, limit: limit, into: &output)
            guard format == .gzip, offset + 1 < input.count, input[offset] == 0x1F, input[offset + 1] == 0x8B else {
                if format == .zlib, offset != input.count { throw .corrupt }
                break
            }
        } while true
        return output
    }

    /// Inflates one stream starting at `start`; returns how many input bytes it used.
    private static func inflateStream(
        _ input: [UInt8], from start: Int, format: Format, limit: Int,
        into output: inout [UInt8]
    ) throws(InflateError) -> Int {
        var stream = z_stream()
        guard localdynamo_inflate_init(&stream, format.windowBits) == Z_OK else { throw .corrupt }
        defer { inflateEnd(&stream) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        var overLimit = false
        let consumed: Int = input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress.map { $0 + start })
            stream.avail_in = UInt32(source.count - start)
            while status == Z_OK {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                if output.count + produced > limit { overLimit = true; break }
                output.append(contentsOf: chunk[..<produced])
                if status == Z_BUF_ERROR, stream.avail_in == 0 { break } // input ended mid-stream
            }
            return source.count - start - Int(stream.avail_in)
        }
        if overLimit { throw .tooLarge }
        guard status == Z_STREAM_END else { throw .corrupt }
        return consumed
    }

    /// Deflates a whole body at zlib's default level.
    static func deflate(_ input: [UInt8], format: Format) -> [UInt8] {
        var stream = z_stream()
        guard localdynamo_deflate_init(&stream, Z_DEFAULT_COMPRESSION, format.windowBits) == Z_OK else { return input }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        let written: Int = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                _ = CZlib.deflate(&stream, Z_FINISH) // the bound guarantees one call finishes
                return target.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }
}
