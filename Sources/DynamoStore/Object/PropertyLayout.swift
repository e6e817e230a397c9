#if os(Linux)
    @_spi(Reflection) import Swift
#endif
import DynamoAPI
import Synchronization

/// Where a model class keeps its property wrappers: each one's property name, byte offset in
/// an instance and wrapper type, in the order reflection lists them (the class's own
/// properties first, then its superclasses'). Found once per class, so making an object
/// (every fetched row is one) names its wrappers without building a `Mirror`.
struct PropertyLayout: Sendable {
    struct Field: Sendable {
        let name: String
        let offset: Int
        let type: any PropertyWrapperBinding.Type
    }

    let fields: [Field]

    /// The layout of a class, or `nil` when the runtime cannot describe its fields (the
    /// caller falls back to `Mirror`).
    ///
    /// Linux only: the standard library's field walk is SPI (`@_spi(Reflection)`), which the
    /// Apple SDKs need not export to apps; there objects are bound by `Mirror`, as before.
    static func of(_ type: ManagedObject.Type) -> PropertyLayout? {
        #if os(Linux)
            cached(type)
        #else
            nil
        #endif
    }

    #if os(Linux)
        private static let layouts = Mutex<[ObjectIdentifier: PropertyLayout?]>([:])
        /// `_EachFieldOptions.classType`, a `static var` that strict concurrency cannot read.
        private static let classType = _EachFieldOptions(rawValue: 1)

        private static func cached(_ type: ManagedObject.Type) -> PropertyLayout? {
            let key = ObjectIdentifier(type)
            if let known = layouts.withLock({ $0[key] }) { return known }
            let layout = make(type)
            layouts.withLock { $0[key] = layout }
            return layout
        }

        private static func make(_ type: ManagedObject.Type) -> PropertyLayout? {
            // `_forEachField` lists a class's fields after its superclasses'; reflection (and so
            // the entity a model class derives) lists a class's own first.
            var levels: [[Field]] = []
            var current: AnyClass? = type
            while let level = current, level != ManagedObject.self {
                var fields: [Field] = []
                let described = _forEachField(of: level, options: classType) { name, offset, fieldType, _ in
                    let label = String(cString: name)
                    if label.hasPrefix("_"), let wrapper = fieldType as? any PropertyWrapperBinding.Type {
                        fields.append(Field(name: String(label.dropFirst()), offset: offset, type: wrapper))
                    }
                    return true
                }
                guard described else { return nil }
                levels.append(fields)
                current = _getSuperclass(level)
            }
            // Each level lists its superclasses' wrappers too: keep only the ones it declares.
            var result: [Field] = []
            for (index, fields) in levels.enumerated() {
                let inherited = index + 1 < levels.count ? levels[index + 1].count : 0
                result += fields.dropFirst(inherited)
            }
            return PropertyLayout(fields: result)
        }
    #endif
}

extension PropertyWrapperBinding {
    /// Reads a wrapper of this type from an object's memory.
    static func load(from pointer: UnsafeRawPointer) -> any PropertyWrapperBinding {
        pointer.load(as: Self.self)
    }

    /// Names the wrapper of this type in an object's memory after its property, in place (no
    /// existential box per property); returns its declared default in DynamoDB form when
    /// `defaults` asks for it.
    static func bind(at pointer: UnsafeRawPointer, name: String, defaults: Bool) -> AttributeValue? {
        let wrapper = pointer.assumingMemoryBound(to: Self.self)
        wrapper.pointee.box.name = name
        return defaults ? wrapper.pointee.initialStoredValue() : nil
    }
}
