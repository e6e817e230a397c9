// Member keys for the generated encoders.

extension JSONWriter {
    /// Writes `"name":` for a member, preceded by a comma unless it is the object's first.
    @inline(never)
    mutating func member(_ name: StaticString, _ first: inout Bool) {
        if !first { writeRaw(UInt8(ascii: ",")) }
        first = false
        writeRaw(UInt8(ascii: "\""))
        name.withUTF8Buffer { writeRaw($0) }
        writeRaw(UInt8(ascii: "\""))
        writeRaw(UInt8(ascii: ":"))
    }
}
