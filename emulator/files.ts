/**
 * The file vault: uploaded files streamed to a temporary folder as they
 * arrive (never held whole in memory), each known by its vaultEntryId.
 * The folder is removed when the emulator closes.
 */
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream, type ReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Environment } from "@flowsmith/runtime";
import { ApiError } from "./errors.js";

/** What a data block shows of a file, and what the request validator sees in its place. */
export interface FileReference {
  readonly vaultEntryId: string;
  readonly filename: string;
  readonly mediaType: string;
  size: number;
}

interface VaultEntry {
  readonly reference: FileReference;
  readonly environment: Environment;
  readonly file: string;
}

export interface StoreRequest {
  readonly part: string;
  readonly filename: string;
  readonly mediaType: string;
  readonly maxBytes: number;
  readonly environment: Environment;
  readonly signal: AbortSignal;
}

/** Leading bytes of the image formats the service accepts. */
const SIGNATURES: Readonly<Record<string, readonly number[]>> = {
  "image/jpeg": [0xff, 0xd8, 0xff],
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

export class FileVault {
  private readonly entries = new Map<string, VaultEntry>();

  private constructor(private readonly folder: string) {}

  static async create(): Promise<FileVault> {
    return new FileVault(await mkdtemp(path.join(tmpdir(), "flowsmith-emulator-")));
  }

  /** A reference for a file about to be stored, so it can take its place in the request at once. */
  reserve(filename: string, mediaType: string): FileReference {
    return { vaultEntryId: randomUUID(), filename, mediaType, size: 0 };
  }

  /** Streams a part to disk, counting bytes: past `maxBytes` it stops with 422 FILE_TOO_LARGE. */
  async storeOrThrow(reference: FileReference, content: Readable, request: StoreRequest): Promise<void> {
    const file = path.join(this.folder, reference.vaultEntryId);
    const check = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        const before = reference.size;
        reference.size += chunk.length;
        if (reference.size > request.maxBytes) {
          callback(
            new ApiError(
              422,
              "FILE_TOO_LARGE",
              `part "${request.part}": file is larger than its limit of ${request.maxBytes} bytes`,
            ),
          );
          return;
        }
        const signatureError = before < 8 ? signatureMismatch(request, chunk, before) : undefined;
        callback(signatureError, chunk);
      },
    });
    try {
      await pipeline(content, check, createWriteStream(file), { signal: request.signal });
      const tooShort = reference.size < (SIGNATURES[request.mediaType]?.length ?? 0);
      if (tooShort) throw notAn(request);
      this.entries.set(reference.vaultEntryId, { reference, environment: request.environment, file });
    } catch (error) {
      content.resume();
      await rm(file, { force: true });
      throw error;
    }
  }

  /** The file and a stream of its bytes, when it exists in that environment. */
  open(vaultEntryId: string, environment: Environment): { reference: FileReference; stream: ReadStream } | undefined {
    const entry = this.entries.get(vaultEntryId);
    if (!entry || entry.environment !== environment) return undefined;
    return { reference: entry.reference, stream: createReadStream(entry.file) };
  }

  async discard(references: readonly FileReference[]): Promise<void> {
    for (const reference of references) {
      this.entries.delete(reference.vaultEntryId);
      await rm(path.join(this.folder, reference.vaultEntryId), { force: true });
    }
  }

  async close(): Promise<void> {
    this.entries.clear();
    await rm(this.folder, { recursive: true, force: true });
  }
}

function signatureMismatch(request: StoreRequest, chunk: Buffer, offset: number): ApiError | undefined {
  const signature = SIGNATURES[request.mediaType];
  if (!signature) return undefined;
  for (let i = offset; i < signature.length && i - offset < chunk.length; i++) {
    if (chunk[i - offset] !== signature[i]) return notAn(request);
  }
  return undefined;
}

function notAn(request: StoreRequest): ApiError {
  const format = request.mediaType === "image/png" ? "PNG" : "JPEG";
  return new ApiError(
    400,
    "UNSUPPORTED_FILE_TYPE",
    `part "${request.part}": the content is not a ${format} image although it is sent as ${request.mediaType}`,
  );
}
