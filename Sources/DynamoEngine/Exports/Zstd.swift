import DynamoAPI
import CZstd

/// Zstandard frames through libzstd: what ZSTD imports read.
enum Zstd {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of every concatenated frame of `bytes` (streaming, so frames without a content
    /// size in their header decompress too).
    /// - Throws: ``Failure`` for data that is not complete Zstandard frames.
    static func decompress(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let stream = ZSTD_createDStream() else { throw Failure(description: "libzstd could not start decompressing") }
        defer { ZSTD_freeDStream(stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
        var lastHint = 0
        try bytes.withUnsafeBytes { source in
            var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
            while input.pos < input.size {
                try chunk.withUnsafeMutableBytes { target in
                    var out = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
                    let hint = ZSTD_decompressStream(stream, &out, &input)
                    if ZSTD_isError(hint) != 0 {
                        throw Failure(description: "The data is not valid Zstandard: \(String(cString: ZSTD_getErrorName(hint)))")
                    }
                    lastHint = hint
                    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: target[..<out.pos]))
                }
            }
        }
        // A non-zero hint after all input means the last frame is cut short.
        guard lastHint == 0 else { throw Failure(description: "The Zstandard data ends inside a frame") }
        return output
    }
}

extension InputCompressionType {
    /// `bytes` decompressed as this type says (GZIP, ZSTD; NONE and unknown values as they are):
    /// how ImportTable and StartBulkPutItems read their input objects.
    func decompress(_ bytes: [UInt8]) throws -> [UInt8] {
        switch self {
        case .gzip: try Gzip.decompress(bytes)
        case .zstd: try Zstd.decompress(bytes)
        default: bytes
        }
    }
}
