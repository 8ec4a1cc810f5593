/**
 * What every command of the dispatcher (main.ts) shares: the I/O it is run
 * with, the exit codes it resolves with, and the end of a long-running
 * command. Exit codes live here only: library code returns results and
 * throws typed errors; commands turn them into these.
 */
import { parseArgs } from "node:util";
import { closestOrUndefined, CodegenError, errorLine, type CodegenErrorCode, type Env } from "../generator/index.js";

/** Where a command prints, and what it reads from its surroundings; `process` fits. */
export interface CommandIo {
  readonly stdout: CommandOutput;
  readonly stderr: CommandOutput;
  /** Whether a person is there to answer (`init`'s questions). Default process.stdin. */
  readonly stdin?: { readonly isTTY?: boolean };
  /** The environment commands read (the service's address and credentials, the emulator's secrets). Default process.env. */
  readonly env?: Env;
  /** A long-running command (`codegen --watch`, `emulator`) ends when this resolves. Default: SIGINT or SIGTERM. */
  readonly stopped?: Promise<void>;
}

/** stdout or stderr (the progress line draws on stderr too). */
export interface CommandOutput {
  write(text: string): unknown;
  /** A terminal: progress is drawn in place. */
  readonly isTTY?: boolean;
}

/** What a command's module exports. */
export interface CommandModule {
  /** Every option with its default and meaning: what `flowsmith <command> --help` prints. */
  readonly usage: string;
  /** Runs the command with the arguments after its name; resolves with an exit code (EXIT). */
  run(args: readonly string[], io: CommandIo): Promise<number>;
}

/** The same for every command. */
export const EXIT = {
  ok: 0,
  /** A failure; output that is out of date (`codegen --check`); a breaking change (`diff`). */
  failed: 1,
  /** Unknown command or option, bad option value. */
  usage: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Prints a usage error the way every command does, and gives its exit code. */
export function usageError(command: string, message: string, io: CommandIo): ExitCode {
  io.stderr.write(`flowsmith ${command}: ${message}\nRun \`flowsmith ${command} --help\` for the options.\n`);
  return EXIT.usage;
}

/** Typed errors that are about what was typed on the command line (docs/generating.md, "What is refused"): exit 2. */
const USAGE_CODES: ReadonlySet<CodegenErrorCode> = new Set<CodegenErrorCode>(["UNKNOWN_FLOW"]);

/**
 * How every command turns an error it caught into output and an exit code:
 * one line on stderr (describeError), and EXIT.usage for a code that is a
 * usage error, EXIT.failed for any other.
 */
export function reportError(error: unknown, io: CommandIo): ExitCode {
  io.stderr.write(`${describeError(error)}\n`);
  return error instanceof CodegenError && USAGE_CODES.has(error.code) ? EXIT.usage : EXIT.failed;
}

/**
 * One line for an error: a CodegenError's `flowsmith: error <CODE>: ...`
 * (errorLine), the same for another typed error (a `name` of its own and a
 * string `code`) or a system error (a port in use: `syscall` and `code`);
 * anything else is a bug, said with its stack.
 */
function describeError(error: unknown): string {
  if (error instanceof CodegenError) return errorLine(error);
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (error instanceof Error && typeof code === "string" && (error.name !== "Error" || "syscall" in error)) {
    return `flowsmith: error ${code}: ${error.message}`;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `flowsmith: unexpected error (please report it): ${detail}`;
}

/**
 * One option of a command, declared once: parseArgs reads the table as its
 * `options` (type, multiple), and optionLines prints it for --help (arg, help).
 * --help itself is the dispatcher's (main.ts), so no table has it.
 */
interface CommandOption {
  readonly type: "string" | "boolean";
  readonly multiple?: boolean;
  /** The value's placeholder in the usage, `<path>`; string options only. */
  readonly arg?: string;
  /** What it does and its default, as --help prints it. */
  readonly help: string;
}

export type CommandOptions = Readonly<Record<string, CommandOption>>;

/**
 * A command's arguments parsed against its table; a malformed one (an unknown
 * flag, a missing value) is the usage error's message, with the flag an
 * unknown one is a slip of (`--chek`: did you mean --check?).
 */
export function parsedArgs<T extends CommandOptions, P extends boolean>(
  args: readonly string[],
  options: T,
  allowPositionals: P,
):
  | ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: P; strict: true }>>
  | { readonly usageError: string } {
  try {
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (error) {
    const message = (error as Error).message;
    const unknown =
      (error as { code?: unknown }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? /'--([^'=]+)'/.exec(message)?.[1]
        : undefined;
    const closest = unknown !== undefined ? closestOrUndefined(unknown, Object.keys(options)) : undefined;
    return {
      usageError:
        closest !== undefined
          ? message.replace(`'--${unknown}'`, `'--${unknown}' (did you mean --${closest}?)`)
          : message,
    };
  }
}

const FLAG_WIDTH = 19;
const LINE_WIDTH = 100;

/** The usage's option lines: every option of the table in its order, then -h, --help. */
export function optionLines(options: CommandOptions): string {
  const rows: [string, string][] = [
    ...Object.entries(options).map(([name, option]): [string, string] => [
      `--${name}${option.arg !== undefined ? ` ${option.arg}` : ""}`,
      option.help,
    ]),
    ["-h, --help", "this help"],
  ];
  const indent = " ".repeat(FLAG_WIDTH + 4);
  return rows
    .map(([flag, help]) => {
      const lines = wrapped(help, LINE_WIDTH - indent.length);
      const first = flag.length <= FLAG_WIDTH ? `  ${flag.padEnd(FLAG_WIDTH)}  ${lines.shift() ?? ""}` : `  ${flag}`;
      return [first, ...lines.map((line) => `${indent}${line}`)].join("\n");
    })
    .join("\n");
}

/** Words into lines of at most `width` characters (a longer word gets a line of its own). */
function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

/** `io.stopped`, or the first SIGINT or SIGTERM. */
export function stoppedBy(io: CommandIo): Promise<void> {
  return io.stopped ?? untilSignal();
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
