/** Errors of the generator. Library code throws these; only the CLI's commands (cli/commands/) turn them into exit codes. */

export type CodegenErrorCode =
  | "CONFIG_NOT_FOUND"
  | "CONFIG_INVALID"
  | "SOURCE_NOT_FOUND"
  | "SNAPSHOT_MISSING"
  | "SNAPSHOT_CONFLICT"
  | "SNAPSHOT_MISMATCH"
  | "VERSION_MISMATCH"
  | "SERVICE_NOT_CONFIGURED"
  | "CREDENTIALS_MISSING"
  | "FETCH_FAILED"
  | "FLOW_MISMATCH"
  | "SECRET_IN_DESCRIPTION"
  | "SYNTAX_ERROR"
  | "NOT_OPENAPI_3"
  | "INVALID_OPENAPI"
  | "NOT_A_FLOW_DESCRIPTION"
  | "UNSAFE_FLOW_ID"
  | "PATH_MISMATCH"
  | "DANGLING_REF"
  | "NO_REQUEST_BODY"
  | "UNSUPPORTED_CONSTRUCT"
  | "INVALID_SCHEMA"
  | "UNSUPPORTED_PATTERN"
  | "TOO_DEEP"
  | "TOO_LARGE"
  | "DUPLICATE_KEY"
  | "DUPLICATE_FLOW"
  | "DUPLICATE_FLOW_NAME"
  | "UNKNOWN_FLOW"
  | "NO_FLOWS_FOUND"
  | "UNSAFE_OUTPUT_DIR"
  | "OUTPUT_DIR_NOT_EMPTY"
  | "OUTPUT_CONFLICT"
  | "OUTPUT_EDITED"
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
  /** 1-based column on that line, when known (the config's messages give one). */
  readonly column?: number;
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
    context.file && [context.file, context.line, context.line && context.column].filter(Boolean).join(":"),
    context.pointer,
  ]
    .filter(Boolean)
    .join(" ");
  const flow = context.flow ? `flow "${context.flow}": ` : "";
  return printable(where ? `${flow}${where}: ${detail}` : `${flow}${detail}`);
}

/**
 * Names and pointers in a message come from the description: its control
 * characters (an escape sequence a terminal would act on), line separators and
 * bidirectional overrides are shown as `\uXXXX` instead. The context keeps them exact.
 */
function printable(message: string): string {
  return message.replace(
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** How every command prints a CodegenError: one line with its code, for people and for grep. */
export function errorLine(error: CodegenError): string {
  return `flowsmith: error ${error.code}: ${error.message}`;
}
