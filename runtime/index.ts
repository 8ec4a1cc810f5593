/**
 * STUB (to be replaced by the runtime implementation; the exported names and
 * signatures below are the contract the generated code and templates/ rely on).
 */
import type { Environment, FlowSpec } from "./flow-spec.js";

export * from "./flow-spec.js";

/** A file to upload: a Blob/File (fs.openAsBlob gives one), bytes, or either with a name and media type. */
export type FileData = Blob | Uint8Array;
export interface NamedFile {
  readonly data: FileData;
  readonly filename?: string;
  readonly contentType?: string;
}
export type FileInput = FileData | NamedFile;

/** An ajv (standalone) validate function: the generated pre-flight validator of a flow's request. */
export interface RequestValidator {
  (data: unknown): boolean;
  errors?: readonly { instancePath: string; keyword: string; message?: string; params: object }[] | null;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface Client<E extends Environment = Environment> {
  readonly environment: E;
}

export function createSessionFor<E extends Environment, Request, Response>(
  client: Client<E>,
  spec: FlowSpec<E>,
  validate: RequestValidator,
  request: Request,
  options?: RequestOptions,
): Promise<Response> {
  void client, spec, validate, request, options;
  throw new Error("not implemented");
}
