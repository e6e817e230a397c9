"""The byte-level request readers of `RequestFastDecoder`, generated beside the shapes.

Loaded by scripts/generate-shapes.py, which hands over its `Generator` (the model, the shapes
reachable from each operation, and the rules the generic decoder applies). For every structure
reachable from an operation's input this writes a `JSONByteReader.read<Shape>()` that reads the
shape's members straight from the request bytes, and for every input a `fastDecode(_:)`; and
`RequestFastDecoder+Operations.swift`, the switch from an operation's name to its input's reader.

The contract is the one of `RequestFastDecoder`: a reader returns a value only when the generic
decoder (`DynamoShape.decodeRequest`) would return exactly that value without an error, and
bails (`FastDecodeBail`) on anything else. So a member is read only when every rule the generic
decoder applies to it is checked here as strictly or more strictly: its length range and
pattern (`rule_args`, the very rules the generic decoder is generated with), its enumeration's
value set (`knownEnum`), the rules of list elements, map keys and map values. A member of a kind
not read here (numbers but a `Limit`, timestamps, binary members) has no branch, so a request
holding it bails; a structure with such a required member has no reader, and a member holding
that structure has no branch either. Unknown members, duplicates, `null` and missing required
members bail as well.

Stdlib only.
"""

import json


# The JSON numbers read: a plain `Limit` (a Java `Integer` written as digits). Any other number
# goes the generic way.
NUMBER_MEMBERS = {"Limit"}

# The operations first in the name switch, in this order: the hot ones (every request pays the
# string comparisons before its case).
HOT_OPERATIONS = ["PutItem", "BatchWriteItem", "UpdateItem", "TransactWriteItems", "GetItem", "Query", "ExecuteStatement"]

# The longest range of lengths a collection or string may have (no rule).
ANY = "0...Int.max"

# The members of `JSONByteReader.attributeMap()` and `stringMap()`: names at most this long
# (in UTF-8 bytes, never fewer than UTF-16 units), map values of `stringMap()` as well.
ATTRIBUTE_NAME_LIMIT = 65535


class ReaderGenerator:
    def __init__(self, generator, module):
        self.g = generator
        self.m = generator.m
        self.mod = module  # generate-shapes.py, for its names and override tables
        self.readable = {}   # structure key -> whether it has a reader
        self.sink = []  # the collections the code being written reads (see `files`)

    # -- names -----------------------------------------------------------------------------------

    def type_name(self, key):
        return self.m.swift_type_name(key)

    def reader_name(self, key):
        name = self.m.model_names[key]
        return "read" + (("Streams" + name) if key[0] == "streams" else name)

    # -- what a value is read with ---------------------------------------------------------------

    def string_expr(self, rules, recv):
        """Reading a string under `rules` (a dict of `rule_args`, or None)."""
        if rules == "tableNameOrARN":
            # A plain name only: an ARN goes the generic way.
            return "try %stableName()" % recv
        if not rules:
            return "try %sstring()" % recv
        if set(rules) - {"minLength", "maxLength", "pattern"}:
            return None
        args = []
        if "minLength" in rules or "maxLength" in rules:
            args.append("length: %s...%s" % (rules.get("minLength", 0), rules.get("maxLength", "Int.max")))
        if "pattern" in rules:
            if rules["pattern"] not in self.mod.PATTERNS:
                return None
            args.append("pattern: .%s" % self.mod.PATTERNS[rules["pattern"]])
        return "try %sstring(%s)" % (recv, ", ".join(args))

    def count_range(self, rules, at_least_one=False):
        """The `count:` range of a collection under `rules` (`ANY` when unconstrained)."""
        if rules == "tableNameOrARN":
            return None
        rules = rules or {}
        if set(rules) - {"minLength", "maxLength"}:
            return None
        low = rules.get("minLength", 0)
        if at_least_one:
            low = max(low, 1)
        high = rules.get("maxLength", "Int.max")
        return "%s...%s" % (low, high)

    def value_expr(self, key, rules, recv, wire=None, at_least_one=False):
        """The Swift expression reading a value of shape `key` whose own rules are `rules`, or
        None when this value is not read here (the member then bails)."""
        shape = self.m.shapes[key]
        kind = shape["type"]
        if self.m.model_names[key] == "AttributeValue" and key[0] == "ddb":
            return "try %sattributeValue()" % recv
        if kind == "structure":
            return ("try %s%s()" % (recv, self.reader_name(key))) if self.is_readable(key) else None
        if kind == "string":
            if "enum" in shape:
                return "try %sknownEnum(%s.self)" % (recv, self.type_name(key))
            return self.string_expr(rules, recv)
        if kind == "boolean":
            return "try %sboolean()" % recv
        if kind == "integer":
            if wire not in NUMBER_MEMBERS or (rules and set(rules) - {"minValue", "maxValue"}):
                return None
            rules = rules or {}
            return "try %sjavaInteger(in: %s...%s)" % (
                recv, rules.get("minValue", 0), rules.get("maxValue", "Int(Int32.max)"))
        if kind in ("list", "map"):
            count = self.count_range(rules, at_least_one)
            if count is None:
                return None
            special = self.special_map(key) if kind == "map" else None
            if special and count == ANY:
                return "try %s%s()" % (recv, special)
            if not self.is_readable_collection(key):
                return None
            self.need_collection(key)
            if count == ANY:
                return "try %s%s()" % (recv, self.reader_name(key))
            return "try %s%s(count: %s)" % (recv, self.reader_name(key), count)
        return None

    def map_key_rules(self, key):
        shape = self.m.shapes[key]
        if self.m.model_names[key] in self.mod.TABLE_NAME_OR_ARN_KEY_MAPS:
            return "tableNameOrARN"
        return self.g.rule_args(self.m.key(key[0], shape["key"]["shape"]))

    def element_rule_args(self, key):
        """The rules of a list's elements or a map's values (an enumeration's value set is checked
        by `knownEnum` in any case)."""
        if self.m.shapes[key]["type"] == "string" and "enum" in self.m.shapes[key]:
            return None
        return self.g.rule_args(key)

    def special_map(self, key):
        """The hand-written reader of a map whose rules it checks as strictly: `attributeMap()`
        (names at most 65,535 long, valid attribute values) or `stringMap()`."""
        shape = self.m.shapes[key]
        value = self.m.key(key[0], shape["value"]["shape"])
        key_rules = self.map_key_rules(key)
        if key_rules == "tableNameOrARN" or (key_rules and set(key_rules) != {"maxLength"}):
            return None
        if key_rules and key_rules["maxLength"] < ATTRIBUTE_NAME_LIMIT:
            return None
        if self.m.model_names[value] == "AttributeValue" and value[0] == "ddb":
            return "attributeMap"
        value_shape = self.m.shapes[value]
        if value_shape["type"] == "string" and "enum" not in value_shape:
            value_rules = self.g.rule_args(value)
            if not value_rules or (set(value_rules) == {"maxLength"}
                                   and value_rules["maxLength"] >= ATTRIBUTE_NAME_LIMIT):
                return "stringMap"
        return None

    def is_readable_collection(self, key):
        shape = self.m.shapes[key]
        if shape["type"] == "list":
            element = self.m.key(key[0], shape["member"]["shape"])
            return self.value_expr(element, self.element_rule_args(element), "") is not None
        value = self.m.key(key[0], shape["value"]["shape"])
        if self.string_expr(self.map_key_rules(key), "") is None:
            return False
        return self.value_expr(value, self.element_rule_args(value), "") is not None

    def need_collection(self, key):
        self.sink.append(key)

    # -- structures ------------------------------------------------------------------------------

    def member_reads(self, key):
        """(member info, expression or None) for each member of a structure."""
        model_name = self.m.model_names[key]
        reads = []
        for m in self.g.member_info(key):
            rules = self.g.rule_args(m["key"], model_name, m["wire"])
            at_least_one = (model_name, m["wire"]) in self.mod.EMPTY_PARAMETER_MESSAGES
            reads.append((m, self.value_expr(m["key"], rules, "reader.", m["wire"], at_least_one)))
        return reads

    def is_readable(self, key):
        if key not in self.readable:
            self.readable[key] = False  # a structure reached through itself is not read
            self.readable[key] = all(expr is not None for m, expr in self.member_reads(key) if m["required"])
        return self.readable[key]

    def structure_reader(self, key):
        name = self.type_name(key)
        reads = self.member_reads(key)
        lines = []
        skipped = [m["wire"] for m, expr in reads if expr is None]
        doc = "    /// Reads a `%s`" % self.m.model_names[key]
        doc += (" (bails on %s)." % ", ".join("`%s`" % w for w in skipped)) if skipped else "."
        lines.append(doc)
        lines.append("    mutating func %s() throws(FastDecodeBail) -> %s {" % (self.reader_name(key), name))
        read = [(index, m, expr) for index, (m, expr) in enumerate(reads) if expr is not None]
        if not read:
            lines.append("        try objectMembers { (_, _) throws(FastDecodeBail) -> UInt32 in throw FastDecodeBail() }")
            lines.append("        return %s()" % name)
            lines.append("    }")
            return lines
        for index, m, expr in read:
            lines.append("        var %s: %s?" % (m["swift"], m["type"]))
        lines.append("        try objectMembers { (reader, name) throws(FastDecodeBail) -> UInt32 in")
        by_length = {}
        for index, m, expr in read:
            by_length.setdefault(len(m["wire"].encode("utf-8")), []).append((index, m, expr))
        lines.append("            switch name.count {")
        for length in sorted(by_length):
            lines.append("            case %d:" % length)
            for position, (index, m, expr) in enumerate(by_length[length]):
                keyword = "if" if position == 0 else "} else if"
                lines.append('                %s name.spells("%s") {' % (keyword, m["wire"]))
                lines.append("                    %s = %s" % (m["swift"], expr))
                lines.append("                    return 1 << %d" % index)
            lines.append("                }")
        lines.append("            default: break")
        lines.append("            }")
        lines.append("            throw FastDecodeBail()")
        lines.append("        }")
        required = [m for _, m, _ in read if m["required"]]
        if required:
            lines.append("        guard %s else { throw FastDecodeBail() }" % ", ".join("let %s" % m["swift"] for m in required))
        args = ["%s: %s" % (m["label"], m["swift"]) for _, m, _ in read]
        call = "        return %s(%s)" % (name, ", ".join(args))
        if len(call) <= 150:
            lines.append(call)
        else:
            lines.append("        return %s(" % name)
            lines.append(",\n".join("            " + arg for arg in args))
            lines.append("        )")
        lines.append("    }")
        return lines

    def collection_reader(self, key):
        shape = self.m.shapes[key]
        model_name = self.m.model_names[key]
        swift = self.g.swift_type(key)
        lines = []
        if shape["type"] == "list":
            element = self.m.key(key[0], shape["member"]["shape"])
            expr = self.value_expr(element, self.element_rule_args(element), "")
            lines.append("    /// Reads a `%s` of `count` elements." % model_name)
            lines.append("    mutating func %s(count: ClosedRange<Int> = %s) throws(FastDecodeBail) -> %s {"
                         % (self.reader_name(key), ANY, swift))
            lines.append('        try expect(UInt8(ascii: "["))')
            lines.append("        var elements: %s = []" % swift)
            lines.append('        if !consume(UInt8(ascii: "]")) {')
            lines.append("            repeat {")
            lines.append("                elements.append(%s)" % expr)
            lines.append("                guard elements.count <= count.upperBound else { throw FastDecodeBail() }")
            lines.append('            } while try continues(before: UInt8(ascii: "]"))')
            lines.append("        }")
            lines.append("        guard elements.count >= count.lowerBound else { throw FastDecodeBail() }")
            lines.append("        return elements")
            lines.append("    }")
            return lines
        value = self.m.key(key[0], shape["value"]["shape"])
        key_expr = self.string_expr(self.map_key_rules(key), "")
        expr = self.value_expr(value, self.element_rule_args(value), "")
        lines.append("    /// Reads a `%s` of `count` entries; bails on a key seen twice." % model_name)
        lines.append("    mutating func %s(count: ClosedRange<Int> = %s) throws(FastDecodeBail) -> %s {"
                     % (self.reader_name(key), ANY, swift))
        lines.append('        try expect(UInt8(ascii: "{"))')
        lines.append("        var map: %s = [:]" % swift)
        lines.append('        if !consume(UInt8(ascii: "}")) {')
        lines.append("            repeat {")
        lines.append("                let key = %s" % key_expr)
        lines.append('                try expect(UInt8(ascii: ":"))')
        lines.append("                guard map.updateValue(%s, forKey: key) == nil, map.count <= count.upperBound else {" % expr)
        lines.append("                    throw FastDecodeBail()")
        lines.append("                }")
        lines.append('            } while try continues(before: UInt8(ascii: "}"))')
        lines.append("        }")
        lines.append("        guard map.count >= count.lowerBound else { throw FastDecodeBail() }")
        lines.append("        return map")
        lines.append("    }")
        return lines

    def fast_decode(self, key, operations):
        name = self.type_name(key)
        lines = []
        lines.append("extension %s {" % name)
        lines.append("    /// The input of %s read straight from a request body, or `nil` when the generic"
                     % " and ".join("`%s`" % op for op in operations))
        lines.append("    /// decoder must answer (see ``RequestFastDecoder``).")
        lines.append("    public static func fastDecode(_ bytes: UnsafeRawBufferPointer) -> %s? {" % name)
        if self.is_readable(key):
            lines.append("        var reader = JSONByteReader(bytes)")
            lines.append("        guard let input = try? reader.%s(), reader.atEnd() else { return nil }" % self.reader_name(key))
            lines.append("        return input")
        else:
            missing = [m["wire"] for m, expr in self.member_reads(key) if m["required"] and expr is None]
            lines.append("        // A required member this decoder does not read: %s." % ", ".join("`%s`" % w for w in missing))
            lines.append("        nil")
        lines.append("    }")
        lines.append("}")
        return lines

    # -- files -----------------------------------------------------------------------------------

    def inputs(self):
        """(service, operation, input key) of every operation, DynamoDB's first."""
        result = []
        for service in ("ddb", "streams"):
            for name, op in sorted(self.g.operations(service)):
                result.append((service, name, self.m.key(service, op["input"]["shape"])))
        return result

    def files(self, version):
        inputs = self.inputs()
        users = {}
        for _, name, key in inputs:
            users.setdefault(key, []).append(name)
        # Structures reachable from inputs, in the shapes' discovery order.
        reachable = set()

        def walk(key):
            if key in reachable:
                return
            shape = self.m.shapes[key]
            if self.m.model_names[key] == "AttributeValue" and key[0] == "ddb":
                return
            reachable.add(key)
            if shape["type"] == "structure":
                for member in shape["members"].values():
                    walk(self.m.key(key[0], member["shape"]))
            elif shape["type"] == "list":
                walk(self.m.key(key[0], shape["member"]["shape"]))
            elif shape["type"] == "map":
                walk(self.m.key(key[0], shape["value"]["shape"]))

        for _, _, key in inputs:
            walk(key)
        structures = [key for key in self.g.reachable
                      if key in reachable and self.m.shapes[key]["type"] == "structure" and self.is_readable(key)]
        by_operation = {}
        for key in structures:
            by_operation.setdefault(self.g.operation_of[key], []).append(key)
        inputs_by_operation = {}
        for _, name, key in inputs:
            if len(users[key]) == 1 or users[key][0] == name:
                inputs_by_operation.setdefault(name, []).append(key)
        out = {}
        emitted = set()
        for group, operation in self.g.operation_order:
            keys = by_operation.get(operation, [])
            tops = inputs_by_operation.get(operation, [])
            if not keys and not tops:
                continue
            first = []
            for key in tops:
                first.extend(self.fast_decode(key, users[key]))
                first.append("")
            blocks = []
            for key in keys:
                block = ["extension JSONByteReader {"]
                self.sink = []
                block.extend(self.structure_reader(key))
                # The collection readers this one uses first, and those they use.
                while self.sink:
                    collection = self.sink.pop(0)
                    if collection not in emitted:
                        emitted.add(collection)
                        block.append("")
                        block.extend(self.collection_reader(collection))
                block.append("}")
                block.append("")
                blocks.append((key, block))
            # One file per operation; past the shapes' line budget it continues in files of one
            # member of the input each, named after it (`UpdateTableReaders+ReplicationGroupUpdate.swift`):
            # the readers of a structure the input holds and of the structures first reached through it.
            heads = {member for top in tops for member in self.member_structures(top)}
            groups = []
            for key, block in blocks:
                if key in heads or not groups:
                    groups.append((key, []))
                groups[-1][1].extend(block)
            folder = self.mod.FILE_STEMS[group]
            files = [("%s/%sReaders.swift" % (folder, operation), first)]
            for head, body in groups:
                if files[-1][1] and len(files[-1][1]) + len(body) + HEADER_LINES > self.mod.FILE_LINE_BUDGET:
                    files.append(("%s/%sReaders+%s.swift" % (folder, operation, self.m.swift_type_name(head)), []))
                files[-1][1].extend(body)
            for index, (path, body) in enumerate(files):
                what = ("The request readers of the `%s` operation's shapes." % operation if index == 0
                        else "The request readers of the `%s` operation's shapes, continued." % operation)
                lines = self.g.header(version, what) + body
                out[path] = "\n".join(lines).rstrip("\n") + "\n"
        out["RequestFastDecoder+Operations.swift"] = self.operations_file(version, inputs)
        return out

    def member_structures(self, key):
        """The structures `key`'s members hold, directly or as the elements of a list or map."""
        found = []
        for ref in self.m.shapes[key].get("members", {}).values():
            member = self.m.key(key[0], ref["shape"])
            shape = self.m.shapes[member]
            if shape["type"] == "list":
                member = self.m.key(key[0], shape["member"]["shape"])
            elif shape["type"] == "map":
                member = self.m.key(key[0], shape["value"]["shape"])
            if self.m.shapes[member]["type"] == "structure":
                found.append(member)
        return found

    def operations_file(self, version, inputs):
        lines = self.g.header(version, "The operations of `RequestFastDecoder`: every operation of the models.")
        lines.append("extension RequestFastDecoder {")
        lines.append("    /// The operations this decoder reads: every operation of DynamoDB and DynamoDB Streams.")
        lines.append("    public static let operations: Set<String> = [")
        for _, name, _ in inputs:
            lines.append("        %s," % self.mod.swift_string(name))
        lines.append("    ]")
        lines.append("")
        lines.append("    /// The decoded input of `operation` (its name after the target's dot, `PutItem`), or `nil`")
        lines.append("    /// when the body must go through the generic path.")
        lines.append("    public static func decode(operation: String, bytes: UnsafeRawBufferPointer) -> (any DynamoShape)? {")
        # A switch over strings compares one case after another, and a name of 16 bytes or more
        # (ExecuteStatement) is not a small string, so each comparison is a call. Switching on the
        # length first leaves a few comparisons for any name; the hot operations come first in
        # their length's switch.
        def rank(item):
            return HOT_OPERATIONS.index(item[1]) if item[1] in HOT_OPERATIONS else len(HOT_OPERATIONS)

        by_length = {}
        for item in sorted(inputs, key=rank):
            by_length.setdefault(len(item[1].encode("utf-8")), []).append(item)
        lines.append("        switch operation.utf8.count {")
        for length in sorted(by_length, key=lambda n: (min(rank(i) for i in by_length[n]), n)):
            lines.append("        case %d:" % length)
            lines.append("            switch operation {")
            for _, name, key in by_length[length]:
                lines.append("            case %s: %s.fastDecode(bytes)" % (self.mod.swift_string(name), self.type_name(key)))
            lines.append("            default: nil")
            lines.append("            }")
        lines.append("        default: nil")
        lines.append("        }")
        lines.append("    }")
        lines.append("}")
        return "\n".join(lines) + "\n"


# The lines of a generated file's header (`Generator.header`) and the blank line after it.
HEADER_LINES = 8


def reader_files(generator, module, version):
    return ReaderGenerator(generator, module).files(version)


def schema_files(generator, module, version):
    """`InputSchemas.swift` for the readers' tests (Tests/DynamoAPITests/FastDecode/Generated):
    every shape reachable from an input, with the rules its members are decoded under, as JSON
    lines, and each operation's input, so the tests write valid and broken bodies of every
    operation."""
    g, m = generator, generator.m
    shapes = {}

    def name(key):
        return "%s/%s" % key

    def walk(key):
        if name(key) in shapes:
            return
        shape = m.shapes[key]
        kind = shape["type"]
        if m.model_names[key] == "AttributeValue" and key[0] == "ddb":
            shapes[name(key)] = {"kind": "attributeValue"}
            return
        entry = {"kind": kind}
        shapes[name(key)] = entry
        if kind == "structure":
            entry["members"] = []
            for info in g.member_info(key):
                rules = g.rule_args(info["key"], m.model_names[key], info["wire"])
                member = {"name": info["wire"], "shape": name(info["key"]), "required": info["required"]}
                if rules:
                    member["rules"] = rules
                entry["members"].append(member)
                walk(info["key"])
        elif kind == "string" and "enum" in shape:
            entry["enum"] = shape["enum"]
        elif kind == "list":
            element = m.key(key[0], shape["member"]["shape"])
            entry["element"] = name(element)
            entry["elementRules"] = g.rule_args(element)
            walk(element)
        elif kind == "map":
            mkey = m.key(key[0], shape["key"]["shape"])
            value = m.key(key[0], shape["value"]["shape"])
            entry["key"] = name(mkey)
            entry["keyRules"] = ("tableNameOrARN" if m.model_names[key] in module.TABLE_NAME_OR_ARN_KEY_MAPS
                                 else g.rule_args(mkey))
            entry["value"] = name(value)
            entry["valueRules"] = g.rule_args(value)
            walk(mkey)
            walk(value)

    operations = {}
    for service in ("ddb", "streams"):
        for op_name, op in sorted(g.operations(service)):
            key = m.key(service, op["input"]["shape"])
            operations[op_name] = name(key)
            walk(key)
    for entry in shapes.values():
        for field in ("elementRules", "keyRules", "valueRules"):
            if field in entry and entry[field] is None:
                del entry[field]
        for member in entry.get("members", []):
            if "pattern" in member.get("rules", {}):
                member["rules"]["pattern"] = module.PATTERNS.get(member["rules"]["pattern"], "regex")
        for field in ("elementRules", "keyRules", "valueRules"):
            if isinstance(entry.get(field), dict) and "pattern" in entry[field]:
                entry[field]["pattern"] = module.PATTERNS.get(entry[field]["pattern"], "regex")
    body = ['{"operations": %s,' % json.dumps(operations, sort_keys=True), '"shapes": {']
    items = sorted(shapes.items())
    for index, (shape_name, entry) in enumerate(items):
        body.append("%s: %s%s" % (json.dumps(shape_name), json.dumps(entry, sort_keys=True),
                                  "," if index + 1 < len(items) else ""))
    body.append("}}")
    lines = g.header(version, "The input shapes of both models with their rules, for the request readers' tests.")
    lines.append("/// Every shape reachable from an operation's input (`ddb/PutItemInput`, `streams/…`), with the")
    lines.append("/// rules the generic decoder applies to each member, and each operation's input shape.")
    lines.append("enum InputSchemas {")
    lines.append("    /// The schemas as JSON.")
    lines.append('    static let json = #"""')
    lines.extend("        " + line for line in body)
    lines.append('        """#')
    lines.append("}")
    return {"InputSchemas.swift": "\n".join(lines) + "\n"}
