/**
 * `flowsmith <command>`: the one dispatcher, run by bin/flowsmith.js. It maps
 * each command to the module that runs it (loaded only when used), answers
 * `--version` and `--help`, and holds the exit codes every command shares.
 * Nothing else imports the emulator; the emulator reads flows through
 * generator/index.ts only, and the generator never imports the emulator.
 */
import { flowsmithVersion, runtimeVersion } from "../generator/versions.js";

/** What a command's module exports. */
interface CommandModule {
  /** Every option with its default and meaning: what `flowsmith <command> --help` prints. */
  readonly usage: string;
  /** Runs the command with the arguments after its name; resolves with an exit code (see EXIT). */
  run(args: readonly string[], io: CommandIo): Promise<number>;
}

interface CommandIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** The environment commands read (the service's address and credentials); `process` has it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The same for every command. */
const EXIT = {
  ok: 0,
  /** A failure, or output that is out of date (`codegen --check`). */
  failed: 1,
  /** Unknown command or option, bad option value. */
  usage: 2,
} as const;

interface Command {
  /** One line for `flowsmith --help`. */
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

/** Registering a command is one line. */
const COMMANDS: Readonly<Record<string, Command>> = {
  init: { summary: "start a project: find flow descriptions (or the service's flows), write codegen.config.json, generate, print a first call", load: () => import("../generator/init-command.js") },
  codegen: { summary: "generate a typed client per flow of codegen.config.json into its outputDir", load: () => import("../generator/cli.js") },
  emulator: { summary: "run a local emulator of the service for the flows of codegen.config.json", load: () => import("../emulator/cli.js") },
  diff: { summary: "compare two descriptions of a flow; exit 1 when a change is breaking", load: () => import("../generator/diff-command.js") },
  flows: { summary: "list the flows the service publishes to an environment", load: () => import("../generator/flows-command.js") },
  add: { summary: "fetch a flow from the service, keep its snapshot, and add it to codegen.config.json", load: () => import("../generator/add-command.js") },
};

export async function main(argv: readonly string[], io: CommandIo = process): Promise<number> {
  const [name, ...args] = argv;
  try {
    if (name === "--version" || name === "-v") {
      io.stdout.write(`flowsmith ${flowsmithVersion()} (@flowsmith/runtime ${runtimeVersion()})\n`);
      return EXIT.ok;
    }
    if (name === undefined) {
      io.stderr.write(overview());
      return EXIT.usage;
    }
    if (name === "--help" || name === "-h" || name === "help") return await helpFor(args[0], io);
    const command = COMMANDS[name];
    if (!command) {
      io.stderr.write(`flowsmith: unknown command "${name}"\n\n${overview()}`);
      return EXIT.usage;
    }
    const module = await command.load();
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout.write(module.usage);
      return EXIT.ok;
    }
    return await module.run(args, io);
  } catch (error) {
    // Commands report their own errors; reaching here is a bug.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(`flowsmith: unexpected error (please report it): ${detail}\n`);
    return EXIT.failed;
  }
}

async function helpFor(name: string | undefined, io: CommandIo): Promise<number> {
  if (name === undefined) {
    io.stdout.write(overview());
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`flowsmith: unknown command "${name}"\n\n${overview()}`);
    return EXIT.usage;
  }
  io.stdout.write((await command.load()).usage);
  return EXIT.ok;
}

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const commands = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    "Usage: flowsmith <command> [options]",
    "",
    "Commands:",
    ...commands,
    "",
    "  flowsmith <command> --help   that command's options",
    "  flowsmith --version          flowsmith's and @flowsmith/runtime's versions",
    "",
    "Exit codes: 0 success, 1 failure or out-of-date output, 2 usage error.",
    "",
  ].join("\n");
}
