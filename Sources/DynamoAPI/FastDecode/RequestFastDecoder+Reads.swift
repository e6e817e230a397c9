extension RequestFastDecoder {
    /// A GetItem body as ``GetItemInput``, or `nil` (see the type's rules).
    public static func getItem(_ bytes: UnsafeRawBufferPointer) -> GetItemInput? {
        var reader = JSONByteReader(bytes)
        return try? reader.getItem()
    }

    /// A Query body as ``QueryInput``, or `nil` (see the type's rules; `QueryFilter` and
    /// `ConditionalOperator` go the generic way).
    public static func query(_ bytes: UnsafeRawBufferPointer) -> QueryInput? {
        var reader = JSONByteReader(bytes)
        return try? reader.query()
    }
}
