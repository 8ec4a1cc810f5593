/**
 * `flowsmith emulator`: starts the emulator, prints one JSON line with its
 * addresses and credentials when ready, and runs until SIGINT or SIGTERM.
 * The only place that prints or returns exit codes.
 */
import { parseArgs } from "node:util";
import { startEmulator, type EmulatorOptions } from "./index.js";
import { parseRedirectAllowlistOrThrow } from "./player/redirect-allowlist.js";

export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Resolves when the emulator should stop. Default: SIGINT or SIGTERM. */
  readonly stopped?: Promise<void>;
}

/** Resolves with the exit code once the emulator has stopped (or failed to start). */
export async function runEmulatorCli(args: readonly string[], io: CliIo = process): Promise<number> {
  let options: EmulatorOptions;
  try {
    options = parseOptionsOrThrow(args);
  } catch (error) {
    io.stderr.write(`flowsmith emulator: ${(error as Error).message}\n`);
    return 2;
  }
  let emulator;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    io.stderr.write(`flowsmith emulator: ${(error as Error).message}\n`);
    return 1;
  }
  const { baseUrl, authUrl, clients } = emulator;
  io.stdout.write(`${JSON.stringify({ baseUrl, authUrl, clients })}\n`);
  await (io.stopped ?? untilSignal());
  await emulator.close();
  return 0;
}

function parseOptionsOrThrow(args: readonly string[]): EmulatorOptions {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      config: { type: "string" },
      host: { type: "string" },
      "api-port": { type: "string" },
      "auth-port": { type: "string" },
      "webhook-url": { type: "string" },
      "created-ms": { type: "string" },
      "step-ms": { type: "string" },
      "redirect-allowlist": { type: "string", multiple: true },
    },
  });
  return {
    ...(values.config !== undefined ? { configPath: values.config } : {}),
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(values["api-port"] !== undefined ? { apiPort: integerOrThrow("--api-port", values["api-port"]) } : {}),
    ...(values["auth-port"] !== undefined ? { authPort: integerOrThrow("--auth-port", values["auth-port"]) } : {}),
    ...(values["webhook-url"] !== undefined ? { webhookUrl: values["webhook-url"] } : {}),
    ...(values["created-ms"] !== undefined ? { createdMs: integerOrThrow("--created-ms", values["created-ms"]) } : {}),
    ...(values["step-ms"] !== undefined ? { stepMs: integerOrThrow("--step-ms", values["step-ms"]) } : {}),
    ...(values["redirect-allowlist"] !== undefined ? { redirectAllowlist: allowlistOrThrow(values["redirect-allowlist"]) } : {}),
  };
}

function integerOrThrow(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`${flag} must be a whole number >= 0, got "${text}"`);
  return Number(text);
}

/** Checked here too, so a bad entry is a usage error (exit 2) like any other bad flag. */
function allowlistOrThrow(entries: string[]): string[] {
  parseRedirectAllowlistOrThrow(entries);
  return entries;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
