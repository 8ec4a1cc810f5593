/**
 * `flowsmith <command>`: the one dispatcher, run by bin/flowsmith.js. It maps
 * each command to its module in commands/ (loaded only when used) and
 * answers `--version` and `--help`; command.ts holds what every command
 * shares (its I/O, the exit codes). Nothing outside cli/ imports the
 * emulator (only commands/emulator.ts does); cli/ and the emulator reach the
 * generator through generator/index.ts only, and the generator imports neither.
 */
import { closestOrUndefined, flowsmithVersion, runtimeVersion } from "../generator/index.js";
import { EXIT, type CommandIo, type CommandModule } from "./command.js";

interface Command {
  /** One line for `flowsmith --help`. */
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

/** Registering a command is one line. */
const COMMANDS: Readonly<Record<string, Command>> = {
  init: {
    summary:
      "start a project: find flow descriptions (or the service's flows), write codegen.config.json, generate, print a first call",
    load: () => import("./commands/init.js"),
  },
  codegen: {
    summary: "generate a typed client per flow of codegen.config.json into its outputDir",
    load: () => import("./commands/codegen.js"),
  },
  emulator: {
    summary: "run a local emulator of the service for the flows of codegen.config.json",
    load: () => import("./commands/emulator.js"),
  },
  diff: {
    summary: "compare two descriptions of a flow; exit 1 when a change is breaking",
    load: () => import("./commands/diff.js"),
  },
  flows: {
    summary: "list the flows the service publishes to an environment",
    load: () => import("./commands/flows.js"),
  },
  add: {
    summary: "fetch a flow from the service, keep its snapshot, and add it to codegen.config.json",
    load: () => import("./commands/add.js"),
  },
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
    if (!command) return unknownCommand(name, io);
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
  if (!command) return unknownCommand(name, io);
  io.stdout.write((await command.load()).usage);
  return EXIT.ok;
}

/** The command a mistyped one is a slip of (`codgen`), when one is close; then the overview. */
function unknownCommand(name: string, io: CommandIo): number {
  const closest = closestOrUndefined(name, Object.keys(COMMANDS));
  io.stderr.write(
    `flowsmith: unknown command "${name}"${closest !== undefined ? ` (did you mean "${closest}"?)` : ""}\n\n${overview()}`,
  );
  return EXIT.usage;
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
