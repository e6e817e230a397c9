/// A parsed AWS shared configuration or credentials file.
///
/// The format is the INI dialect the AWS SDKs share: `[section]` headers, `name = value`
/// properties, whole-line comments starting with `#` or `;`, inline comments that start with
/// whitespace followed by `#` or `;`, and indented lines under a property with an empty value
/// as its sub-properties (`dynamodb =` / `  endpoint_url = …` in a `[services x]` section).
/// Property names are case-insensitive and stored lowercased; sub-properties are stored as
/// `parent.child`.
package struct ProfileFile: Sendable, Hashable {
    /// The kind of file, which decides how section names are read.
    package enum Kind: Sendable {
        /// `~/.aws/config`: `[default]`, `[profile name]`, `[services name]`, `[sso-session name]`.
        case config
        /// `~/.aws/credentials`: every `[name]` is a profile, taken literally.
        case credentials
    }

    /// Profiles by name.
    package var profiles: [String: [String: String]] = [:]
    /// `[services name]` sections by name.
    package var services: [String: [String: String]] = [:]

    /// Parses a file's text. Lines that are not understood are skipped, as the SDKs do.
    package init(parsing text: String, kind: Kind) {
        var section: (kind: SectionKind, name: String)?
        var lastProperty: String?
        var lastPropertyWasEmpty = false
        // `[profile default]` wins over `[default]` in a config file.
        var sawExplicitDefault = false
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = String(rawLine).replacingTabsAndCarriageReturns()
            let trimmed = line.trimmingASCIIWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            let isIndented = line.first == " " || line.first == "\t"
            if isIndented, let current = section, let parent = lastProperty {
                // A continuation: a sub-property under an empty value, or more text of a value.
                let content = Self.stripInlineComment(trimmed)
                if lastPropertyWasEmpty, let equals = content.firstIndex(of: "=") {
                    let name = content[..<equals].trimmingASCIIWhitespace().lowercased()
                    let value = content[content.index(after: equals)...].trimmingASCIIWhitespace()
                    store("\(parent).\(name)", value, in: current)
                } else if !lastPropertyWasEmpty {
                    let previous = lookup(parent, in: current) ?? ""
                    store(parent, previous + "\n" + content, in: current)
                }
                continue
            }
            if trimmed.hasPrefix("[") {
                lastProperty = nil
                guard let close = trimmed.firstIndex(of: "]") else { section = nil; continue }
                let header = trimmed[trimmed.index(after: trimmed.startIndex)..<close].trimmingASCIIWhitespace()
                section = Self.section(header, kind: kind)
                if kind == .config, section?.kind == .profile, section?.name == "default" {
                    if header.hasPrefix("profile") {
                        if !sawExplicitDefault { profiles["default"] = [:] }
                        sawExplicitDefault = true
                    } else if sawExplicitDefault {
                        section = nil
                    }
                }
                if let section { ensure(section) }
                continue
            }
            guard let current = section, let equals = trimmed.firstIndex(of: "=") else { continue }
            let name = trimmed[..<equals].trimmingASCIIWhitespace().lowercased()
            guard !name.isEmpty else { continue }
            let value = Self.stripInlineComment(trimmed[trimmed.index(after: equals)...].trimmingASCIIWhitespace())
            store(name, value, in: current)
            lastProperty = name
            lastPropertyWasEmpty = value.isEmpty
        }
    }

    private enum SectionKind { case profile, services, ignored }

    private static func section(_ header: String, kind: Kind) -> (kind: SectionKind, name: String)? {
        if kind == .credentials { return (.profile, header) }
        if header == "default" { return (.profile, "default") }
        for (prefix, sectionKind) in [("profile", SectionKind.profile), ("services", .services)] {
            if header.hasPrefix(prefix), let next = header.dropFirst(prefix.count).first, next == " " || next == "\t" {
                let name = header.dropFirst(prefix.count).trimmingASCIIWhitespace()
                return name.isEmpty ? nil : (sectionKind, name)
            }
        }
        // `[name]` without `profile ` is not a profile in a config file; `[sso-session x]` and
        // others are sections this client does not use.
        return (.ignored, header)
    }

    /// Removes ` # comment` / ` ; comment` (a comment must follow whitespace).
    private static func stripInlineComment(_ value: String) -> String {
        var previous: Character = " "
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if (character == "#" || character == ";") && (previous == " " || previous == "\t") && index != value.startIndex {
                return value[..<index].trimmingASCIIWhitespace()
            }
            previous = character
            index = value.index(after: index)
        }
        return value
    }

    private mutating func ensure(_ section: (kind: SectionKind, name: String)) {
        switch section.kind {
        case .profile: profiles[section.name, default: [:]] = profiles[section.name] ?? [:]
        case .services: services[section.name, default: [:]] = services[section.name] ?? [:]
        case .ignored: break
        }
    }

    private mutating func store(_ name: String, _ value: String, in section: (kind: SectionKind, name: String)) {
        switch section.kind {
        case .profile: profiles[section.name, default: [:]][name] = value
        case .services: services[section.name, default: [:]][name] = value
        case .ignored: break
        }
    }

    private func lookup(_ name: String, in section: (kind: SectionKind, name: String)) -> String? {
        switch section.kind {
        case .profile: profiles[section.name]?[name]
        case .services: services[section.name]?[name]
        case .ignored: nil
        }
    }
}

extension String {
    fileprivate func replacingTabsAndCarriageReturns() -> String {
        guard contains("\r") else { return self }
        return String(filter { $0 != "\r" })
    }
}
