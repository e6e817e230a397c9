@testable import DynamoStore
import Foundation
import Testing

/// A model class others derive from, and one that adds properties of its own.
class LayoutAnimal: ManagedObject {
    @Attribute var id: String
    @Attribute var legs: Int = 4
}

final class LayoutDog: LayoutAnimal {
    @Attribute var name: String
    @Attribute var tags: Set<String>
    @Attribute var born: Date?
}

/// `PropertyLayout` (objects bound without a `Mirror` each, on Linux) names the same wrappers,
/// in the same order, as reflection does: the class's own properties first, then its
/// superclasses', so objects and the entities derived from their classes agree.
@Suite struct PropertyLayoutTests {
    /// The wrapper names reflection lists for an instance, as the Mirror binding walks them.
    static func mirrorNames(_ object: ManagedObject) -> [String] {
        var names: [String] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                if let label = child.label, label.hasPrefix("_"), child.value is any PropertyWrapperBinding {
                    names.append(String(label.dropFirst()))
                }
            }
            mirror = current.superclassMirror
        }
        return names
    }

    @Test func theLayoutNamesWhatReflectionNames() throws {
        let objects: [ManagedObject] = [LayoutAnimal(), LayoutDog(), Location(), Checkin()]
        for object in objects {
            let expected = Self.mirrorNames(object)
            #expect(!expected.isEmpty)
            #if os(Linux)
                let layout = try #require(PropertyLayout.of(type(of: object)))
                #expect(layout.fields.map(\.name) == expected, "\(type(of: object))")
            #endif
            #expect(object.properties.map(\.box.name) == expected, "\(type(of: object))")
        }
    }

    @Test func boundWrappersCarryTheirDeclaredDefaults() {
        let dog = LayoutDog()
        dog.id = "d"
        dog.name = "Rex"
        #expect(dog.legs == 4)
        #expect(dog.tags.isEmpty)
        #expect(dog.born == nil)
        dog.legs = 3
        #expect(dog.legs == 3)
    }
}
