/// SHA-256 (FIPS 180-4), for SigV4's payload hash, canonical-request hash and HMAC.
///
/// A small, allocation-light implementation; tested against the NIST example vectors.
///
/// ```swift
/// SHA256.hash(Array("abc".utf8)).hexString
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
package struct SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    )
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    package init() {
        buffer.reserveCapacity(64)
    }

    /// The digest of `bytes` in one call.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Feeds more input.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(contiguous: $0) }
        if handled == nil { update(contiguous: Array(bytes)) }
    }

    private mutating func update(contiguous bytes: UnsafeBufferPointer<UInt8>) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, bytes.count)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<take]))
            offset = take
            guard buffer.count == 64 else { return }
            buffer.withUnsafeBufferPointer { compress($0.baseAddress!) }
            buffer.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 64 {
            compress(bytes.baseAddress! + offset)
            offset += 64
        }
        if offset < bytes.count {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset...]))
        }
    }

    private mutating func update(contiguous bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update(contiguous: $0) }
    }

    /// Pads, processes the last block(s) and returns the 32-byte digest.
    package mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        buffer.append(0x80)
        if buffer.count > 56 {
            buffer.append(contentsOf: repeatElement(0, count: 64 - buffer.count))
            buffer.withUnsafeBufferPointer { compress($0.baseAddress!) }
            buffer.removeAll(keepingCapacity: true)
        }
        buffer.append(contentsOf: repeatElement(0, count: 56 - buffer.count))
        for shift in stride(from: 56, through: 0, by: -8) {
            buffer.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        buffer.withUnsafeBufferPointer { compress($0.baseAddress!) }
        buffer.removeAll(keepingCapacity: true)
        let words = state
        return [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
            withUnsafeBytes(of: words) { raw in
                for index in 0..<8 {
                    let word = raw.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)
                    digest[4 * index] = UInt8(truncatingIfNeeded: word >> 24)
                    digest[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
                    digest[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
                    digest[4 * index + 3] = UInt8(truncatingIfNeeded: word)
                }
            }
            count = 32
        }
    }

    private mutating func compress(_ block: UnsafePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            compress(block, schedule: w)
        }
    }

    private mutating func compress(_ block: UnsafePointer<UInt8>, schedule w: UnsafeMutableBufferPointer<UInt32>) {
        for t in 0..<16 {
            w[t] =
                UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16
                | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
        }
        for t in 16..<64 {
            let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
            let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        let k = SHA256.roundConstants
        var (a, b, c, d, e, f, g, h) = state
        for t in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
            state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }
}

/// HMAC (RFC 2104) over SHA-256, tested against RFC 4231's vectors.
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    package static func authenticate(_ message: some Sequence<UInt8>, key: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? SHA256.hash(key) : key
        block.append(contentsOf: repeatElement(0, count: 64 - block.count))
        // The key block XOR ipad, then (undoing ipad) XOR opad, in place.
        for index in block.indices { block[index] ^= 0x36 }
        var inner = SHA256()
        inner.update(block)
        inner.update(message)
        for index in block.indices { block[index] ^= 0x36 ^ 0x5C }
        var outer = SHA256()
        outer.update(block)
        outer.update(inner.finalize())
        return outer.finalize()
    }
}

extension UInt32 {
    @inline(__always) fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}

extension Sequence<UInt8> {
    /// Lowercase hexadecimal, two digits per byte.
    package var hexString: String {
        let bytes = Array(self)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            for (index, byte) in bytes.enumerated() {
                text[2 * index] = Self.hexDigit(byte >> 4)
                text[2 * index + 1] = Self.hexDigit(byte & 0x0F)
            }
            return bytes.count * 2
        }
    }

    /// The lowercase hex digit of a value below 16.
    @inline(__always) private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
