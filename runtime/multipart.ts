/**
 * A multipart request on the wire: walk the request along the flow's field
 * tree to get its parts (exact part names, spec order), put them in the
 * platform's FormData whose file entries are Blobs (the transport streams
 * them), and bound the encoded body's length before anything is sent.
 */
import { platform } from "#platform";
import { utf8Length } from "./bytes.js";
import { RequestValidationError } from "./errors.js";
import { FlowsmithError } from "./errors.js";
import type { FileInput } from "./file-input.js";
import { isFileInput } from "./files.js";
import type { FieldSpec, PartName } from "./flow-spec.js";
import { readablePath } from "./validation/issues.js";

interface TextPart {
  readonly kind: "text";
  readonly name: string;
  readonly value: string;
}

export interface FilePart {
  readonly kind: "file";
  readonly name: string;
  readonly input: FileInput;
  readonly maxBytes: number;
  readonly mediaTypes: readonly string[];
  /** Where it sits in the request, for error messages. */
  readonly path: string;
}

export type Part = TextPart | FilePart;

/** A file ready for the form: the Blob carries its filename and media type. */
export interface EncodablePart {
  readonly name: string;
  readonly value: string | Blob;
}

/** The parts of `request` in the order of `fields`; null and undefined values send no part. */
export function collectPartsOrThrow(request: unknown, fields: FieldSpec): Part[] {
  const parts: Part[] = [];
  walk(request, fields, { indices: [], path: [] }, parts);
  return parts;
}

export function buildForm(parts: readonly EncodablePart[]): FormData {
  const form = platform.formData();
  for (const part of parts) form.append(part.name, part.value);
  return form;
}

/**
 * The most bytes `form` can take on the wire, as the Fetch standard's
 * multipart/form-data encoder writes it (names and filenames escaped,
 * line breaks of text values normalized to CRLF), with a boundary of the
 * longest length RFC 2046 allows: each platform picks its own boundary, so
 * the bound holds for all of them and is at most a few dozen bytes per part
 * above what any of them sends.
 */
export function encodedLength(form: FormData): number {
  const boundaryLength = MAX_BOUNDARY_LENGTH;
  const prefix = 2 + boundaryLength + 2 + "Content-Disposition: form-data".length;
  let length = 0;
  for (const [name, value] of form) {
    const escapedName = escapeQuoted(normalizeLinefeeds(name));
    if (typeof value === "string") {
      length += prefix + utf8(`; name="${escapedName}"\r\n\r\n${normalizeLinefeeds(value)}\r\n`);
    } else {
      const file = value as Blob & { name?: string };
      length +=
        prefix +
        utf8(
          `; name="${escapedName}"` +
            (file.name ? `; filename="${escapeQuoted(file.name)}"` : "") +
            `\r\nContent-Type: ${file.type || "application/octet-stream"}\r\n\r\n`,
        ) +
        file.size +
        2;
    }
  }
  return length + 2 + boundaryLength + 4;
}

interface Position {
  /** Index of each enclosing array, outermost first. */
  readonly indices: readonly number[];
  readonly path: readonly (string | number)[];
}

function walk(value: unknown, spec: FieldSpec, at: Position, parts: Part[]): void {
  if (value === null || value === undefined) return;
  switch (spec.kind) {
    case "object":
      if (typeof value !== "object" || Array.isArray(value)) throw notA("an object", at);
      for (const property of spec.properties) {
        if (!Object.prototype.hasOwnProperty.call(value, property.name)) continue;
        const child = (value as Record<string, unknown>)[property.name];
        walk(child, property.spec, { indices: at.indices, path: [...at.path, property.name] }, parts);
      }
      return;
    case "array":
      if (!Array.isArray(value)) throw notA("an array", at);
      value.forEach((element, index) => {
        walk(element, spec.items, { indices: [...at.indices, index], path: [...at.path, index] }, parts);
      });
      return;
    case "value":
      parts.push({ kind: "text", name: partName(spec.part, at), value: textOf(value, at) });
      return;
    case "file":
      if (!isFileInput(value)) throw notA("a file (Blob, Uint8Array or { data, filename, contentType })", at);
      parts.push({
        kind: "file",
        name: partName(spec.part, at),
        input: value,
        maxBytes: spec.maxBytes,
        mediaTypes: spec.mediaTypes,
        path: readablePath(at.path),
      });
      return;
  }
}

function partName(part: PartName, at: Position): string {
  return part
    .map((segment) => {
      if (typeof segment === "string") return segment;
      const index = at.indices[segment.index];
      if (index === undefined) {
        throw new FlowsmithError(
          "INVALID_SPEC",
          `Part name ${JSON.stringify(part)} refers to array ${String(segment.index)}, which does not enclose ${readablePath(at.path)}`,
        );
      }
      return String(index);
    })
    .join("");
}

function textOf(value: unknown, at: Position): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  throw notA("a string, finite number or boolean", at);
}

function notA(expected: string, at: Position): RequestValidationError {
  const path = readablePath(at.path);
  return new RequestValidationError("VALIDATION_FAILED", `Request is invalid: ${path} must be ${expected}`, [
    { path, message: `must be ${expected}` },
  ]);
}

function escapeQuoted(text: string): string {
  return text.replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/"/g, "%22");
}

function normalizeLinefeeds(text: string): string {
  return text.replace(/\r?\n|\r/g, "\r\n");
}

/** RFC 2046, 5.1.1: a boundary has at most 70 characters. */
const MAX_BOUNDARY_LENGTH = 70;

function utf8(text: string): number {
  return utf8Length(text);
}
