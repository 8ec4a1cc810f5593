/**
 * fileFromPath, on Node: a file on disk as an upload, whose bytes are read
 * only while the request is being sent. Node's own disk-backed Blob streams
 * in 64 KB web-stream chunks, which made uploads slower than the disk and
 * the socket allow; the File made here streams through one file handle in
 * 80 KB reads (bench/analysis.md, row 5: larger reads were faster, but the
 * process kept much more memory after them). Everything else (size, slice,
 * arrayBuffer) is the disk-backed Blob's own.
 */
import { openAsBlob, type Stats } from "node:fs";
import { open, stat } from "node:fs/promises";
import { basename } from "node:path";
import { FlowsmithError } from "../errors.js";
import { mediaTypeForFilename, RENAMED, type NamedFile } from "../file-input.js";
import type { FileFromPathOptions } from "./platform.js";

// Large enough to keep the socket busy, small enough that what is in flight stays a few MB.
const READ_CHUNK_BYTES = 80 * 1024;

/** What the file looked like when it was opened: a different file on disk is not sent. */
interface DiskSnapshot {
  readonly path: string;
  readonly mtimeMs: number;
}

export async function fileFromPath(path: string, options: FileFromPathOptions): Promise<NamedFile> {
  const filename = options.filename ?? basename(path);
  const contentType = options.contentType ?? mediaTypeForFilename(filename);
  const blobOptions = contentType ? { type: contentType } : {};
  // Looked at first: a change after this look is refused when the file is sent.
  const { mtimeMs, size } = await regularFileOrThrow(path);
  const blob = await openAsBlob(path, blobOptions);
  const data = size === blob.size ? new DiskFile(blob, { path, mtimeMs }, filename, blobOptions) : blob;
  return { data, filename, ...(contentType ? { contentType } : {}) };
}

/**
 * Only a regular file has the size stat reports: a directory failed midway
 * through the upload (EISDIR, part of the request already sent) and a device
 * or pipe would be sent as its stat size (0 bytes of /dev/stdin).
 */
async function regularFileOrThrow(path: string): Promise<Stats> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new FlowsmithError("FILE_NOT_READABLE", `fileFromPath: cannot read ${JSON.stringify(path)} (${code})`, {
      cause: error,
    });
  }
  if (!info.isFile()) {
    throw new FlowsmithError(
      "FILE_NOT_READABLE",
      `fileFromPath: ${JSON.stringify(path)} is not a regular file (a directory, device or pipe); pass the path of a file`,
    );
  }
  return info;
}

class DiskFile extends File {
  constructor(
    source: Blob,
    private readonly snapshot: DiskSnapshot,
    name: string,
    options: { readonly type?: string } = {},
  ) {
    super([source], name, options);
  }

  /** The same bytes under another name and media type (how the form sends them). */
  [RENAMED](name: string, type: string): File {
    return new DiskFile(this, this.snapshot, name, { type });
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return ReadableStream.from(readSnapshot(this.snapshot, this.size)) as ReadableStream<Uint8Array<ArrayBuffer>>;
  }
}

async function* readSnapshot(snapshot: DiskSnapshot, size: number): AsyncGenerator<Uint8Array> {
  const handle = await open(snapshot.path, "r");
  try {
    const stats = await handle.stat();
    // As Node's disk-backed Blob does: a file changed since it was opened is refused, not sent half-old.
    if (stats.size !== size || stats.mtimeMs !== snapshot.mtimeMs) {
      throw new DOMException(`${snapshot.path} changed after fileFromPath opened it`, "NotReadableError");
    }
    if (size === 0) return;
    yield* handle.createReadStream({ start: 0, end: size - 1, highWaterMark: READ_CHUNK_BYTES, autoClose: false });
  } finally {
    await handle.close();
  }
}
