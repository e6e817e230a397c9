// JSON for items: a parser that keeps numbers as their text (DynamoDB numbers have 38 digits,
// more than a JavaScript double holds) and reports errors with line and column, the checks of
// DynamoDB JSON, and the conversions between DynamoDB JSON and plain JSON.

/** A number kept as the text it was written with. */
export class Num {
  constructor(text) { this.text = text; }
}

/** An error in the text or the shape of an item, with where it is. */
export class ItemError extends Error {
  constructor(message, where) {
    super(where ? `${where}: ${message}` : message);
    this.where = where;
  }
}

function position(text, index) {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  const column = index - before.lastIndexOf("\n");
  return `line ${line}, column ${column}`;
}

/** Parses JSON text; numbers become `Num`. Throws `ItemError` naming the line and column. */
export function parseJSON(text) {
  let i = 0;
  const fail = (message) => { throw new ItemError(message, position(text, i)); };
  const space = () => { while (i < text.length && " \t\n\r".includes(text[i])) i++; };
  const expect = (word, value) => {
    if (text.startsWith(word, i)) { i += word.length; return value; }
    return fail(`unexpected ${describe()}`);
  };
  const describe = () => (i >= text.length ? "end of text" : `character ${JSON.stringify(text[i])}`);
  function string() {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("control character in a string (escape it)");
      i++;
    }
    if (i >= text.length) { i = start; fail("string never closed"); }
    i++;
    try { return JSON.parse(text.slice(start, i)); } catch { i = start; return fail("bad escape in string"); }
  }
  function number() {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail(`unexpected ${describe()}`);
    i += match[0].length;
    return new Num(match[0]);
  }
  function value() {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      const object = {};
      space();
      if (text[i] === "}") { i++; return object; }
      for (;;) {
        space();
        if (text[i] !== '"') fail(`expected a quoted name, found ${describe()}`);
        const key = string();
        if (Object.prototype.hasOwnProperty.call(object, key)) fail(`duplicate name ${JSON.stringify(key)}`);
        space();
        if (text[i] !== ":") fail(`expected ':' after ${JSON.stringify(key)}, found ${describe()}`);
        i++;
        object[key] = value();
        space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return object; }
        fail(`expected ',' or '}', found ${describe()}`);
      }
    }
    if (c === "[") {
      i++;
      const array = [];
      space();
      if (text[i] === "]") { i++; return array; }
      for (;;) {
        array.push(value());
        space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return array; }
        fail(`expected ',' or ']', found ${describe()}`);
      }
    }
    if (c === '"') return string();
    if (c === "t") return expect("true", true);
    if (c === "f") return expect("false", false);
    if (c === "n") return expect("null", null);
    return number();
  }
  const result = value();
  space();
  if (i < text.length) fail(`unexpected ${describe()} after the value`);
  return result;
}

/** JSON text of a value that may hold `Num`s; `indent` as JSON.stringify takes it. */
export function stringify(value, indent = 2, depth = 0) {
  const pad = indent ? "\n" + " ".repeat(indent * (depth + 1)) : "";
  const close = indent ? "\n" + " ".repeat(indent * depth) : "";
  const sep = indent ? ": " : ":";
  if (value instanceof Num) return value.text;
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    return "[" + value.map((v) => pad + stringify(v, indent, depth + 1)).join(",") + close + "]";
  }
  if (value && typeof value === "object") {
    const keys = Object.keys(value);
    if (!keys.length) return "{}";
    return "{" + keys.map((k) => pad + JSON.stringify(k) + sep + stringify(value[k], indent, depth + 1)).join(",") + close + "}";
  }
  return JSON.stringify(value);
}

const TYPES = ["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"];
const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function checkValue(value, where) {
  if (!value || typeof value !== "object" || Array.isArray(value) || value instanceof Num) {
    throw new ItemError(`expected an attribute value like {"S": "text"}`, where);
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    throw new ItemError(`an attribute value has exactly one type (${TYPES.join(", ")}); found ${keys.length ? keys.join(", ") : "none"}`, where);
  }
  const type = keys[0];
  const inner = value[type];
  const need = (ok, what) => { if (!ok) throw new ItemError(`${type} takes ${what}`, where); };
  switch (type) {
    case "S": need(typeof inner === "string", "a string"); break;
    case "N": need(typeof inner === "string" && NUMBER.test(inner), 'a number written as a string, e.g. "42"'); break;
    case "B": need(typeof inner === "string" && BASE64.test(inner), "base64 text"); break;
    case "BOOL": need(typeof inner === "boolean", "true or false"); break;
    case "NULL": need(inner === true, "true"); break;
    case "SS": need(Array.isArray(inner) && inner.length > 0 && inner.every((s) => typeof s === "string"), "a non-empty array of strings"); break;
    case "NS": need(Array.isArray(inner) && inner.length > 0 && inner.every((s) => typeof s === "string" && NUMBER.test(s)), 'a non-empty array of numbers as strings, e.g. ["1", "2"]'); break;
    case "BS": need(Array.isArray(inner) && inner.length > 0 && inner.every((s) => typeof s === "string" && BASE64.test(s)), "a non-empty array of base64 strings"); break;
    case "M":
      need(inner && typeof inner === "object" && !Array.isArray(inner) && !(inner instanceof Num), "an object of attribute values");
      for (const [k, v] of Object.entries(inner)) checkValue(v, `${where}.${k}`);
      break;
    case "L":
      need(Array.isArray(inner), "an array of attribute values");
      inner.forEach((v, n) => checkValue(v, `${where}[${n}]`));
      break;
    default:
      throw new ItemError(`unknown type ${JSON.stringify(type)}; the types are ${TYPES.join(", ")}`, where);
  }
}

/** Checks a parsed item in DynamoDB JSON; throws `ItemError` naming the attribute path. */
export function checkItem(item) {
  if (!item || typeof item !== "object" || Array.isArray(item) || item instanceof Num) {
    throw new ItemError("an item is a JSON object of attributes");
  }
  for (const [name, value] of Object.entries(item)) checkValue(value, name);
  return item;
}

/** Turns `Num`s into plain strings where DynamoDB JSON expects them (only inside N / NS). */
export function toWire(item) {
  // In DynamoDB JSON every number is already a string; a Num here means bad input caught by
  // checkItem, so only strings and containers remain.
  return JSON.parse(stringify(item, 0));
}

/** Plain JSON (parsed with `Num`s) to DynamoDB JSON. */
export function fromPlain(value, where = "item") {
  if (value === null) return { NULL: true };
  if (value instanceof Num) return { N: value.text };
  if (typeof value === "string") return { S: value };
  if (typeof value === "boolean") return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map((v, n) => fromPlain(v, `${where}[${n}]`)) };
  const map = {};
  for (const [k, v] of Object.entries(value)) map[k] = fromPlain(v, `${where}.${k}`);
  return { M: map };
}

/** A plain-JSON item to a DynamoDB item. */
export function itemFromPlain(value) {
  if (!value || typeof value !== "object" || Array.isArray(value) || value instanceof Num) {
    throw new ItemError("an item is a JSON object of attributes");
  }
  return fromPlain(value).M;
}

/** DynamoDB JSON to plain JSON (with `Num`s); sets become arrays, binary its base64 text. */
export function toPlain(value) {
  const [type] = Object.keys(value);
  const inner = value[type];
  switch (type) {
    case "N": return new Num(inner);
    case "NS": return inner.map((n) => new Num(n));
    case "NULL": return null;
    case "M": return Object.fromEntries(Object.entries(inner).map(([k, v]) => [k, toPlain(v)]));
    case "L": return inner.map(toPlain);
    default: return inner;
  }
}

/** Whether plain JSON would lose the types of some of the item's values (sets, binary). */
export function plainIsLossy(item) {
  const lossy = (value) => {
    const [type] = Object.keys(value);
    if (["SS", "NS", "BS", "B"].includes(type)) return true;
    if (type === "M") return Object.values(value.M).some(lossy);
    if (type === "L") return value.L.some(lossy);
    return false;
  };
  return Object.values(item).some(lossy);
}

/** A short text for a value in a table cell (cut at `limit` characters). */
export function preview(value, limit = 120) {
  const [type] = Object.keys(value);
  const inner = value[type];
  let text;
  if (type === "S" || type === "N" || type === "B") text = inner;
  else if (type === "BOOL") text = String(inner);
  else if (type === "NULL") text = "null";
  else text = stringify(toPlain(value), 0);
  return text.length > limit ? text.slice(0, limit) + "…" : text;
}

/** The size DynamoDB charges for an item, close enough for display (names + values in bytes). */
export function approximateSize(item) {
  return new TextEncoder().encode(JSON.stringify(item)).length;
}
