/** Errors of the generator. Library code throws these; only cli.ts turns them into exit codes. */

export type CodegenErrorCode =
  | "CONFIG_NOT_FOUND"
  | "CONFIG_INVALID"
  | "SOURCE_NOT_FOUND"
  | "SOURCE_UNSUPPORTED"
  | "SYNTAX_ERROR"
  | "NOT_OPENAPI_3"
  | "INVALID_OPENAPI"
  | "NOT_A_FLOW_DESCRIPTION"
  | "PATH_MISMATCH"
  | "DANGLING_REF"
  | "NO_REQUEST_BODY"
  | "UNSUPPORTED_CONSTRUCT"
  | "INVALID_SCHEMA"
  | "DUPLICATE_NAME"
  | "DUPLICATE_FLOW"
  | "UNKNOWN_FLOW"
  | "UNSAFE_OUTPUT_DIR"
  | "OUTPUT_DIR_NOT_EMPTY"
  | "OUTPUT_CONFLICT"
  | "OUTPUT_BUSY"
  | "INTERRUPTED_WRITE"
  | "WRITE_FAILED";

export interface CodegenErrorContext {
  /** Flow name from the config, when known. */
  readonly flow?: string;
  /** The file the problem is in (description or config), as the user wrote it. */
  readonly file?: string;
  /** JSON pointer inside that file, with leading `#`. */
  readonly pointer?: string;
  /** 1-based line in the file, when known. */
  readonly line?: number;
}

export class CodegenError extends Error {
  override readonly name = "CodegenError";
  constructor(
    readonly code: CodegenErrorCode,
    readonly detail: string,
    readonly context: CodegenErrorContext = {},
    options?: { cause?: unknown },
  ) {
    super(formatMessage(detail, context), options);
  }
}

function formatMessage(detail: string, context: CodegenErrorContext): string {
  const where = [
    context.file && (context.line ? `${context.file}:${context.line}` : context.file),
    context.pointer,
  ]
    .filter(Boolean)
    .join(" ");
  const flow = context.flow ? `flow "${context.flow}": ` : "";
  return where ? `${flow}${where}: ${detail}` : `${flow}${detail}`;
}
