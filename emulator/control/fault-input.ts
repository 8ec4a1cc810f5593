/**
 * A fault as a test writes it (the JSON body of POST /__emulator/faults, or
 * the handle's addFault argument), checked field by field into a FaultSpec.
 * Every refusal names the field and says what it takes.
 */
import { validateHeaderName, validateHeaderValue } from "node:http";
import type { FaultSpec, HostName } from "../faults.js";
import { invalidField } from "../control-error.js";

/** What a test may pass; every field but `path` has a default. */
export interface FaultInput {
  /** Default "api". */
  readonly host?: HostName;
  /** Default: any method. */
  readonly method?: string;
  /** `/api/v1/staging/sessions/*`: a `*` segment matches any one segment; no query string. */
  readonly path: string;
  /** How many matching requests it applies to. Default 1. */
  readonly times?: number;
  /** Answer this status instead of processing the request (200 to 599). */
  readonly status?: number;
  /** Headers of that answer (with `status` only). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Body of that answer: JSON, or a string sent as it is (with `status` only). Default: an error body naming the fault. */
  readonly body?: unknown;
  /** Wait this long first (the emulator's clock). Default 0. */
  readonly delayMs?: number;
  /** Drop the connection without an answer, before processing the request or after. */
  readonly reset?: "before" | "after";
}

const KEYS = ["host", "method", "path", "times", "status", "headers", "body", "delayMs", "reset"] as const;
const MAX_TIMES = 1_000_000;
const MAX_DELAY_MS = 600_000;
const MAX_PATH_LENGTH = 2048;
const MAX_HEADERS = 50;
const MAX_BODY_BYTES = 64 * 1024;
/**
 * Headers the emulator writes itself, because they frame the answer or run the connection:
 * a fault's would make the answer lie about its own length, announce trailers it never
 * sends (node refuses to write such an answer), or take over the connection. The hop-by-hop
 * headers of RFC 9110 7.6.1 and the framing ones.
 */
const EMULATOR_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "trailer",
  "te",
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
]);

export function faultSpecOrThrow(input: unknown): FaultSpec {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalidField(
      "(body)",
      'a fault is a JSON object such as {"path": "/api/v1/staging/sessions/*", "status": 503}',
    );
  }
  const fields = input as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown !== undefined) throw invalidField(unknown, `not a field of a fault; the fields are ${KEYS.join(", ")}`);
  const status = optionalIntegerOrThrow(fields, "status", 200, 599);
  const reset = resetOrThrow(fields.reset);
  const delayMs = optionalIntegerOrThrow(fields, "delayMs", 0, MAX_DELAY_MS) ?? 0;
  if (status === undefined) {
    for (const field of ["headers", "body"] as const) {
      if (fields[field] !== undefined) throw invalidField(field, "only goes with status (the answer it shapes)");
    }
  }
  if (status !== undefined && reset !== undefined)
    throw invalidField("reset", "a fault either answers (status) or drops the connection (reset), not both");
  if (status === undefined && reset === undefined && delayMs === 0) {
    throw invalidField("status", "a fault needs status, reset or delayMs (else it would change nothing)");
  }
  return {
    host: hostOrThrow(fields.host),
    method: methodOrThrow(fields.method),
    path: pathOrThrow(fields.path),
    times: optionalIntegerOrThrow(fields, "times", 1, MAX_TIMES) ?? 1,
    status,
    headers: headersOrThrow(fields.headers),
    body: bodyOrThrow(fields.body),
    delayMs,
    reset,
  };
}

function bodyOrThrow(value: unknown): unknown {
  if (value === undefined || typeof value === "string") {
    if (value !== undefined && Buffer.byteLength(value) > MAX_BODY_BYTES)
      throw invalidField("body", `is larger than ${String(MAX_BODY_BYTES)} bytes`);
    return value;
  }
  const json = jsonOrUndefined(value);
  if (json === undefined) throw invalidField("body", "must be a JSON value or a string");
  if (Buffer.byteLength(json) > MAX_BODY_BYTES)
    throw invalidField("body", `is larger than ${String(MAX_BODY_BYTES)} bytes`);
  return value;
}

function jsonOrUndefined(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function hostOrThrow(value: unknown): HostName {
  if (value === undefined) return "api";
  if (value !== "api" && value !== "auth") throw invalidField("host", `must be "api" or "auth", got ${shown(value)}`);
  return value;
}

function methodOrThrow(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^[A-Za-z]{1,16}$/.test(value))
    throw invalidField("method", `must be an HTTP method such as "GET" or "POST", got ${shown(value)}`);
  return value.toUpperCase();
}

function pathOrThrow(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/"))
    throw invalidField(
      "path",
      `is required: a path starting with /, such as "/api/v1/staging/sessions/*", got ${shown(value)}`,
    );
  if (value.length > MAX_PATH_LENGTH)
    throw invalidField("path", `is longer than ${String(MAX_PATH_LENGTH)} characters`);
  if (/[?#\s]/.test(value))
    throw invalidField("path", `matches the path only: no query string, fragment or whitespace, got ${shown(value)}`);
  if (value.split("/").some((segment) => segment !== "*" && segment.includes("*"))) {
    throw invalidField(
      "path",
      `a * stands for one whole segment ("/sessions/*"), not part of one, got ${shown(value)}`,
    );
  }
  // Control calls are answered before faults are looked up, so such a fault would be listed and never apply.
  if (value.split("/")[1] === "__emulator")
    throw invalidField("path", `the control API (/__emulator/...) is never faulted, got ${shown(value)}`);
  return value;
}

function resetOrThrow(value: unknown): "before" | "after" | undefined {
  if (value === undefined) return undefined;
  if (value !== "before" && value !== "after")
    throw invalidField("reset", `must be "before" or "after", got ${shown(value)}`);
  return value;
}

function optionalIntegerOrThrow(
  fields: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): number | undefined {
  const value = fields[field];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalidField(field, `must be a whole number from ${String(min)} to ${String(max)}, got ${shown(value)}`);
  }
  return value;
}

function headersOrThrow(value: unknown): Readonly<Record<string, string>> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidField("headers", `must be an object of header names to string values, got ${shown(value)}`);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) throw invalidField("headers", `at most ${String(MAX_HEADERS)} headers`);
  const headers: Record<string, string> = {};
  for (const [name, text] of entries) {
    const field = `headers.${name}`;
    if (typeof text !== "string") throw invalidField(field, `must be a string (write "1", not 1), got ${shown(text)}`);
    try {
      validateHeaderName(name);
      validateHeaderValue(name, text);
    } catch {
      throw invalidField(
        field,
        "is not a valid HTTP header name and value (a token, and a value of printable Latin-1 characters without line breaks)",
      );
    }
    const lower = name.toLowerCase();
    if (EMULATOR_HEADERS.has(lower))
      throw invalidField(field, `${lower} is the emulator's to set (it frames the answer and runs the connection)`);
    headers[lower] = text;
  }
  return headers;
}

/** A value in a message: short, and as JSON so its type shows. */
function shown(value: unknown): string {
  const text = value === undefined ? "nothing" : (jsonOrUndefined(value) ?? typeof value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
