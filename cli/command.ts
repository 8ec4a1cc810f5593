/**
 * What every command of the dispatcher (main.ts) shares: the I/O it is run
 * with, the exit codes it resolves with, and the end of a long-running
 * command. Exit codes live here only: library code returns results and
 * throws typed errors; commands turn them into these.
 */
import type { Env } from "../generator/config/load-config.js";

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

/** Prints a usage error the way every command does, and gives its exit code. */
export function usageError(command: string, message: string, io: CommandIo): number {
  io.stderr.write(`flowsmith ${command}: ${message}\nRun \`flowsmith ${command} --help\` for the options.\n`);
  return EXIT.usage;
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
