"""Issue #13's count of inline error messages kept at zero: every DynamoDB error message of the
server-side modules is written once in its module's catalog (a `*Messages.swift` or `*Errors.swift`
file) and thrown from there, never spelled out as a string literal at a throw site."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["DynamoAPI", "DynamoEngine", "DynamoExpressions", "DynamoPartiQL", "DynamoServer"]

# The calls that build a DynamoError: the initializer (message is its second argument) and the
# static factories `.validation(_:)` / `.serialization(_:)` (message is the first).
CALL = re.compile(r"\bDynamoError\s*\(|(?<![\w])(?:DynamoError)?\.(?:validation|serialization)\s*\(")


def is_catalog(path: Path) -> bool:
    return path.name.endswith(("Messages.swift", "Errors.swift")) or path.name == "DynamoError.swift"


def sources(module: str):
    for path in sorted((ROOT / "Sources" / module).rglob("*.swift")):
        if "Generated" not in path.parts:
            yield path


def skip_string(text: str, start: int) -> int:
    """The index just past the string literal opening at `start` (plain or `\"\"\"`), interpolations
    included."""
    if text.startswith('"""', start):
        end = text.index('"""', start + 3)
        return end + 3
    i = start + 1
    while text[i] != '"':
        if text[i] == "\\":
            if text[i + 1] == "(":
                i = skip_parens(text, i + 1)
                continue
            i += 2
            continue
        i += 1
    return i + 1


def skip_parens(text: str, start: int) -> int:
    """The index just past the parenthesis that closes the one at `start`."""
    depth, i = 0, start
    while True:
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def arguments(text: str, open_paren: int) -> list[tuple[int, int]]:
    """The spans of the top-level arguments of the call whose `(` is at `open_paren`."""
    spans, depth, i, begin = [], 0, open_paren + 1, open_paren + 1
    while True:
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                spans.append((begin, i))
                return spans
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((begin, i))
            begin = i + 1
        i += 1


def code_only(text: str) -> str:
    """`text` with comments blanked (same length, so offsets and line numbers still hold)."""
    out, i = list(text), 0
    while i < len(text):
        if text[i] == '"':
            i = skip_string(text, i)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out[i:end] = " " * (end - i)
            i = end
        else:
            i += 1
    return "".join(out)


def has_top_level_literal(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] holds a string literal outside any nested call (a literal passed to a
    catalog function is a value, not a message)."""
    depth, i = 0, start
    while i < end:
        c = text[i]
        if c == '"':
            if depth == 0:
                return True
            i = skip_string(text, i)
            continue
        depth += c in "([{"
        depth -= c in ")]}"
        i += 1
    return False


def inline_messages(path: Path):
    """(line, call) for each DynamoError built with a string literal in its message."""
    text = code_only(path.read_text())
    for match in CALL.finditer(text):
        spans = arguments(text, match.end() - 1)
        initializer = not match.group(0).startswith(".") and "." not in match.group(0)
        message = spans[1] if initializer and len(spans) > 1 else None if initializer else spans[0]
        if message and has_top_level_literal(text, *message):
            line = text.count("\n", 0, match.start()) + 1
            yield line, " ".join(text[match.start():message[1]].split())


def sentences(path: Path):
    """(line, words) for each literal of three words or more in a catalog file."""
    text = code_only(path.read_text())
    i = 0
    while i < len(text):
        if text[i] == '"':
            end = skip_string(text, i)
            literal = re.sub(r"\\\(.*?\)", "…", text[i:end].strip('"'))
            if sum(any(c.isalpha() for c in word) for word in literal.split()) >= 3:
                yield text.count("\n", 0, i) + 1, literal
            i = end
        else:
            i += 1


def test_no_message_literal_outside_the_catalogs():
    found = [f"{path.relative_to(ROOT)}:{line}: {call}"
             for module in MODULES for path in sources(module) if not is_catalog(path)
             for line, call in inline_messages(path)]
    assert not found, f"{len(found)} error messages written at their throw site instead of in " \
        "the module's catalog (*Messages.swift):\n" + "\n".join(found)


def test_each_catalog_sentence_once():
    repeated = []
    for module in MODULES:
        seen: dict[str, str] = {}
        for path in sources(module):
            if not is_catalog(path):
                continue
            for line, literal in sentences(path):
                where = f"{path.relative_to(ROOT)}:{line}"
                if literal in seen:
                    repeated.append(f"{where}: {literal!r} (also {seen[literal]})")
                else:
                    seen[literal] = where
    assert not repeated, "sentences written twice in one module's catalogs:\n" + "\n".join(repeated)


def test_the_scanner_finds_inline_messages(tmp_path):
    source = tmp_path / "Sample.swift"
    source.write_text('\n'.join([
        'let a = DynamoError(.validation, "one \\(x) two")',
        'throw .validation(',
        '    "multi" + "line")',
        'throw DynamoError(.resourceInUse, Messages.inUse)  // "a comment"',
        'throw .validation(EngineMessages.sentence(name: "x"))',
        'let b = DynamoError(DynamoErrorCode(rawValue: "Code"), message)',
    ]))
    assert [line for line, _ in inline_messages(source)] == [1, 2]


# Issue #13's other count: the engine and the server use the generated enums (`ReturnValue.allOld`,
# `BillingMode.payPerRequest`), not their raw strings. DynamoDB Local's metadata reader writes its
# JSON in DynamoDB Local's own words, so it may spell them.
TYPED = ["ReturnValue", "BillingMode", "TableStatus", "IndexStatus", "StreamViewType", "ProjectionType",
         "KeyType", "Select", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "TableClass",
         "StreamStatus", "ContinuousBackupsStatus", "PointInTimeRecoveryStatus", "TimeToLiveStatus"]
RAW_STRINGS_ALLOWED = {"DynamoDBLocalTable.swift"}


def generated_raw_values() -> dict[str, str]:
    """Each raw value of the enums in TYPED, mapped to its enum."""
    values: dict[str, str] = {}
    for path in (ROOT / "Sources" / "DynamoAPI" / "Shapes" / "Generated").rglob("*.swift"):
        text = path.read_text()
        for name in TYPED:
            for raw in re.findall(r"\{ %s\(rawValue: \"([A-Z_]+)\"\) \}" % name, text):
                values[raw] = name
    return values


def raw_enum_strings():
    values = generated_raw_values()
    for module in ["DynamoEngine", "DynamoServer"]:
        for path in sources(module):
            if is_catalog(path) or path.name in RAW_STRINGS_ALLOWED:
                continue
            text = code_only(path.read_text())
            for match in re.finditer(r'"([A-Z_]+)"', text):
                if match.group(1) in values and text[match.start() - 1] != "\\":
                    line = text.count("\n", 0, match.start()) + 1
                    yield f"{path.relative_to(ROOT)}:{line}: {match.group(0)} ({values[match.group(1)]})"


def test_generated_enums_are_used_typed():
    assert generated_raw_values()["PAY_PER_REQUEST"] == "BillingMode"
    found = list(raw_enum_strings())
    assert not found, "raw strings of generated enums (use the typed value):\n" + "\n".join(found)
