/**
 * Parses one flow description (YAML or JSON bytes, from read-source.ts),
 * checks it is OpenAPI 3.0 and valid, and keeps what error messages need:
 * the display path and a pointer-to-line map.
 */
import { createHash } from "node:crypto";
import { CodegenError } from "../errors.js";
import { checkDocumentShapeOrThrow } from "./document-shape.js";
import { checkOpenApiVersionOrThrow } from "./openapi-version.js";
import { validateOpenApiOrThrow } from "./openapi-validation.js";
import { parseYamlOrThrow } from "./yaml-source.js";

export interface LoadedDescription {
  /** The path as the user gave it (for messages and the generated header). */
  readonly file: string;
  /** sha256 (hex) of the bytes as read. */
  readonly sha256: string;
  /** The parsed document: plain objects, arrays and scalars. */
  readonly document: unknown;
  /** 1-based line of the key (or item) a `#/...` pointer names, when it exists in the file. */
  lineOfOrUndefined(pointer: string): number | undefined;
}

export function parseDescriptionOrThrow(bytes: string | Uint8Array, displayPath: string): LoadedDescription {
  const raw = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
  const text = decodeUtf8OrThrow(raw, displayPath);
  const parsed = parseYamlOrThrow(text, displayPath);
  const { document } = parsed;
  const lineOfOrUndefined = (pointer: string): number | undefined => parsed.lineOfOrUndefined(pointer);
  checkDocumentShapeOrThrow(document, {
    file: displayPath,
    lineOfOrUndefined,
    scalarTextOrUndefined: (pointer) => parsed.scalarTextOrUndefined(pointer),
  });
  checkOpenApiVersionOrThrow(document, displayPath, lineOfOrUndefined);
  validateOpenApiOrThrow(document, displayPath, lineOfOrUndefined);
  return {
    file: displayPath,
    sha256: createHash("sha256").update(raw).digest("hex"),
    document,
    lineOfOrUndefined,
  };
}

function decodeUtf8OrThrow(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new CodegenError("SYNTAX_ERROR", "the file is not valid UTF-8 text", { file }, { cause: error });
  }
}
