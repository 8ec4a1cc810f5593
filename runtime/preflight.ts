/**
 * Everything checked on the client before a session is created (issue 3,
 * "Before anything is sent"): environment, metadata keys, locale, state
 * length, the flow's validator, then the files (size, media type, count) and
 * the body size. Every problem is found before one error reports them all
 * (issue 20), its code the most specific problem's; only a flow of the other
 * environment, and a body too large once all else is right, are reported
 * alone. Returns the body ready to send; throws RequestValidationError,
 * sending nothing.
 */
import { utf8Length } from "./bytes.js";
import { FlowsmithError, RequestValidationError, type RequestValidationCode, type ValidationIssue } from "./errors.js";
import { mediaTypeForFilename } from "./file-input.js";
import {
  essence,
  extensionForMediaType,
  filePartsOrThrow,
  namedBlob,
  sniffImageType,
  type FileParts,
} from "./files.js";
import type { FlowSpec } from "./flow-spec.js";
import { isRecord } from "./json.js";
import { metadataProblems } from "./metadata-rule.js";
import {
  MAX_FILES_PER_REQUEST,
  MAX_REQUEST_BYTES,
  MAX_STATE_LENGTH,
  METADATA_KEYS,
  type Environment,
} from "./service-limits.js";
import { buildForm, collectPartsOrThrow, encodedLength, type EncodablePart, type FilePart } from "./multipart.js";
import { describeIssues, readablePath } from "./validation/issues.js";
import { issuesOf, type Check } from "./validation/schema-check.js";

export type PreparedBody = { readonly json: string } | { readonly form: FormData };

/**
 * A JSON body is ready at once (no promise: createSession's hot path saves
 * the await); a multipart body is a promise, as files are read to sniff them.
 * Throws synchronously for what the JSON path finds.
 */
export function preflightOrThrow(
  clientEnvironment: Environment,
  spec: FlowSpec,
  validate: Check,
  request: unknown,
): PreparedBody | Promise<PreparedBody> {
  checkEnvironment(clientEnvironment, spec);
  const problems = new Problems();
  checkMetadata(spec, request, problems);
  checkState(request, problems);
  const fitsSchema = runValidator(validate, request, problems);
  if (spec.bodyForm === "json") {
    problems.throwIfAny();
    return jsonBody(request);
  }
  // Files are looked for only in a request of the flow's shape; their problems join the others.
  if (!fitsSchema) problems.throwIfAny();
  return multipartBody(spec, request, problems);
}

/** Problems found so far; one RequestValidationError for all of them. */
class Problems {
  private readonly found: { readonly code: RequestValidationCode; readonly message: string }[] = [];
  readonly issues: ValidationIssue[] = [];

  add(code: RequestValidationCode, message: string, issues: readonly ValidationIssue[] = []): void {
    this.found.push({ code, message });
    this.issues.push(...issues);
  }

  /** A RequestValidationError a check threw, added; any other error thrown on. */
  addOrThrow(error: unknown): void {
    if (!(error instanceof RequestValidationError)) throw error;
    this.add(error.code, error.message, error.issues);
  }

  throwIfAny(): void {
    const [first] = this.found;
    if (first === undefined) return;
    const message =
      this.found.length === 1
        ? first.message
        : `The request has ${String(this.found.length)} problems: ${this.found.map((p, i) => `(${String(i + 1)}) ${p.message}.`).join(" ")}`;
    throw new RequestValidationError(first.code, message, this.issues);
  }
}

function checkEnvironment(clientEnvironment: Environment, spec: FlowSpec): void {
  if (spec.environment === clientEnvironment) return;
  fail(
    "ENVIRONMENT_MISMATCH",
    `Flow ${spec.id} is published to ${spec.environment}, but the client belongs to ${clientEnvironment}; ` +
      `an API client reaches only its own environment`,
  );
}

function checkMetadata(spec: FlowSpec, request: unknown, problems: Problems): void {
  for (const problem of metadataProblems(isRecord(request) ? request.metadata : undefined, spec.locales)) {
    if (problem.kind === "keys") {
      problems.add(
        "INVALID_METADATA",
        `metadata may only have ${METADATA_KEYS.join(" and ")}; remove ${problem.keys.map((k) => JSON.stringify(k)).join(", ")}`,
        problem.keys.map((key) => ({ path: readablePath(["metadata", key]), message: "is not allowed" })),
      );
    } else {
      problems.add(
        "UNSUPPORTED_LOCALE",
        `metadata.locale ${JSON.stringify(problem.locale)} is not offered by flow ${spec.id}; it accepts ${spec.locales.join(", ")}`,
        [{ path: "metadata.locale", message: `must be one of ${spec.locales.join(", ")}` }],
      );
    }
  }
}

function checkState(request: unknown, problems: Problems): void {
  const state = isRecord(request) ? request.state : undefined;
  // Characters are code points, as the flow's schema check (maxLength) counts them.
  if (typeof state !== "string") return;
  const length = Array.from(state).length;
  if (length <= MAX_STATE_LENGTH) return;
  problems.add(
    "STATE_TOO_LONG",
    `state has ${String(length)} characters; at most ${String(MAX_STATE_LENGTH)} are allowed`,
    [{ path: "state", message: `must have at most ${String(MAX_STATE_LENGTH)} characters` }],
  );
}

/** Whether the request fits the flow's schema; what it finds at a path already reported is not said twice. */
function runValidator(validate: Check, request: unknown, problems: Problems): boolean {
  const found = issuesOf(validate, request);
  if (found.length === 0) return true;
  const reported = new Set(problems.issues.map((issue) => issue.path));
  const issues = found.filter((issue) => !reported.has(issue.path));
  if (issues.length > 0) problems.add("VALIDATION_FAILED", `Request is invalid: ${describeIssues(issues)}`, issues);
  return false;
}

function jsonBody(request: unknown): PreparedBody {
  const json = JSON.stringify(request);
  // A UTF-16 code unit is at most 3 UTF-8 bytes: a body this short needs no exact count.
  if (json.length * 3 > MAX_REQUEST_BYTES) checkTotalSize(utf8Length(json));
  return { json };
}

async function multipartBody(spec: FlowSpec, request: unknown, problems: Problems): Promise<PreparedBody> {
  if (!spec.fields)
    throw new FlowsmithError(
      "INVALID_SPEC",
      `Flow ${spec.id} is sent as multipart but its spec has no fields: the generated module is damaged or from another flowsmith; run \`npx flowsmith codegen --force\``,
    );
  let parts: ReturnType<typeof collectPartsOrThrow>;
  try {
    parts = collectPartsOrThrow(request, spec.fields);
  } catch (error) {
    problems.addOrThrow(error);
    problems.throwIfAny();
    throw error;
  }
  const files = parts.filter((part): part is FilePart => part.kind === "file");
  const contents = new Map<FilePart, FileParts>();
  for (const file of files) {
    try {
      const content = await filePartsOrThrow(file.input, file.maxBytes, file.path);
      checkFileSize(file, content.blob, problems);
      contents.set(file, content);
    } catch (error) {
      problems.addOrThrow(error);
    }
  }
  const fileBlobs = new Map<FilePart, Blob>();
  for (const [file, content] of contents) {
    try {
      fileBlobs.set(file, await encodableFileOrThrow(file, content));
    } catch (error) {
      problems.addOrThrow(error);
    }
  }
  if (files.length > MAX_FILES_PER_REQUEST) {
    problems.add(
      "TOO_MANY_FILES",
      `The request has ${String(files.length)} files; at most ${String(MAX_FILES_PER_REQUEST)} are allowed`,
    );
  }
  problems.throwIfAny();
  const encodable: EncodablePart[] = parts.map((part) =>
    part.kind === "text" ? part : { name: part.name, value: fileBlobs.get(part) as Blob },
  );
  const form = buildForm(encodable);
  // Alone: the total is known only once every part is right.
  checkTotalSize(encodedLength(form));
  return { form };
}

function checkFileSize(file: FilePart, blob: Blob, problems: Problems): void {
  if (blob.size <= file.maxBytes) return;
  problems.add(
    "FILE_TOO_LARGE",
    `${file.path} has ${String(blob.size)} bytes; this flow accepts at most ${String(file.maxBytes)}`,
    [{ path: file.path, message: `must have at most ${String(file.maxBytes)} bytes` }],
  );
}

/** The file as a Blob with its filename and the media type it is sent as. */
async function encodableFileOrThrow(file: FilePart, { blob, filename, declaredType }: FileParts): Promise<Blob> {
  const mediaType = await mediaTypeOrThrow(file, blob, declaredType ?? mediaTypeForFilename(filename), declaredType);
  return namedBlob(blob, filename ?? `file${extensionForMediaType(mediaType)}`, mediaType);
}

const IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png"];

async function mediaTypeOrThrow(
  file: FilePart,
  blob: Blob,
  guessed: string | undefined,
  declared: string | undefined,
): Promise<string> {
  const accepted = file.mediaTypes.map((type) => essence(type) ?? type);
  const imagesOnly = accepted.length > 0 && accepted.every((type) => IMAGE_TYPES.includes(type));
  const claimsImage = guessed !== undefined && IMAGE_TYPES.includes(guessed) && accepted.length > 0;
  if (imagesOnly || claimsImage) {
    // The bytes decide: a name or a declared type can be wrong, the first bytes of a JPEG or PNG cannot.
    const sniffed = await sniffImageType(blob);
    if (sniffed === undefined || (accepted.length > 0 && !accepted.includes(sniffed))) {
      const names = (accepted.length > 0 ? accepted : IMAGE_TYPES).map((type) =>
        type === "image/png" ? "PNG" : "JPEG",
      );
      unsupported(file, `is not a ${names.join(" or ")} image (checked by its first bytes)`);
    }
    if (declared !== undefined && declared !== sniffed)
      unsupported(file, `is declared as ${declared}, but its bytes are ${sniffed}`);
    return sniffed;
  }
  if (accepted.length === 0) return guessed ?? "application/octet-stream";
  if (guessed === undefined) {
    unsupported(file, `has no media type; give contentType (accepted: ${describeTypes(accepted)})`);
  }
  if (!accepted.some((type) => matchesMediaType(type, guessed))) {
    unsupported(file, `is ${guessed}; this flow accepts ${describeTypes(accepted)}`);
  }
  return guessed;
}

function matchesMediaType(accepted: string, actual: string): boolean {
  if (accepted === "*/*" || accepted === actual) return true;
  return accepted.endsWith("/*") && actual.startsWith(accepted.slice(0, -1));
}

function unsupported(file: FilePart, detail: string): never {
  fail("UNSUPPORTED_MEDIA_TYPE", `${file.path} ${detail}`, [{ path: file.path, message: detail }]);
}

function describeTypes(types: readonly string[]): string {
  return types.join(" or ");
}

function checkTotalSize(bytes: number): void {
  if (bytes <= MAX_REQUEST_BYTES) return;
  fail(
    "REQUEST_TOO_LARGE",
    `The request body would be ${String(bytes)} bytes; the service accepts at most ${String(MAX_REQUEST_BYTES)}`,
  );
}

function fail(code: RequestValidationCode, message: string, issues: readonly ValidationIssue[] = []): never {
  throw new RequestValidationError(code, message, issues);
}
