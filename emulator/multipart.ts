/**
 * Streaming multipart parsing of a create-session body (busboy). Every limit
 * is enforced while reading: the 50 MB total (bytes counted as they arrive),
 * 30 files, the parts the flow can use (emulator/request-limits.ts), each
 * file's own limit from the flow model, the part names the flow declares,
 * and each number or boolean part's syntax (emulator/part-values.ts). Files go straight to the vault; on any failure the files of
 * the request are removed again.
 */
import { setMaxListeners } from "node:events";
import type { IncomingMessage } from "node:http";
import busboy, { type Busboy } from "busboy";
import type { Readable } from "node:stream";
import type { Environment } from "@flowsmith/runtime";
import { MAX_FILES_PER_REQUEST, MAX_REQUEST_BYTES, METADATA_KEYS } from "@flowsmith/runtime/service-limits";
import { ApiError, badRequest } from "./errors.js";
import type { CatalogFlow } from "./flow-catalog.js";
import type { FileReference, FileVault } from "./files.js";
import { RequestAssembler, type LeafSchema, type ResolvedPart } from "./part-names.js";
import { partValueOrThrow } from "./part-values.js";
import { MAX_PART_NAME_BYTES, MAX_TEXT_VALUE_BYTES } from "./request-limits.js";

export interface MultipartBody {
  readonly body: Record<string, unknown>;
  readonly files: readonly FileReference[];
}

export function readMultipartOrThrow(
  req: IncomingMessage,
  flow: CatalogFlow,
  vault: FileVault,
  environment: Environment,
): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    const assembler = new RequestAssembler();
    const files: FileReference[] = [];
    const stores: Promise<void>[] = [];
    const abort = new AbortController();
    // Each stored file listens on it until the request ends: up to the file limit, plus the one refused.
    setMaxListeners(MAX_FILES_PER_REQUEST + 1, abort.signal);
    let failed = false;
    let parser: Busboy;

    const fail = (error: ApiError): void => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      abort.abort();
      void Promise.allSettled(stores).then(() => vault.discard(files));
      reject(error);
    };
    /** Runs a part's handling unless the request has failed; false when it has, now or before. */
    const guard = (action: () => void): boolean => {
      if (failed) return false;
      try {
        action();
        return true;
      } catch (error) {
        fail(
          error instanceof ApiError
            ? error
            : badRequest("MALFORMED_BODY", `malformed multipart body: ${(error as Error).message}`),
        );
        return false;
      }
    };

    try {
      // Part names and filenames travel as raw UTF-8 (WHATWG FormData encoding), not latin1.
      const limits = {
        fieldNameSize: MAX_PART_NAME_BYTES,
        fieldSize: MAX_TEXT_VALUE_BYTES,
        parts: flow.limits.parts,
        files: MAX_FILES_PER_REQUEST,
      };
      parser = busboy({ headers: req.headers, limits, defParamCharset: "utf8" });
    } catch (error) {
      reject(badRequest("MALFORMED_BODY", `malformed multipart request: ${(error as Error).message}`));
      return;
    }

    let received = 0;
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_REQUEST_BYTES)
        fail(new ApiError(413, "REQUEST_TOO_LARGE", `request body is larger than ${MAX_REQUEST_BYTES} bytes (50 MB)`));
    });
    const aborted = (): void => {
      fail(badRequest("MALFORMED_BODY", "the upload was aborted before the body ended"));
    };
    req.on("aborted", aborted);
    req.on("error", aborted);

    parser.on("field", (name, value, info) => {
      guard(() => {
        if (info.nameTruncated || info.valueTruncated) {
          throw badRequest(
            "VALUE_TOO_LONG",
            `part "${name.slice(0, 200)}" is too long (names up to ${MAX_PART_NAME_BYTES} bytes, values up to ${MAX_TEXT_VALUE_BYTES} bytes)`,
          );
        }
        const part = resolvePartOrThrow(flow, name);
        const schema = part.route.schema;
        if (schema.kind === "file")
          throw badRequest("VALIDATION_FAILED", `part "${name}" must be a file part (with a filename)`);
        assembler.placeOrThrow(part, partValueOrThrow(name, schema, value));
      });
    });
    parser.on("file", (name, content, info) => {
      const kept = guard(() => {
        const part = resolvePartOrThrow(flow, name);
        const schema = part.route.schema;
        if (schema.kind !== "file")
          throw badRequest("VALIDATION_FAILED", `part "${name}" must be a text field, not a file`);
        const mediaType = info.mimeType.toLowerCase();
        checkMediaTypeOrThrow(name, schema, mediaType);
        const reference = vault.reserve(info.filename ?? "", mediaType);
        assembler.placeOrThrow(part, reference);
        files.push(reference);
        stores.push(storeOrFail(reference, content, { part: name, schema, mediaType }));
      });
      // A refused file is read and dropped, so busboy goes on to the end of the body.
      if (!kept) content.resume();
    });
    parser.on("filesLimit", () => {
      fail(badRequest("TOO_MANY_FILES", `more than ${MAX_FILES_PER_REQUEST} files in one request`));
    });
    parser.on("partsLimit", () => {
      fail(
        badRequest(
          "TOO_MANY_PARTS",
          `more than ${flow.limits.parts} parts in one request: that is all flow "${flow.model.id}" can use (its declared fields, arrays counted by their maxItems)`,
        ),
      );
    });
    parser.on("error", (error: Error) => {
      fail(badRequest("MALFORMED_BODY", `malformed multipart body: ${error.message}`));
    });
    parser.on("close", () => {
      if (failed) return;
      void Promise.all(stores).then(
        () => {
          if (!failed) resolve({ body: assembler.body, files });
        },
        (error: unknown) => {
          fail(error instanceof ApiError ? error : badRequest("MALFORMED_BODY", "a file part could not be read"));
        },
      );
    });
    req.pipe(parser);

    function storeOrFail(
      reference: FileReference,
      content: Readable,
      leaf: { part: string; schema: LeafSchema & { kind: "file" }; mediaType: string },
    ): Promise<void> {
      const stored = vault.storeOrThrow(reference, content, {
        part: leaf.part,
        filename: reference.filename,
        mediaType: leaf.mediaType,
        maxBytes: leaf.schema.maxBytes,
        environment,
        signal: abort.signal,
      });
      // Fail at once (a file over its limit must not be read to its end), and let `close` see the outcome too.
      stored.catch((error: unknown) => {
        if (error instanceof ApiError) fail(error);
      });
      return stored;
    }
  });
}

function resolvePartOrThrow(flow: CatalogFlow, name: string): ResolvedPart {
  const part = flow.parts.resolve(name);
  if (part) return part;
  const metadataKey = /^metadata\[([^\]]*)\]$/.exec(name);
  if (metadataKey) {
    throw badRequest(
      "METADATA_KEY_NOT_ALLOWED",
      `metadata key "${metadataKey[1]}" is not allowed (part "${name}"); metadata accepts only ${METADATA_KEYS.join(" and ")}`,
    );
  }
  throw badRequest("UNKNOWN_PART", `part "${name}" is not declared by flow "${flow.model.id}"`);
}

function checkMediaTypeOrThrow(name: string, schema: LeafSchema & { kind: "file" }, mediaType: string): void {
  if (schema.mediaTypes.length === 0 || schema.mediaTypes.includes(mediaType)) return;
  throw badRequest(
    "UNSUPPORTED_FILE_TYPE",
    `part "${name}" is sent as ${mediaType || "(no type)"}; accepted: ${schema.mediaTypes.join(", ")}`,
  );
}
