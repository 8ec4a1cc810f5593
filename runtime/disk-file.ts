/**
 * The File fileFromPath hands out: the bytes of a file on disk, read only
 * while the request is being sent. Node's own disk-backed Blob streams in
 * 64 KB web-stream chunks, which made uploads slower than the disk and the
 * socket allow; this File streams through one file handle in 80 KB reads
 * (bench/analysis.md, row 5: larger reads were faster, but the process kept
 * much more memory after them).
 * Everything else (size, slice, arrayBuffer) is the disk-backed Blob's own.
 */
import { File } from "node:buffer";
import { open } from "node:fs/promises";

// Large enough to keep the socket busy, small enough that what is in flight stays a few MB.
const READ_CHUNK_BYTES = 80 * 1024;

/** What the file looked like when it was opened: a different file on disk is not sent. */
export interface DiskSnapshot {
  readonly path: string;
  readonly mtimeMs: number;
}

export class DiskFile extends File {
  constructor(
    source: Blob,
    readonly snapshot: DiskSnapshot,
    name: string,
    options: { readonly type?: string } = {},
  ) {
    super([source], name, options);
  }

  /** The same bytes under another name and media type (how the form sends them). */
  renamed(name: string, type: string): DiskFile {
    return new DiskFile(this, this.snapshot, name, { type });
  }

  override stream(): ReadableStream<Uint8Array> {
    return ReadableStream.from<Uint8Array>(readSnapshot(this.snapshot, this.size));
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
