/**
 * Files to upload: what a user may pass (FileInput), how it becomes one Blob
 * with a filename and a media type, and fileFromPath, whose Blob reads from
 * disk as it is sent instead of holding the file in memory.
 */
import { File } from "node:buffer";
import { openAsBlob } from "node:fs";
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import { DiskFile } from "./disk-file.js";
import { FlowsmithError } from "./errors.js";
import { isRecord } from "./json.js";

/** A file to upload: a Blob/File (fs.openAsBlob gives one), bytes, or either with a name and media type. */
export type FileData = Blob | Uint8Array;
export interface NamedFile {
  readonly data: FileData;
  readonly filename?: string;
  readonly contentType?: string;
}
export type FileInput = FileData | NamedFile;

/** A FileInput taken apart: the bytes as a Blob, and what the caller said about them. */
export interface FileParts {
  readonly blob: Blob;
  readonly filename: string | undefined;
  /** Lower-case essence (`image/png`) of the declared type, when one was declared. */
  readonly declaredType: string | undefined;
}

const MEDIA_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".heic": "image/heic",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".pdf": "application/pdf",
  ".json": "application/json",
  ".txt": "text/plain",
  ".xml": "application/xml",
  ".zip": "application/zip",
};

/**
 * A FileInput for a file on disk. The returned Blob reads the file only while
 * it is being uploaded, so a 50 MB file never sits in memory whole.
 */
export async function fileFromPath(
  path: string,
  options: { readonly filename?: string; readonly contentType?: string } = {},
): Promise<NamedFile> {
  const filename = options.filename ?? basename(path);
  const contentType = options.contentType ?? mediaTypeForFilename(filename);
  const blobOptions = contentType ? { type: contentType } : {};
  // Looked at first: a change after this look is refused when the file is sent.
  const { mtimeMs, size } = await regularFileOrThrow(path);
  const blob = await openAsBlob(path, blobOptions);
  const data = size === blob.size ? (new DiskFile(blob, { path, mtimeMs }, filename, blobOptions) as Blob) : blob;
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
    throw new FlowsmithError("FILE_NOT_READABLE", `fileFromPath: cannot read ${JSON.stringify(path)} (${code})`, { cause: error });
  }
  if (!info.isFile()) {
    throw new FlowsmithError("FILE_NOT_READABLE", `fileFromPath: ${JSON.stringify(path)} is not a regular file (a directory, device or pipe); pass the path of a file`);
  }
  return info;
}

export function isFileInput(value: unknown): value is FileInput {
  return isFileData(value) || (isRecord(value) && "data" in value && isFileData(value.data));
}

export function filePartsOf(input: FileInput): FileParts {
  const named = isFileData(input) ? undefined : input;
  const data = named ? named.data : (input as FileData);
  const blob = isBlob(data) ? data : new Blob([data]);
  const filename = named?.filename ?? (data instanceof File && data.name !== "" ? data.name : undefined);
  return { blob, filename, declaredType: essence(named?.contentType ?? blob.type) };
}

/** The Blob as it goes into the form: the same bytes (not copied) under a filename and media type. */
export function namedBlob(blob: Blob, filename: string, mediaType: string): Blob {
  if (blob instanceof DiskFile) return blob.renamed(filename, mediaType);
  return new File([blob], filename, { type: mediaType });
}

export function mediaTypeForFilename(filename: string | undefined): string | undefined {
  return filename === undefined ? undefined : MEDIA_TYPES_BY_EXTENSION[extname(filename).toLowerCase()];
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
  return value instanceof Uint8Array || isBlob(value);
}

function isBlob(value: unknown): value is Blob {
  return value instanceof Blob;
}
