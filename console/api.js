// The DynamoDB API as a browser client sees it: POST / with X-Amz-Target and JSON 1.0, signed
// with SigV4 (WebCrypto's HMAC and SHA-256; a page from 127.0.0.1 or localhost is a secure context).
import { hmacBytes, sha256Bytes } from "./sha256.js";

const encoder = new TextEncoder();
const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

/** WebCrypto where the page is a secure context, plain JavaScript (sha256.js) elsewhere. */
let subtle = globalThis.crypto?.subtle;

/** Forces the plain JavaScript digests (for tests). */
export function usePlainDigests() { subtle = undefined; }

async function sha256(text) {
  const bytes = encoder.encode(text);
  return hex(subtle ? await subtle.digest("SHA-256", bytes) : sha256Bytes(bytes));
}

async function hmac(key, text) {
  const raw = typeof key === "string" ? encoder.encode(key) : new Uint8Array(key);
  if (!subtle) return hmacBytes(raw, encoder.encode(text));
  const cryptoKey = await subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return subtle.sign("HMAC", cryptoKey, encoder.encode(text));
}

/** The SigV4 headers for a POST of `body` to `/` on `host` (service `dynamodb`). */
export async function sign({ host, target, body, credentials, now = new Date() }) {
  const amzDate = now.toISOString().replace(/[:-]|\.\d{3}/g, "");
  const day = amzDate.slice(0, 8);
  const headers = {
    "content-type": "application/x-amz-json-1.0",
    host,
    "x-amz-date": amzDate,
    "x-amz-target": target,
  };
  if (credentials.sessionToken) headers["x-amz-security-token"] = credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const canonical = [
    "POST", "/", "",
    ...names.map((n) => `${n}:${headers[n]}`), "",
    names.join(";"),
    await sha256(body),
  ].join("\n");
  const scope = `${day}/${credentials.region}/dynamodb/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, await sha256(canonical)].join("\n");
  let key = await hmac("AWS4" + credentials.secretAccessKey, day);
  for (const part of [credentials.region, "dynamodb", "aws4_request"]) key = await hmac(key, part);
  const signature = hex(await hmac(key, toSign));
  delete headers.host; // the browser sends it (and may not be told to)
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, ` +
    `SignedHeaders=${names.join(";")}, Signature=${signature}`;
  return headers;
}

/** A DynamoDB error answer (or a network failure), with its type and message. */
export class ApiError extends Error {
  constructor(type, message, status) {
    super(message ? `${type}: ${message}` : type);
    this.type = type;
    this.status = status;
  }
}

/** Calls the server: one operation, its input, the parsed output. Every call is reported to
 *  `listeners` (the request log) with what was sent and what came back. */
export class Api {
  constructor(credentials) {
    this.credentials = credentials;
    this.listeners = [];
  }

  async call(operation, input, { service = "DynamoDB_20120810" } = {}) {
    const body = JSON.stringify(input);
    const target = `${service}.${operation}`;
    const headers = await sign({ host: location.host, target, body, credentials: this.credentials() });
    const started = performance.now();
    let response, text;
    try {
      response = await fetch("/", { method: "POST", headers, body });
      text = await response.text();
    } catch (error) {
      throw new ApiError("NetworkError", `the server did not answer (${error.message})`, 0);
    }
    let output;
    try {
      output = text ? JSON.parse(text) : {};
    } catch {
      output = { __type: `HTTP ${response.status}`, message: text.slice(0, 200) };
    }
    const entry = { operation, input, output, status: response.status, ms: Math.round(performance.now() - started) };
    this.listeners.forEach((listener) => listener(entry));
    if (!response.ok) {
      const type = String(output.__type || "HTTP " + response.status).split("#").pop();
      throw new ApiError(type, output.message || output.Message || "", response.status);
    }
    return output;
  }

  /** A DynamoDB Streams operation (same port, same signing). */
  streams(operation, input) {
    return this.call(operation, input, { service: "DynamoDBStreams_20120810" });
  }
}
