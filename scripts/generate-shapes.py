#!/usr/bin/env python3
"""Generates the Swift shapes of DynamoAPI from botocore's service models.

Reads botocore's DynamoDB and DynamoDB Streams models (`service-2.json.gz`) and writes
`Sources/DynamoAPI/Shapes/Generated/*.swift`: one struct per structure reachable from an
operation's input or output, one RawRepresentable struct per string enumeration, and the
operation tables; `Sources/DynamoAPI/FastDecode/Generated/*.swift`, the byte-level reader of
every input shape for `RequestFastDecoder` (scripts/shape_readers.py); `Sources/DynamoServer/Operations/Generated/OperationTable.swift`, the
server's exhaustive switch from each operation to its typed row; and
`Sources/DynamoClient/Client/Generated/EndpointParameters.swift`, what the endpoint rules read
from each input. Structure and constraints come from the model; its documentation prose is
not used. The hand-written runtime they rely on lives next to them in `Sources/DynamoAPI/Shapes/`.

Usage:
    scripts/generate-shapes.py                  # botocore from the current Python
    scripts/generate-shapes.py --data DIR       # DIR/dynamodb/2012-08-10/service-2.json.gz …
    scripts/generate-shapes.py --check          # exit 1 if the committed files are stale

Stdlib only.
"""

import argparse
import gzip
import json
import os
import sys

# The shared writer beside this script, also when the script is loaded as a module from elsewhere.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generated_files  # noqa: E402
import shape_readers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "Sources", "DynamoAPI", "Shapes", "Generated")
# The server's operation switch: one typed row per operation (Sources/DynamoServer/Operations).
SERVER_OUT_DIR = os.path.join(ROOT, "Sources", "DynamoServer", "Operations", "Generated")
# RequestFastDecoder's byte-level readers of every input shape (scripts/shape_readers.py).
READER_OUT_DIR = os.path.join(ROOT, "Sources", "DynamoAPI", "FastDecode", "Generated")
# The input shapes with their rules, for the readers' tests.
SCHEMA_OUT_DIR = os.path.join(ROOT, "Tests", "DynamoAPITests", "FastDecode", "Generated")

# Shapes written by hand: the model's AttributeValue is DynamoAPI's `AttributeValue` enum.
HAND_WRITTEN = {"AttributeValue": "AttributeValue"}

# Hand-coded matchers of `ShapePattern` (Sources/DynamoAPI/Shapes/ShapePattern.swift), keyed by
# the pattern text of the model. A pattern missing here falls back to `.regex(...)`.
PATTERNS = {
    r"[a-zA-Z0-9_.-]+": "tableName",
    r"\p{Print}+": "printable",
    r"[\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*": "xmlCharacters",
    r"^[^\$]+$": "noDollar",
    r"[A-Za-z0-9][A-Za-z0-9\-\_\.]{0,126}[A-Za-z0-9]": "contributorInsightsRule",
    r"[,;:|\t ]": "csvDelimiter",
    r"[\x20-\x21\x23-\x2B\x2D-\x7E]*": "csvHeader",
    r"([0-9a-f]{16})+": "importNextToken",
    r"^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$": "s3Bucket",
    r"[0-9]{12}": "accountID",
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}": "uuid",
}

# Where DynamoDB's validator disagrees with the published model (see ValueRules.swift):
# - CreateTable still checks its TableName as a table name (3...255, the name pattern): a 2-character
#   name fails with "Member must have length greater than or equal to 3" (conformance suite, 2026).
# - Other TableName members typed TableArn, and the table keys of the batch request maps, take a
#   name or an ARN: a name is checked against 1...255 and the pattern, an ARN against 1...1024.
# - CreateTable without TableName answers "The parameter 'TableName' is required but was not
#   present in the request" instead of a violation list.
TABLE_NAME_MEMBER_OVERRIDES = {("CreateTableInput", "TableName"): "TableName"}
TABLE_NAME_OR_ARN_KEY_MAPS = {"BatchGetRequestMap", "BatchWriteItemRequestMap"}
REQUIRED_PARAMETER_MESSAGES = {
    ("CreateTableInput", "TableName"): "The parameter 'TableName' is required but was not present in the request",
    # A tag without its key or value (measured 2026-10, ack-api-quirks: Tags=[{}] / value only,
    # key only).
    ("Tag", "Key"): "The Tag Key provided is invalid, Key: null",
    ("Tag", "Value"): "The Tag Value provided is invalid, Value: null",
}

# Members whose model constraints DynamoDB's request validator does not apply: the service checks
# them later in words of its own (measured 2026-10, ack-api-quirks: a tag key of 129 characters or
# an empty one is "The Tag Key provided is invalid, Key: <key>", not a length violation), so the
# engine checks them (DynamoEngine's TagRules) and the decoder leaves their lengths alone.
ENGINE_CHECKED_MEMBERS = {("Tag", "Key"), ("Tag", "Value"), ("UntagResourceInput", "TagKeys")}

# Enum members the validator does not check against their value set, for the same reason: an
# unknown TableClass is "Invalid table-class parameter provided. ..." (measured 2026-10).
ENGINE_CHECKED_ENUMS = {("CreateTableInput", "TableClass"), ("UpdateTableInput", "TableClass")}

# Members whose empty value (`{}` or `[]`) DynamoDB reports with a message of its own instead of
# the minimum-length violation (captured by the dynamodb-conformance suite, 2026); a pair is the
# 2026 wording and the 2025 one. BatchGetItem's moved to the length violation between the
# 2026-08-08 and 2026-09-02 sweeps in every region but me-central-1 (paritysuite
# tests/tier3/error-messages/batchGetItem.test.ts); BatchWriteItem's had not in 28 of 33
# regions on 2026-10-07 (captures/2026-10-07-batch-empty-request-items.json).
EMPTY_PARAMETER_MESSAGES = {
    ("BatchGetItemInput", "RequestItems"): (
        "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1",
        "The requestItems parameter is required for BatchGetItem",
    ),
    ("BatchWriteItemInput", "RequestItems"): "The requestItems parameter is required for BatchWriteItem",
}

# Members whose violations DynamoDB reports without the value (`Value at '<path>' …`).
VALUELESS_MEMBERS = {
    ("KeysAndAttributes", "Keys"),
    ("QueryInput", "Limit"),
    # Scan's moved in a later wave (paritysuite registry/splits.json scan-limit-zero-message,
    # scan-segment-negative-message: eu-west-2 from 2026-09-26); the 2025 wording keeps
    # "Value '0' at 'limit'".
    ("ScanInput", "Limit"),
    ("ScanInput", "Segment"),
}

# Members whose violations DynamoDB reports under another path than the lower-camel member name
# in both wordings. None at present: a value-less member (above) already gets its wire name in
# the 2026 form and keeps the lower-camel one in the 2025 form (Query's `Limit: 0` is
# "Value at 'Limit' …" and "Value '0' at 'limit' …"); an override would change both.
MEMBER_PATH_OVERRIDES: dict[tuple[str, str], str] = {}

# Members whose service model holds a maximum botocore's does not: ListStreams refuses a Limit
# over 100 with a ValidationException (scylladb's Alternator tests, run against DynamoDB Streams;
# its API reference: "The upper limit is 100"), checked with the other members' constraints.
MEMBER_MAXIMUMS = {
    ("ListStreamsInput", "Limit"): 100,
}

# DynamoDB's 2026 request validator (us-east-1 since the 2026-08-12 capture of the
# dynamodb-conformance suite, `captures/2026-08-12-wording-drift.json`): the inputs it checks,
# whose invalid attribute values it answers in the `1 validation error detected: ` envelope.
ENVELOPED_INPUTS = {"PutItemInput", "UpdateItemInput", "DeleteItemInput"}

# The inputs with PartiQL parameters, whose first problem DynamoDB reports in document order.
PARTIQL_PARAMETER_INPUTS = {"ExecuteStatementInput", "BatchExecuteStatementInput", "ExecuteTransactionInput"}

# BatchExecuteStatement answers an invalid parameter as that statement's `Error` (eu-west-2,
# 2026-10): the input defers the problem, and each request carries its own.
PARAMETER_PROBLEMS_PER_STATEMENT = ("BatchExecuteStatementInput", "BatchStatementRequest")

# Members whose empty value that validator reports without the value, under the wire name, and
# alone (`1 validation error detected: Value at 'TableName' failed to satisfy constraint: Member
# must have length greater than or equal to 1`, even with an invalid ReturnValues beside it).
EMPTY_VALUE_ALONE_MEMBERS = {(name, "TableName") for name in ENVELOPED_INPUTS}

# Members that validator reports without value or path (`Failed to satisfy constraint: Member
# must satisfy enum value set: [...]`), with its own value set (it prints `UPDATE_NEW`).
REWORDED_RETURN_VALUES = "[ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]"
BARE_ENUM_MEMBERS = {
    ("PutItemInput", "ReturnValues"): REWORDED_RETURN_VALUES,
    ("DeleteItemInput", "ReturnValues"): REWORDED_RETURN_VALUES,
    ("UpdateItemInput", "ReturnValues"): REWORDED_RETURN_VALUES,
}

# Members whose violation that validator reports alone (UpdateItem with invalid ReturnValues and
# ReturnConsumedCapacity: only ReturnValues).
REPORTED_ALONE_MEMBERS = {("UpdateItemInput", "ReturnValues")}

# Members that validator checks right after another one instead of in hash order (PutItem with
# three invalid enums: returnConsumedCapacity, ReturnValues, returnItemCollectionMetrics).
# A tag missing both parts names its key (measured 2026-10, ack-api-quirks: Tags=[{}]).
VALIDATED_AFTER = {("PutItemInput", "ReturnValues"): "ReturnConsumedCapacity", ("Tag", "Value"): "Key"}

# Output shapes the server writes with stored item bytes instead of decoded attribute values,
# by (service, model name): each gets a package sibling `Raw<Name>` with the same members, the
# ones listed here typed with `RawItem` (Sources/DynamoAPI/Shapes/RawItem.swift) or another raw
# shape, and only an encoder. The stream record is written so by the engine when it stores it.
RAW_ITEM_OUTPUTS = {
    ("ddb", "GetItemOutput"): {"Item": "RawItem"},
    ("ddb", "QueryOutput"): {"Items": "[RawItem]"},
    ("ddb", "ScanOutput"): {"Items": "[RawItem]"},
    ("ddb", "BatchGetItemOutput"): {"Responses": "[String: [RawItem]]"},
    ("ddb", "ItemResponse"): {"Item": "RawItem"},
    ("ddb", "TransactGetItemsOutput"): {"Responses": "[RawItemResponse]"},
    ("ddb", "ExecuteStatementOutput"): {"Items": "[RawItem]"},
    ("streams", "Record"): {"dynamodb": "RawStreamsStreamRecord"},
    ("streams", "StreamRecord"): {"NewImage": "RawItem", "OldImage": "RawItem"},
}

SWIFT_KEYWORDS = {
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
    "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
    "throw", "switch", "where", "while", "as", "false", "is", "nil", "self", "Self", "super", "throws",
    "true", "try", "Any", "Type", "Protocol",
}

# The endpoint rules' operation context parameters (`operationContextParams`, JMESPath over the
# input) as Swift expressions over the generated input, by (operation, parameter, path). A path
# the model adds that is missing here stops the generator, so the client never drops one.
OPERATION_CONTEXT_PATHS = {
    ("BatchGetItem", "ResourceArnList", "keys(RequestItems)"): "Array(requestItems.keys)",
    ("BatchWriteItem", "ResourceArnList", "keys(RequestItems)"): "Array(requestItems.keys)",
    ("TransactGetItems", "ResourceArnList", "TransactItems[*].Get.TableName"): "transactItems.map(\\.get.tableName)",
    ("TransactWriteItems", "ResourceArnList",
     "TransactItems[*].[ConditionCheck.TableName, Put.TableName, Delete.TableName, Update.TableName][]"):
        "transactItems.flatMap { [$0.conditionCheck?.tableName, $0.put?.tableName, $0.delete?.tableName, $0.update?.tableName].compactMap { $0 } }",
    ("ImportTable", "ResourceArn", "TableCreationParameters.TableName"): "tableCreationParameters.tableName",
}
# Where the client's generated endpoint parameters go (Sources/DynamoClient/Client/Generated).
CLIENT_OUT_DIR = os.path.join(ROOT, "Sources", "DynamoClient", "Client", "Generated")

# Operation groups: a generated file per group, each shape in the group of the first operation
# (in this order) that reaches it.
GROUPS = [
    ("Items", ["GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem",
               "BatchWriteItem", "TransactGetItems", "TransactWriteItems", "ExecuteStatement",
               "BatchExecuteStatement", "ExecuteTransaction", "SearchVectors"]),
    ("Tables", ["CreateTable", "DescribeTable", "UpdateTable", "DeleteTable", "ListTables",
                "DescribeTimeToLive", "UpdateTimeToLive", "TagResource", "UntagResource",
                "ListTagsOfResource", "DescribeLimits", "DescribeEndpoints"]),
    ("Backups", ["CreateBackup", "DeleteBackup", "DescribeBackup", "ListBackups",
                 "DescribeContinuousBackups", "UpdateContinuousBackups", "RestoreTableFromBackup",
                 "RestoreTableToPointInTime"]),
    ("GlobalTables", ["CreateGlobalTable", "DescribeGlobalTable", "DescribeGlobalTableSettings",
                      "ListGlobalTables", "UpdateGlobalTable", "UpdateGlobalTableSettings",
                      "DescribeTableReplicaAutoScaling", "UpdateTableReplicaAutoScaling"]),
    ("ImportExport", ["ExportTableToPointInTime", "DescribeExport", "ListExports", "ImportTable",
                      "DescribeImport", "ListImports", "StartBulkPutItems",
                      "DescribeBulkOperation", "ListBulkOperations", "CancelBulkOperation"]),
    ("Management", []),  # every other DynamoDB operation
    ("Streams", None),   # the DynamoDB Streams operations
    ("Errors", "errors"),  # structures that error shapes carry (errors themselves are DynamoError)
]
# The folder of each family under Generated/, holding a file per operation (the structures the
# operation reaches first) and one file of the family's enumerations (`Items/ItemEnums.swift`).
FILE_STEMS = {"Items": "Item", "Tables": "Table", "Backups": "Backup", "GlobalTables": "GlobalTable",
              "ImportExport": "ImportExport", "Management": "Management", "Streams": "Stream", "Errors": "Error"}
# Lines a generated file may hold before its biggest member subtrees move to files of their own.
FILE_LINE_BUDGET = 550


# ---------------------------------------------------------------------------------------------
# Java's orders (see Sources/DynamoAPI/Shapes/JavaRendering.swift)

def java_hash(text):
    h = 0
    for unit in text.encode("utf-16-le").decode("utf-16-le"):
        h = (31 * h + ord(unit)) & 0xFFFFFFFF
    return h


def java7_spread(h):
    h ^= (h >> 20) ^ (h >> 12)
    return (h ^ (h >> 7) ^ (h >> 4)) & 0xFFFFFFFF


def table_size(count):
    size = 16
    while count * 4 > size * 3:
        size *= 2
    return size


def validation_order(member_names):
    """Members in the order DynamoDB validates them: a Java 7 HashMap of the lower-first names
    (by bucket; within a bucket, later members first, as Java 7 chains new entries in front)."""
    mask = table_size(len(member_names)) - 1
    indexed = list(enumerate(member_names))
    indexed.sort(key=lambda iv: (java7_spread(java_hash(lower_first(iv[1]))) & mask, -iv[0]))
    return [name for _, name in indexed]


def enum_value_set_order(values):
    """Enum values as DynamoDB lists them: raw hash codes in 32 buckets, later values first."""
    size = 32
    while len(values) * 4 > size * 3:
        size *= 2
    indexed = list(enumerate(values))
    indexed.sort(key=lambda iv: (java_hash(iv[1]) & (size - 1), -iv[0]))
    return [v for _, v in indexed]


# ---------------------------------------------------------------------------------------------
# Names

def lower_first(name):
    """DynamoDB's member name in messages: `SSESpecification` -> `sSESpecification`."""
    return name[:1].lower() + name[1:]


def lower_camel(name):
    """Swift name: `TableName` -> `tableName`, `SSESpecification` -> `sseSpecification`."""
    if name.isupper() or not any(c.islower() for c in name):
        result = name.lower()
    else:
        i = 0
        while i < len(name) and (name[i].isupper() or name[i].isdigit()):
            i += 1
        if i == 0:
            result = name
        elif i == 1:
            result = name[0].lower() + name[1:]
        elif i < len(name) and name[i].islower():
            result = name[:i - 1].lower() + name[i - 1:]
        else:
            result = name[:i].lower() + name[i:]
    return result


def escape(identifier):
    return "`%s`" % identifier if identifier in SWIFT_KEYWORDS else identifier


def enum_case_name(value):
    words = [w for w in "".join(c if c.isalnum() else "_" for c in value).split("_") if w]
    parts = []
    for index, word in enumerate(words):
        word = word.lower() if word.isupper() or word.isdigit() else word
        parts.append(word[:1].lower() + word[1:] if index == 0 else word[:1].upper() + word[1:])
    name = "".join(parts) or "empty"
    if name[0].isdigit():
        name = "_" + name
    return escape(name)


def swift_string(text):
    out = []
    for c in text:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20:
            out.append("\\u{%x}" % ord(c))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def doc_text(text):
    """Text safe inside a /// comment with inline code."""
    return text.replace("`", "'")


# ---------------------------------------------------------------------------------------------
# The model

class Model:
    def __init__(self, ddb, streams):
        self.ddb = ddb
        self.streams = streams
        self.shapes = {}      # key -> shape dict
        self.swift_names = {}  # key -> Swift type name (structures and enums)
        self.model_names = {}  # key -> name in its model
        for name, shape in ddb["shapes"].items():
            self.shapes[("ddb", name)] = shape
            self.model_names[("ddb", name)] = name
        for name, shape in streams["shapes"].items():
            if name in ddb["shapes"] and ddb["shapes"][name] == shape:
                continue
            self.shapes[("streams", name)] = shape
            self.model_names[("streams", name)] = name

    def key(self, service, name):
        if service == "streams" and ("streams", name) not in self.shapes:
            return ("ddb", name)
        return (service, name)

    def swift_type_name(self, key):
        name = self.model_names[key]
        if name in HAND_WRITTEN and key[0] == "ddb":
            return HAND_WRITTEN[name]
        return ("Streams" + name) if key[0] == "streams" else name


def load_models(data_dir):
    def read(service):
        path = os.path.join(data_dir, service, "2012-08-10", "service-2.json.gz")
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    return read("dynamodb"), read("dynamodbstreams")


def default_data_dir():
    try:
        import botocore
    except ImportError:
        sys.exit("botocore is not installed; pass --data DIR (botocore/data)")
    return os.path.join(os.path.dirname(botocore.__file__), "data")


def botocore_version(data_dir):
    try:
        import botocore
        if os.path.samefile(os.path.join(os.path.dirname(botocore.__file__), "data"), data_dir):
            return botocore.__version__
    except (ImportError, OSError):
        pass
    return "unknown"


# ---------------------------------------------------------------------------------------------
# Generation

class Generator:
    def __init__(self, model):
        self.m = model
        self.reachable = []       # structure and enum keys, in discovery order
        self.seen = set()
        self.group_of = {}
        self.operation_of = {}    # structure key -> the operation that reaches it first
        self.parent_of = {}       # structure key -> the structure it is first reached through
        self.current_operation = None
        self.operation_order = []  # (group, operation) in the order they are walked

    # -- reachability ------------------------------------------------------------------------

    def operations(self, service):
        spec = self.m.ddb if service == "ddb" else self.m.streams
        return [(name, op) for name, op in spec["operations"].items()]

    def walk(self, key, group, parent=None):
        """Records every structure and enum reachable from `key` in discovery order, with the
        group and operation that reach it first and the structure it is first reached through."""
        if key in self.seen:
            return
        shape = self.m.shapes[key]
        if shape.get("exception"):
            return
        if self.m.model_names[key] in HAND_WRITTEN and key[0] == "ddb":
            return
        self.seen.add(key)
        kind = shape["type"]
        if kind == "structure":
            self.reachable.append(key)
            self.group_of[key] = group
            self.operation_of[key] = self.current_operation
            self.parent_of[key] = parent
            for member in shape["members"].values():
                self.walk(self.m.key(key[0], member["shape"]), group, key)
        elif kind == "string" and "enum" in shape:
            self.reachable.append(key)
            self.group_of[key] = group
        elif kind == "list":
            self.walk(self.m.key(key[0], shape["member"]["shape"]), group, parent)
        elif kind == "map":
            self.walk(self.m.key(key[0], shape["key"]["shape"]), group, parent)
            self.walk(self.m.key(key[0], shape["value"]["shape"]), group, parent)

    def collect(self):
        ddb_ops = dict(self.operations("ddb"))
        assigned = set()
        for group, names in GROUPS:
            if names == "errors":
                self.current_operation = "Error"
                self.operation_order.append((group, "Error"))
                for key, shape in sorted(self.m.shapes.items()):
                    if not shape.get("exception"):
                        continue
                    for member_name, member in shape["members"].items():
                        if member_name.lower() != "message":
                            self.walk(self.m.key(key[0], member["shape"]), group)
                continue
            if names is None:
                for name, op in self.operations("streams"):
                    self.current_operation = name
                    self.operation_order.append((group, name))
                    for part in ("input", "output"):
                        if part in op:
                            self.walk(self.m.key("streams", op[part]["shape"]), group)
                continue
            if not names:
                names = [n for n in ddb_ops if n not in assigned]
            for name in names:
                assigned.add(name)
                self.current_operation = name
                self.operation_order.append((group, name))
                op = ddb_ops[name]
                for part in ("input", "output"):
                    if part in op:
                        self.walk(("ddb", op[part]["shape"]), group)
        missing = set(ddb_ops) - assigned
        if missing:
            sys.exit("operations without a group: %s" % sorted(missing))

    # -- types ---------------------------------------------------------------------------------

    def swift_type(self, key):
        shape = self.m.shapes[key]
        kind = shape["type"]
        if kind == "structure":
            return self.m.swift_type_name(key)
        if kind == "string":
            return self.m.swift_type_name(key) if "enum" in shape else "String"
        if kind in ("integer", "long"):
            return "Int"
        if kind == "boolean":
            return "Bool"
        if kind in ("double", "float"):
            return "Double"
        if kind == "timestamp":
            return "Timestamp"
        if kind == "blob":
            return "[UInt8]"
        if kind == "list":
            element = self.m.key(key[0], shape["member"]["shape"])
            if self.m.shapes[element]["type"] in ("blob", "integer"):
                sys.exit("lists of %s are not supported (%s)" % (self.m.shapes[element]["type"], key))
            return "[%s]" % self.swift_type(element)
        if kind == "map":
            value = self.m.key(key[0], shape["value"]["shape"])
            if self.m.shapes[value]["type"] in ("blob", "integer"):
                sys.exit("maps of %s are not supported (%s)" % (self.m.shapes[value]["type"], key))
            return "[String: %s]" % self.swift_type(value)
        sys.exit("unsupported shape type %s (%s)" % (kind, key))

    def rule_args(self, key, owner=None, member=None):
        """The shape's own constraints as `ValueRules` arguments (`{"minLength": 3, …}` in the
        literal's order), `"tableNameOrARN"`, or None. The request readers (shape_readers.py)
        check the very same rules."""
        if owner and (owner, member) in TABLE_NAME_MEMBER_OVERRIDES:
            key = ("ddb", TABLE_NAME_MEMBER_OVERRIDES[(owner, member)])
        elif self.m.model_names[key] == "TableArn" and member == "TableName":
            return "tableNameOrARN"
        shape = self.m.shapes[key]
        if (owner, member) in MEMBER_MAXIMUMS:
            shape = dict(shape, max=MEMBER_MAXIMUMS[(owner, member)])
        kind = shape["type"]
        args = {}
        if kind in ("string", "list", "map", "blob") and "enum" not in shape:
            if "min" in shape:
                args["minLength"] = shape["min"]
            if "max" in shape:
                args["maxLength"] = shape["max"]
            if "pattern" in shape:
                args["pattern"] = shape["pattern"]
        elif kind in ("integer", "long"):
            if "min" in shape:
                args["minValue"] = shape["min"]
            if "max" in shape:
                args["maxValue"] = shape["max"]
        return args or None

    def own_rules(self, key, owner=None, member=None):
        """A `ValueRules(...)` literal for the shape's own constraints, or None."""
        rules = self.rule_args(key, owner, member)
        if rules is None:
            return None
        if rules == "tableNameOrARN":
            return ".tableNameOrARN"
        args = []
        for name, value in rules.items():
            if name != "pattern":
                args.append("%s: %d" % (name, value))
            elif value in PATTERNS:
                args.append("pattern: .%s" % PATTERNS[value])
            else:
                print("warning: no hand-coded matcher for pattern %r (%s); using NSRegularExpression"
                      % (value, key[1]), file=sys.stderr)
                args.append("pattern: .regex(%s)" % swift_string(value))
        return "ValueRules(%s)" % ", ".join(args)

    def element_rules(self, key):
        """Rules of a list's elements or a map's values: their own constraints (enums count)."""
        shape = self.m.shapes[key]
        if shape["type"] == "string" and "enum" in shape:
            return "ValueRules.none"
        return self.own_rules(key)

    def constraint_doc(self, key, owner, member, required):
        """The member's doc line: required or optional, then its constraints."""
        return ", ".join(["required" if required else "optional"] + self.constraint_parts(key, owner, member))

    def constraint_parts(self, key, owner=None, member=None):
        if owner and (owner, member) in TABLE_NAME_MEMBER_OVERRIDES:
            key = ("ddb", TABLE_NAME_MEMBER_OVERRIDES[(owner, member)])
        elif self.m.model_names[key] == "TableArn" and member == "TableName":
            return ["a table name (1...255, pattern `[a-zA-Z0-9_.-]+`) or ARN (up to 1024)"]
        shape = self.m.shapes[key]
        if (owner, member) in MEMBER_MAXIMUMS:
            shape = dict(shape, max=MEMBER_MAXIMUMS[(owner, member)])
        kind = shape["type"]
        parts = []
        if kind in ("string", "list", "map", "blob") and "enum" not in shape:
            if "min" in shape or "max" in shape:
                parts.append("length %s...%s" % (shape.get("min", 0), shape.get("max", "")))
            if "pattern" in shape:
                parts.append("pattern `%s`" % doc_text(shape["pattern"]))
        elif kind in ("integer", "long"):
            if "min" in shape or "max" in shape:
                parts.append("value %s...%s" % (shape.get("min", ""), shape.get("max", "")))
        if kind == "timestamp":
            parts.append("epoch seconds")
        if kind == "blob":
            parts.append("base64 on the wire")
        if kind == "list":
            element_parts = self.constraint_parts(self.m.key(key[0], shape["member"]["shape"]))
            if element_parts:
                parts.append("each element %s" % ", ".join(element_parts))
        return parts

    # -- one structure -------------------------------------------------------------------------

    def member_info(self, key):
        shape = self.m.shapes[key]
        required = set(shape.get("required", []))
        members = []
        for name, ref in shape["members"].items():
            mkey = self.m.key(key[0], ref["shape"])
            members.append({
                "wire": name,
                "path": lower_first(name),
                "swift": escape(lower_camel(name)),
                "label": lower_camel(name),
                "key": mkey,
                "type": self.swift_type(mkey),
                "required": name in required,
            })
        return members

    def decode_statement(self, owner_name, m):
        mshape = self.m.shapes[m["key"]]
        kind = mshape["type"]
        json_arg = "j%s" % m["wire"]
        path_arg = swift_string(MEMBER_PATH_OVERRIDES.get((owner_name, m["wire"]), m["path"]))
        extra = []
        engine_checked = (owner_name, m["wire"]) in ENGINE_CHECKED_MEMBERS
        rules = None if engine_checked else self.own_rules(m["key"], owner_name, m["wire"])
        if rules and (owner_name, m["wire"]) in VALUELESS_MEMBERS:
            rules = rules[:-1] + ", omitsValue: true)"
        if rules == ".tableNameOrARN" and (owner_name, m["wire"]) in EMPTY_VALUE_ALONE_MEMBERS:
            rules = "ValueRules(tableNameOrARN: true, emptyValueAlone: true)"
        reworded = []
        if (owner_name, m["wire"]) in BARE_ENUM_MEMBERS:
            reworded.append("bare: true")
        if (owner_name, m["wire"]) in REPORTED_ALONE_MEMBERS:
            reworded.append("reportedAlone: true")
        if (owner_name, m["wire"]) in ENGINE_CHECKED_ENUMS:
            reworded.append("enumCheckedLater: true")
        if (owner_name, m["wire"]) in BARE_ENUM_MEMBERS:
            reworded.append("enumValueSet: %s" % swift_string(BARE_ENUM_MEMBERS[(owner_name, m["wire"])]))
        if reworded:
            rules = (rules[:-1] + ", " if rules else "ValueRules(") + ", ".join(reworded) + ")"
        if rules:
            extra.append("rules: %s" % rules)
        if kind == "list" and not engine_checked:
            element = self.element_rules(self.m.key(m["key"][0], mshape["member"]["shape"]))
            if element:
                extra.append("element: %s" % element)
        if kind == "map":
            value_key = self.m.key(m["key"][0], mshape["value"]["shape"])
            key_key = self.m.key(m["key"][0], mshape["key"]["shape"])
            element = self.element_rules(value_key)
            if element:
                extra.append("element: %s" % element)
            if self.m.model_names[m["key"]] in TABLE_NAME_OR_ARN_KEY_MAPS:
                extra.append("key: .tableNameOrARN")
            else:
                key_rules = self.own_rules(key_key)
                if key_rules:
                    extra.append("key: %s" % key_rules)
        message = REQUIRED_PARAMETER_MESSAGES.get((owner_name, m["wire"]))
        if message:
            extra.append("missing: %s" % swift_string(message))
        message = EMPTY_PARAMETER_MESSAGES.get((owner_name, m["wire"]))
        if isinstance(message, tuple):
            extra.append("empty: %s, empty2025: %s" % (swift_string(message[0]), swift_string(message[1])))
        elif message:
            extra.append("empty: %s" % swift_string(message))
        args = ", ".join([json_arg, path_arg] + extra)
        if kind == "integer":
            call = "requiredInteger" if m["required"] else "integer"
        elif kind == "blob":
            call = "requiredBlob" if m["required"] else "blob"
        else:
            call = "required" if m["required"] else "value"
        return "self.%s = d.%s(%s)" % (m["swift"], call, args)

    def encode_statement(self, m):
        kind = self.m.shapes[m["key"]]["type"]
        if kind == "blob":
            write = "Blob(bytes: %s).encodeValue(to: &w)"
        else:
            write = "%s.encodeValue(to: &w)"
        name = swift_string(m["wire"])
        if m["required"]:
            return "w.member(%s, &first); %s" % (name, write % m["swift"])
        return "if let v = %s { w.member(%s, &first); %s }" % (m["swift"], name, write % "v")

    def raw_structure(self, key):
        """`Raw<Name>`: the output shape with stored item bytes in place of attribute values."""
        model_name = self.m.model_names[key]
        name = "Raw" + self.m.swift_type_name(key)
        raw = RAW_ITEM_OUTPUTS[(key[0], model_name)]
        members = self.member_info(key)
        for m in members:
            if m["wire"] in raw:
                m["type"] = raw[m["wire"]]
        lines = []
        lines.append("/// `%s` as the server writes it: stored item bytes (`RawItem`) in %s, written unchanged."
                     % (model_name, ", ".join("`%s`" % w for w in raw)))
        lines.append("package struct %s: RawEncodable {" % name)
        for m in members:
            optional = "" if m["required"] else "?"
            lines.append("    /// `%s`." % m["wire"])
            lines.append("    package var %s: %s%s" % (m["swift"], m["type"], optional))
        lines.append("")
        lines.append("    /// Creates the shape from its members.")
        lines.append("    package init(")
        params = []
        for m in members:
            default = "" if m["required"] else " = nil"
            optional = "" if m["required"] else "?"
            params.append("        %s: %s%s%s" % (m["label"], m["type"], optional, default))
        lines.append(",\n".join(params))
        lines.append("    ) {")
        for m in members:
            lines.append("        self.%s = %s" % (m["swift"], escape(m["label"])))
        lines.append("    }")
        lines.append("")
        lines.append("    package func encode(to w: inout JSONWriter) {")
        lines.append('        w.writeRaw(UInt8(ascii: "{"))')
        lines.append("        var first = true")
        for m in members:
            if m["wire"] in raw:
                write = "%s.encodeRaw(to: &w)"
                name_text = swift_string(m["wire"])
                if m["required"]:
                    lines.append("        w.member(%s, &first); %s" % (name_text, write % m["swift"]))
                else:
                    lines.append("        if let v = %s { w.member(%s, &first); %s }" % (m["swift"], name_text, write % "v"))
            else:
                lines.append("        " + self.encode_statement(m))
        lines.append('        w.writeRaw(UInt8(ascii: "}"))')
        lines.append("    }")
        lines.append("")
        lines.append("    package func encodeRaw(to w: inout JSONWriter) { encode(to: &w) }")
        lines.append("}")
        return lines

    def render_statement(self, m, first):
        kind = self.m.shapes[m["key"]]["type"]
        prefix = "" if first else ", "
        value = ("Blob(bytes: %s)" if kind == "blob" else "%s") % m["swift"]
        if kind == "blob" and not m["required"]:
            value = "%s.map { Blob(bytes: $0) }" % m["swift"]
        if kind == "integer":
            value = m["swift"]
        return 'text.append("%s%s="); JavaRendering.append(%s, to: &text)' % (prefix, m["path"], value)

    def structure(self, key, doc):
        name = self.m.swift_type_name(key)
        model_name = self.m.model_names[key]
        members = self.member_info(key)
        lines = []
        lines.append("/// %s" % doc)
        lines.append("public struct %s: DynamoShape {" % name)
        for m in members:
            lines.append("    /// `%s`: %s." % (m["wire"], self.constraint_doc(m["key"], model_name, m["wire"], m["required"])))
            optional = "" if m["required"] else "?"
            lines.append("    public var %s: %s%s" % (m["swift"], m["type"], optional))
        if members:
            lines.append("")
        lines.append("    /// The shape's name in the service model.")
        lines.append("    public static var shapeName: String { %s }" % swift_string(model_name))
        if model_name in ENVELOPED_INPUTS:
            lines.append("")
            lines.append("    /// DynamoDB's 2026 validator answers an invalid attribute value in the envelope.")
            lines.append("    public static var envelopesValueErrors: Bool { true }")
        if model_name in PARTIQL_PARAMETER_INPUTS:
            lines.append("")
            lines.append("    /// The input carries PartiQL parameters, read in document order.")
            lines.append("    public static var readsParametersInOrder: Bool { true }")
        if model_name == PARAMETER_PROBLEMS_PER_STATEMENT[0]:
            lines.append("")
            lines.append("    /// An invalid parameter fails only its statement.")
            lines.append("    public static var defersParameterProblems: Bool { true }")
        if model_name == PARAMETER_PROBLEMS_PER_STATEMENT[1]:
            lines.append("")
            lines.append("    /// The statement's invalid parameter, answered as its `Error` (not on the wire).")
            lines.append("    package var parameterProblem: DynamoError? = nil")
        lines.append("")
        # Memberwise initializer.
        lines.append("    /// Creates the shape from its members.")
        if members:
            lines.append("    public init(")
            params = []
            for m in members:
                default = "" if m["required"] else " = nil"
                optional = "" if m["required"] else "?"
                params.append("        %s: %s%s%s" % (m["label"], m["type"], optional, default))
            lines.append(",\n".join(params))
            lines.append("    ) {")
            for m in members:
                lines.append("        self.%s = %s" % (m["swift"], escape(m["label"])))
            lines.append("    }")
        else:
            lines.append("    public init() {}")
        lines.append("")
        # Decoding, in DynamoDB's validation order.
        order = validation_order([m["wire"] for m in members])
        for (owner, moved), after in VALIDATED_AFTER.items():
            if owner == model_name:
                order.remove(moved)
                order.insert(order.index(after) + 1, moved)
        by_wire = {m["wire"]: m for m in members}
        if members:
            lines.append("    public init(jsonObject m: [String: JSONValue], decoder d: inout ShapeDecoder) {")
            # One pass over the members present (usually a few) instead of a lookup per model member.
            lines.append("        var %s: JSONValue?" % ", ".join("j%s" % m["wire"] for m in members))
            lines.append("        for (name, value) in m {")
            lines.append("            switch name {")
            for m in members:
                lines.append("            case %s: j%s = value" % (swift_string(m["wire"]), m["wire"]))
            lines.append("            default: break")
            lines.append("            }")
            lines.append("        }")
            for wire in order:
                lines.append("        " + self.decode_statement(model_name, by_wire[wire]))
                if model_name == PARAMETER_PROBLEMS_PER_STATEMENT[1] and wire == "Parameters":
                    lines.append("        self.parameterProblem = d.takeDeferredParameterProblem()")
        else:
            lines.append("    public init(jsonObject _: [String: JSONValue], decoder _: inout ShapeDecoder) {")
        lines.append("    }")
        lines.append("")
        # Encoding, in model order.
        lines.append("    public func encode(to w: inout JSONWriter) {")
        if members:
            lines.append('        w.writeRaw(UInt8(ascii: "{"))')
            lines.append("        var first = true")
            for m in members:
                lines.append("        " + self.encode_statement(m))
            lines.append('        w.writeRaw(UInt8(ascii: "}"))')
        else:
            lines.append('        w.writeRaw(UInt8(ascii: "{"))')
            lines.append('        w.writeRaw(UInt8(ascii: "}"))')
        lines.append("    }")
        lines.append("}")
        lines.append("")
        lines.append("extension %s: ShapeValue {" % name)
        lines.append("    func appendJava(to text: inout String) {")
        lines.append('        text.append("%s(")' % model_name)
        for index, m in enumerate(members):
            lines.append("        " + self.render_statement(m, index == 0))
        lines.append('        text.append(")")')
        lines.append("    }")
        lines.append("}")
        return lines

    def enumeration(self, key):
        name = self.m.swift_type_name(key)
        shape = self.m.shapes[key]
        values = shape["enum"]
        cases = [enum_case_name(v) for v in values]
        if len(set(cases)) != len(cases):
            sys.exit("enum case names collide in %s: %s" % (name, cases))
        lines = []
        lines.append("/// Values of `%s`. A value the model does not list is kept as received." % self.m.model_names[key])
        lines.append("public struct %s: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {" % name)
        lines.append("    public let rawValue: String")
        lines.append("")
        lines.append("    public init(rawValue: String) { self.rawValue = rawValue }")
        lines.append("")
        lines.append("    public var description: String { rawValue }")
        lines.append("")
        for case, value in zip(cases, values):
            lines.append("    /// `%s`" % value)
            lines.append("    public static var %s: %s { %s(rawValue: %s) }" % (case, name, name, swift_string(value)))
        lines.append("")
        lines.append("    /// Every value the model lists, in the model's order.")
        lines.append("    public static var knownValues: [%s] { [%s] }" % (name, ", ".join("." + c for c in cases)))
        lines.append("")
        lines.append("    /// Whether the model lists this value.")
        lines.append("    public var isKnown: Bool {")
        lines.append("        switch rawValue {")
        lines.append("        case %s: true" % ", ".join(swift_string(v) for v in values))
        lines.append("        default: false")
        lines.append("        }")
        lines.append("    }")
        lines.append("}")
        lines.append("")
        ordered = "[" + ", ".join(enum_value_set_order(values)) + "]"
        lines.append("extension %s: ShapeEnum {" % name)
        lines.append("    static var valueSetDescription: String { %s }" % swift_string(ordered))
        lines.append("}")
        return lines

    # -- files ---------------------------------------------------------------------------------

    def operation_docs(self):
        """Doc line per structure key: operation inputs and outputs get their own wording."""
        docs = {}
        for service in ("ddb", "streams"):
            for name, op in self.operations(service):
                label = ("DynamoDB Streams `%s`" % name) if service == "streams" else "`%s`" % name
                for part, word in (("input", "Input"), ("output", "Output")):
                    if part in op:
                        k = self.m.key(service, op[part]["shape"])
                        docs.setdefault(k, []).append("%s of %s" % (word, label))
        result = {k: " and ".join(v) + "." for k, v in docs.items()}
        for key, shape in sorted(self.m.shapes.items()):
            if not shape.get("exception"):
                continue
            for member_name, member in shape["members"].items():
                target = self.m.key(key[0], member["shape"])
                if self.m.shapes[target]["type"] == "list":
                    target = self.m.key(key[0], self.m.shapes[target]["member"]["shape"])
                if self.group_of.get(target) == "Errors" and self.m.shapes[target]["type"] == "structure":
                    result.setdefault(target, "The `%s` structure, carried by the `%s` error."
                                      % (self.m.model_names[target], self.m.model_names[key]))
        return result

    def type_blocks(self):
        """The Swift lines of every generated type, by shape key."""
        docs = self.operation_docs()
        blocks = {}
        for key in self.reachable:
            shape = self.m.shapes[key]
            if shape["type"] == "structure":
                doc = docs.get(key, "The `%s` structure." % self.m.model_names[key])
                block = self.structure(key, doc)
                if (key[0], self.m.model_names[key]) in RAW_ITEM_OUTPUTS:
                    block = block + [""] + self.raw_structure(key)
            else:
                block = self.enumeration(key)
            blocks[key] = block
        return blocks

    def operation_tables(self):
        """The operation table of each service, by file: DynamoDB's enumeration in
        `Operations.swift` and its inputs' `DynamoOperationInput` conformances (with `EmptyOutput`)
        in `OperationInputs.swift`; DynamoDB Streams' both in `StreamsOperations.swift`."""
        tables = {}
        for service, enum_name, prefix, title, file in (
            ("ddb", "DynamoOperation", self.m.ddb["metadata"]["targetPrefix"], "DynamoDB", "Operations.swift"),
            ("streams", "DynamoStreamsOperation", self.m.streams["metadata"]["targetPrefix"], "DynamoDB Streams",
             "StreamsOperations.swift"),
        ):
            lines = tables.setdefault(file, [])
            ops = sorted(self.operations(service))
            lines.append("/// The operations of %s, named as on the wire (`X-Amz-Target: %s.<name>`)." % (title, prefix))
            lines.append("public enum %s: String, CaseIterable, Sendable {" % enum_name)
            for name, _ in ops:
                lines.append("    case %s = %s" % (escape(lower_camel(name)), swift_string(name)))
            lines.append("")
            lines.append("    /// The prefix of the operations' `X-Amz-Target` header.")
            lines.append("    public static var targetPrefix: String { %s }" % swift_string(prefix))
            lines.append("")
            lines.append("    /// The operation a `X-Amz-Target` header names (`%s.PutItem`), or `nil`." % prefix)
            lines.append("    public init?(target: String) {")
            lines.append("        guard target.hasPrefix(Self.targetPrefix + \".\") else { return nil }")
            lines.append("        self.init(rawValue: String(target.dropFirst(Self.targetPrefix.count + 1)))")
            lines.append("    }")
            lines.append("")
            lines.append("    /// The operation's `X-Amz-Target` header.")
            lines.append("    public var target: String { Self.targetPrefix + \".\" + rawValue }")
            lines.append("")
            for part, word in (("input", "input"), ("output", "output")):
                lines.append("    /// The operation's %s shape%s." % (word, " (`EmptyOutput` when the model declares none)" if part == "output" else ""))
                lines.append("    public var %sType: any DynamoShape.Type {" % part)
                lines.append("        switch self {")
                for name, op in ops:
                    type_name = self.m.swift_type_name(self.m.key(service, op[part]["shape"])) if part in op else "EmptyOutput"
                    lines.append("        case .%s: %s.self" % (escape(lower_camel(name)), type_name))
                lines.append("        }")
                lines.append("    }")
                lines.append("")
            lines[-1:] = []
            lines.append("}")
            lines.append("")
            # DynamoOperationInput conformances where an input belongs to one operation: DynamoDB's
            # in a file of their own (`OperationInputs.swift`, with `EmptyOutput`).
            if service == "ddb":
                lines = tables.setdefault("OperationInputs.swift", [])
            inputs = {}
            for name, op in ops:
                inputs.setdefault(self.m.key(service, op["input"]["shape"]), []).append((name, op))
            for key, users in inputs.items():
                if len(users) != 1:
                    continue
                name, op = users[0]
                output = self.m.swift_type_name(self.m.key(service, op["output"]["shape"])) if "output" in op else "EmptyOutput"
                lines.append("extension %s: DynamoOperationInput {" % self.m.swift_type_name(key))
                lines.append("    public typealias Output = %s" % output)
                lines.append("    public static var target: String { %s }" % swift_string(prefix + "." + name))
                lines.append("}")
                lines.append("")
            lines.extend(self.idempotent_inputs(service, inputs))
        lines = tables["OperationInputs.swift"]
        lines.append("/// The output of an operation whose model declares none (`TagResource`, `UntagResource`).")
        lines.append("public struct EmptyOutput: DynamoShape {")
        lines.append('    public static var shapeName: String { "EmptyOutput" }')
        lines.append("")
        lines.append("    public init() {}")
        lines.append("")
        lines.append("    public init(jsonObject _: [String: JSONValue], decoder _: inout ShapeDecoder) {}")
        lines.append("")
        lines.append("    public func encode(to w: inout JSONWriter) {")
        lines.append('        w.writeRaw(UInt8(ascii: "{"))')
        lines.append('        w.writeRaw(UInt8(ascii: "}"))')
        lines.append("    }")
        lines.append("}")
        lines.append("")
        lines.append("extension EmptyOutput: ShapeValue {")
        lines.append('    func appendJava(to text: inout String) { text += "EmptyOutput()" }')
        lines.append("}")
        return tables

    def server_operation_table(self, version):
        """The server's exhaustive switch over the operations: each case hands the visitor the
        row `OperationRows.<operation>` (`OperationRows.Streams.<operation>`), typed by the
        operation's input, so an operation of the model without a row does not compile. And the
        `TableNaming` conformance of every input with a `TableName` member."""
        lines = self.header(version, "The server's operation rows, one per operation of the model.")
        lines.append("import DynamoAPI")
        lines.append("")
        lines.append("/// Something done with one operation's row, whatever its input and output types.")
        lines.append("protocol OperationRowVisitor {")
        lines.append("    associatedtype Result")
        lines.append("")
        lines.append("    /// Called with the row of the operation a request names.")
        lines.append("    func visit<Input, Output>(_ row: OperationRow<Input, Output>) -> Result")
        lines.append("}")
        lines.append("")
        named = []
        for service, enum_name, rows in (("ddb", "DynamoOperation", "OperationRows"),
                                         ("streams", "DynamoStreamsOperation", "OperationRows.Streams")):
            ops = sorted(self.operations(service))
            lines.append("extension %s {" % enum_name)
            lines.append("    /// Hands `visitor` this operation's row.")
            lines.append("    func withRow<Visitor: OperationRowVisitor>(_ visitor: Visitor) -> Visitor.Result {")
            lines.append("        switch self {")
            for name, op in ops:
                case = escape(lower_camel(name))
                input_key = self.m.key(service, op["input"]["shape"])
                lines.append("        case .%s: visitor.visit(%s.%s as OperationRow<%s, _>)"
                             % (case, rows, case, self.m.swift_type_name(input_key)))
                if input_key not in named and "TableName" in self.m.shapes[input_key]["members"]:
                    named.append(input_key)
            lines.append("        }")
            lines.append("    }")
            lines.append("}")
            lines.append("")
        for key in sorted(named, key=self.m.swift_type_name):
            info = next(m for m in self.member_info(key) if m["wire"] == "TableName")
            value = "[%s]" % info["swift"] if info["required"] else "%s.map { [$0] } ?? []" % info["swift"]
            lines.append("extension %s: TableNaming {" % self.m.swift_type_name(key))
            lines.append("    var tableNames: [String] { %s }" % value)
            lines.append("}")
            lines.append("")
        return {"OperationTable.swift": "\n".join(lines).rstrip("\n") + "\n"}

    def client_endpoint_parameters(self, version):
        """The parameters DynamoDB's endpoint rules read from each operation's input
        (`contextParam` members, `operationContextParams`, `staticContextParams`): the client's
        `EndpointParameterInput` conformances, for the resource ARN's account-based endpoint and
        the vector-search host."""
        lines = self.header(version, "The endpoint rules' parameters of each DynamoDB operation's input.")
        lines.append("import DynamoAPI")
        lines.append("")
        conformances = {}
        for name, op in sorted(self.operations("ddb")):
            key = self.m.key("ddb", op["input"]["shape"])
            shape = self.m.shapes[key]
            body = []
            for m in self.member_info(key):
                param = shape["members"][m["wire"]].get("contextParam", {}).get("name")
                if param is None:
                    continue
                if param != "ResourceArn" or m["type"] != "String":
                    raise SystemExit("unknown endpoint context parameter %s of %s.%s" % (param, name, m["wire"]))
                body.append("    var endpointResourceArn: String? { %s }" % m["swift"])
            for param, spec in sorted(op.get("operationContextParams", {}).items()):
                expression = OPERATION_CONTEXT_PATHS.get((name, param, spec["path"]))
                if expression is None:
                    raise SystemExit("no Swift expression for %s's %s path %r (OPERATION_CONTEXT_PATHS)" % (name, param, spec["path"]))
                member = "endpointResourceArn: String?" if param == "ResourceArn" else "endpointResourceArnList: [String]"
                body.append("    var %s { %s }" % (member, expression))
            for param, spec in sorted(op.get("staticContextParams", {}).items()):
                if param != "IsSearchOperation" or spec.get("value") is not True:
                    raise SystemExit("unknown static endpoint parameter %s of %s" % (param, name))
                body.append("    static var isSearchOperation: Bool { true }")
            if not body:
                continue
            # An input shared by operations (KinesisStreamingDestinationInput) conforms once; the
            # operations must then agree on its parameters.
            if conformances.setdefault(key, body) != body:
                raise SystemExit("operations sharing %s disagree on its endpoint parameters" % key[1])
        for key, body in sorted(conformances.items(), key=lambda item: self.m.swift_type_name(item[0])):
            lines.append("extension %s: EndpointParameterInput {" % self.m.swift_type_name(key))
            lines.extend(body)
            lines.append("}")
            lines.append("")
        return {"EndpointParameters.swift": "\n".join(lines).rstrip("\n") + "\n"}

    def idempotent_inputs(self, service, inputs):
        """IdempotentOperationInput conformances: one per input member the model marks
        `idempotencyToken`, which clients fill with a fresh UUID when the caller left it out."""
        lines = []
        for key in sorted((k for k, users in inputs.items() if len(users) == 1), key=self.m.swift_type_name):
            for m in self.member_info(key):
                if not self.m.shapes[key]["members"][m["wire"]].get("idempotencyToken"):
                    continue
                if m["type"] != "String":
                    raise SystemExit("idempotency token %s.%s is not a string" % (key[1], m["wire"]))
                lines.append("extension %s: IdempotentOperationInput {" % self.m.swift_type_name(key))
                lines.append("    public static var idempotencyToken: WritableKeyPath<Self, String?> { \\.%s }" % m["swift"])
                lines.append("}")
                lines.append("")
        return lines

    def header(self, version, what):
        return [
            "// %s" % what,
            "//",
            "// GENERATED by scripts/generate-shapes.py from botocore %s's service models" % version,
            "// (dynamodb %s, dynamodbstreams %s). Do not edit by hand: change the generator and rerun it."
            % (self.m.ddb["metadata"]["apiVersion"], self.m.streams["metadata"]["apiVersion"]),
            "// Laid out by the generator, not by swift-format:",
            "// swift-format-ignore-file",
            "",
        ]

    def files(self, version):
        """The generated files by path under the output directory.

        Each family (GROUPS) is a folder. Its enumerations share one file; each structure goes
        to the file of the operation that reaches it first (`Tables/CreateTableShapes.swift`).
        Where an operation's structures exceed FILE_LINE_BUDGET, the structures reached first
        through one member shape move to a file named for that shape
        (`Tables/TableDescriptionShapes.swift`), again and again down the tree until each fits.
        """
        blocks = self.type_blocks()
        children = {}
        for key in self.reachable:
            if self.m.shapes[key]["type"] == "structure":
                children.setdefault(self.parent_of[key], []).append(key)
        roots = {}
        for key in children.get(None, []):
            roots.setdefault(self.operation_of[key], []).append(key)
        sizes = {}

        def size(key):
            if key not in sizes:
                sizes[key] = len(blocks[key]) + 1 + sum(size(child) for child in children.get(key, []))
            return sizes[key]

        def subtree(key):
            keys = [key]
            for child in children.get(key, []):
                keys.extend(subtree(child))
            return keys

        out = {}

        def emit(path, what, keys):
            lines = self.header(version, what)
            for key in keys:
                lines.extend(blocks[key])
                lines.append("")
            out[path] = "\n".join(lines).rstrip("\n") + "\n"

        def place(folder, file_stem, what, head, kids, operation):
            keys = list(head)
            used = sum(len(blocks[key]) + 1 for key in head)
            deferred = []
            for kid in kids:
                if used + size(kid) <= FILE_LINE_BUDGET:
                    keys.extend(subtree(kid))
                    used += size(kid)
                else:
                    deferred.append(kid)
            if keys:
                emit("%s/%sShapes.swift" % (folder, file_stem), what, keys)
            for kid in deferred:
                place(folder, self.m.swift_type_name(kid), "`%s` and the shapes first reached through it, of the `%s` operation."
                      % (self.m.model_names[kid], operation), [kid], children.get(kid, []), operation)

        for group, operation in self.operation_order:
            folder = FILE_STEMS[group]
            if operation not in roots:
                continue
            what = ("Shapes carried by DynamoDB's errors." if operation == "Error"
                    else "Shapes first reached by the `%s` operation." % operation)
            place(folder, operation, what, [], roots[operation], operation)
        for group, _ in GROUPS:
            enums = [key for key in self.reachable
                     if self.group_of[key] == group and self.m.shapes[key]["type"] != "structure"]
            if enums:
                folder = FILE_STEMS[group]
                emit("%s/%sEnums.swift" % (folder, folder), "Enumerations of the %s operations." % group, enums)
        for file, table in self.operation_tables().items():
            what = {"Operations.swift": "The operation table of DynamoDB.",
                    "OperationInputs.swift": "The operation of each DynamoDB input shape, and `EmptyOutput`.",
                    "StreamsOperations.swift": "The operation table of DynamoDB Streams."}[file]
            lines = self.header(version, what) + table
            out[file] = "\n".join(lines).rstrip("\n") + "\n"
        return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", help="botocore's data directory (default: the installed botocore)")
    parser.add_argument("--out", default=OUT_DIR, help="output directory of the shapes")
    parser.add_argument("--server-out", default=SERVER_OUT_DIR, help="output directory of the server's operation switch")
    parser.add_argument("--reader-out", default=READER_OUT_DIR, help="output directory of the request readers")
    parser.add_argument("--check", action="store_true", help="only check that the files are up to date")
    args = parser.parse_args()

    data_dir = os.path.abspath(args.data or default_data_dir())
    ddb, streams = load_models(data_dir)
    generator = Generator(Model(ddb, streams))
    generator.collect()
    files = generator.files(botocore_version(data_dir))
    server_files = generator.server_operation_table(botocore_version(data_dir))
    client_files = generator.client_endpoint_parameters(botocore_version(data_dir))
    reader_files = shape_readers.reader_files(generator, sys.modules[__name__], botocore_version(data_dir))
    schema_files = shape_readers.schema_files(generator, sys.modules[__name__], botocore_version(data_dir))

    if args.check:
        outdated = (generated_files.stale(args.out, files) + generated_files.stale(args.server_out, server_files)
                    + generated_files.stale(args.reader_out, reader_files)
                    + generated_files.stale(SCHEMA_OUT_DIR, schema_files)
                    + generated_files.stale(CLIENT_OUT_DIR, client_files))
        if outdated:
            print("stale generated files: %s" % ", ".join(outdated), file=sys.stderr)
            return 1
        return 0
    written, removed = generated_files.sync(args.out, files)
    server_written, server_removed = generated_files.sync(args.server_out, server_files)
    reader_written, reader_removed = generated_files.sync(args.reader_out, reader_files)
    schema_written, schema_removed = generated_files.sync(SCHEMA_OUT_DIR, schema_files)
    client_written, client_removed = generated_files.sync(CLIENT_OUT_DIR, client_files)
    written = written + server_written + reader_written + schema_written + client_written
    removed = removed + server_removed + reader_removed + schema_removed + client_removed
    files = {**files, **server_files, **reader_files, **schema_files, **client_files}
    total = sum(text.count("\n") for text in files.values())
    print("generated %d files, %d lines, %d types to %s: %d written, %d removed, the rest unchanged"
          % (len(files), total, len(generator.reachable), os.path.relpath(args.out, ROOT), len(written), len(removed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
