/**
 * Files to upload: what a user may pass (FileInput), and how it becomes one
 * Blob with a filename and a media type. Blobs, Files, bytes and Web
 * ReadableStreams work on every platform; fileFromPath (a file on disk, read
 * while it is sent) is Node's (platform/).
 */
import { platform } from "#platform";
import { FlowsmithError, RequestValidationError } from "./errors.js";
import { isRecord } from "./json.js";
import {
  MEDIA_TYPES_BY_EXTENSION,
  RENAMED,
  type FileData,
  type FileInput,
  type NamedFile,
  type RenamableFile,
} from "./file-input.js";
import type { FileFromPathOptions } from "./platform/platform.js";

/** A FileInput taken apart: the bytes as a Blob, and what the caller said about them. */
export interface FileParts {
  readonly blob: Blob;
  readonly filename: string | undefined;
  /** Lower-case essence (`image/png`) of the declared type, when one was declared. */
  readonly declaredType: string | undefined;
}

/**
 * A FileInput for a file on disk (Node only: elsewhere a ConfigurationError).
 * The returned Blob reads the file only while it is being uploaded, so a
 * 50 MB file never sits in memory whole.
 */
export function fileFromPath(path: string, options: FileFromPathOptions = {}): Promise<NamedFile> {
  return platform.fileFromPath(path, options);
}

export function isFileInput(value: unknown): value is FileInput {
  return isFileData(value) || (isRecord(value) && "data" in value && isFileData(value.data));
}

/**
 * The file as a Blob. A ReadableStream is read here, and refused
 * (FILE_TOO_LARGE, `path` its place in the request) once it goes past
 * `maxBytes`: nothing more of it is read.
 */
export async function filePartsOrThrow(input: FileInput, maxBytes: number, path: string): Promise<FileParts> {
  const named = isFileData(input) ? undefined : input;
  const data = named ? named.data : (input as FileData);
  const blob = isBlob(data)
    ? data
    : data instanceof Uint8Array
      ? new Blob([data])
      : await blobOfStreamOrThrow(data, maxBytes, path);
  const filename = named?.filename ?? (data instanceof File && data.name !== "" ? data.name : undefined);
  return { blob, filename, declaredType: essence(named?.contentType ?? blob.type) };
}

async function blobOfStreamOrThrow(stream: ReadableStream<Uint8Array>, maxBytes: number, path: string): Promise<Blob> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const read = await reader.read().catch((error: unknown) => {
      throw new FlowsmithError(
        "FILE_NOT_READABLE",
        `${path}: the stream failed while it was read (${(error as Error).message})`,
        { cause: error },
      );
    });
    if (read.done) return new Blob(chunks);
    size += read.value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new RequestValidationError(
        "FILE_TOO_LARGE",
        `${path} has more than ${String(maxBytes)} bytes; this flow accepts at most ${String(maxBytes)}`,
        [{ path, message: `must have at most ${String(maxBytes)} bytes` }],
      );
    }
    chunks.push(read.value as Uint8Array<ArrayBuffer>);
  }
}

/** The Blob as it goes into the form: the same bytes (not copied) under a filename and media type. */
export function namedBlob(blob: Blob, filename: string, mediaType: string): Blob {
  if (RENAMED in blob) return (blob as RenamableFile)[RENAMED](filename, mediaType);
  return new File([blob], filename, { type: mediaType });
}

export function extensionForMediaType(mediaType: string): string {
  const entry = Object.entries(MEDIA_TYPES_BY_EXTENSION).find(([, type]) => type === mediaType);
  return entry ? entry[0] : "";
}

/** The image type the first bytes show, reading only those bytes. */
export async function sniffImageType(blob: Blob): Promise<"image/jpeg" | "image/png" | undefined> {
  const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length === 8 && png.every((byte, i) => head[i] === byte)) return "image/png";
  return undefined;
}

/** `Image/PNG; q=1` → `image/png`; empty → undefined. */
export function essence(mediaType: string | undefined): string | undefined {
  const value = mediaType?.split(";")[0]?.trim().toLowerCase();
  // A common misspelling of image/jpeg; treating it as such avoids a false mismatch.
  if (value === "image/jpg" || value === "image/pjpeg") return "image/jpeg";
  return value ? value : undefined;
}

function isFileData(value: unknown): value is FileData {
  return value instanceof Uint8Array || isBlob(value) || value instanceof ReadableStream;
}

function isBlob(value: unknown): value is Blob {
  return value instanceof Blob;
}
