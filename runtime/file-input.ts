/**
 * What a file to upload is, as a user passes it and the platform's
 * fileFromPath makes it: the shared floor of files.ts (the checks before
 * sending) and platform/disk-file.ts (Node's files on disk), which import it
 * and not each other.
 */

/**
 * A file to upload: a Blob or File (a Worker's `request.formData()` gives
 * Files, Node's fs.openAsBlob a Blob), bytes, or a ReadableStream of bytes
 * (an R2 object's body), which is read into memory when the request is
 * prepared, up to the flow's per-file limit.
 */
export type FileData = Blob | Uint8Array | ReadableStream<Uint8Array>;

/** A file with the name and media type to send it under. */
export interface NamedFile {
  /** The bytes. */
  readonly data: FileData;
  /** The part's filename. Default: the File's name, else `file` and an extension for its media type. */
  readonly filename?: string;
  /** The media type. Default: the Blob's type, else the filename's extension (for JPEG and PNG flows the first bytes decide). */
  readonly contentType?: string;
}

/** What a file field of a generated request takes: the bytes alone, or with a name and media type. */
export type FileInput = FileData | NamedFile;

/**
 * A File that sends its bytes its own way (fileFromPath's reads from disk)
 * makes its renamed copies itself, so they keep that way.
 */
export const RENAMED = Symbol("flowsmith.renamed");
export interface RenamableFile extends File {
  [RENAMED](name: string, type: string): File;
}

export const MEDIA_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
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

/** The media type a filename's extension names, when it names one flowsmith knows. */
export function mediaTypeForFilename(filename: string | undefined): string | undefined {
  if (filename === undefined) return undefined;
  const dot = filename.lastIndexOf(".");
  return dot <= 0 ? undefined : MEDIA_TYPES_BY_EXTENSION[filename.slice(dot).toLowerCase()];
}
