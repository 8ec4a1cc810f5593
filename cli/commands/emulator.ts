/**
 * `flowsmith emulator`: starts the emulator, prints one JSON line with its
 * addresses and credentials when ready, and runs until SIGINT or SIGTERM
 * (io.stopped). The only module outside emulator/ that imports it: the
 * dispatcher's, loaded only for this command.
 */
import { controlAccessOrThrow } from "../../emulator/control-access.js";
import { startEmulator, type EmulatorOptions } from "../../emulator/index.js";
import { webhookSecretOrThrow, type Reload } from "../../emulator/options.js";
import { parseRedirectAllowlistOrThrow } from "../../emulator/redirect-allowlist.js";
import {
  EXIT,
  optionLines,
  parsedArgs,
  reportError,
  stoppedBy,
  usageError,
  type CommandIo,
  type CommandOptions,
} from "../command.js";

/** Every option, once: parsedArgs reads it, and optionLines prints it for --help. */
const OPTIONS = {
  config: {
    type: "string",
    arg: "<path>",
    help: "codegen config whose flows are served (default: the nearest codegen.config.json in this folder or above it)",
  },
  host: { type: "string", arg: "<host>", help: "address both listeners bind to (default: 127.0.0.1)" },
  "api-port": { type: "string", arg: "<n>", help: "port of the API host, {base_url} (default: 0, any free port)" },
  "auth-port": { type: "string", arg: "<n>", help: "port of the auth host, {auth_url} (default: 0, any free port)" },
  "webhook-url": {
    type: "string",
    multiple: true,
    arg: "<url>",
    help: "http(s) URL session-ended notifications are POSTed to (default: none sent); repeatable: events take the URLs in turn, a retry or second copy the next one",
  },
  "late-webhook-ms": {
    type: "string",
    arg: "<n>",
    help: "how long after its session ended a test_webhook_late... subject's webhook goes out (default: 5000)",
  },
  "created-ms": { type: "string", arg: "<n>", help: "how long a new session stays CREATED, in ms (default: 300)" },
  "step-ms": {
    type: "string",
    arg: "<n>",
    help: "how long START, and the OTP step without a ticket, each last, in ms (default: 300)",
  },
  "max-sessions": {
    type: "string",
    arg: "<n>",
    help: "sessions kept at most; past it the session that ended longest ago goes, else the oldest (default: 10000)",
  },
  "webhook-secret": {
    type: "string",
    arg: "<whsec_...>",
    help:
      "Standard Webhooks signing secret, whsec_ + base64 of at least 32 random bytes (make one: echo whsec_$(openssl rand -base64 32)) " +
      "(default: $FLOWSMITH_WEBHOOK_SECRET, else none: deliveries unsigned). Prefer the variable: a flag shows in the process list.",
  },
  "redirect-allowlist": {
    type: "string",
    multiple: true,
    arg: "<origin or URL prefix>",
    help: "where a session's redirectUrl may point; repeatable, replaces the default (loopback)",
  },
  "no-control": {
    type: "boolean",
    help: "no control API (/__emulator/ on the API host: faults, journal, webhooks, reset, flows)",
  },
  "control-token": {
    type: "string",
    arg: "<token>",
    help:
      "required on every control call (Authorization: Bearer <token>), 16+ characters (default: $FLOWSMITH_CONTROL_TOKEN, else none). " +
      "Required with a non-loopback --host unless --no-control. Prefer the variable: a flag shows in the process list.",
  },
  watch: {
    type: "boolean",
    help: "reload the config and its descriptions when they change (one line on stderr per reload; an invalid set is refused and the previous one kept)",
  },
} as const satisfies CommandOptions;

export const usage = `Usage: flowsmith emulator [options]

Runs a local emulator of the service (auth host and API host on loopback) for
the flows of a codegen config. When ready it prints one JSON line on stdout
(baseUrl, authUrl, clients) and runs until SIGINT or SIGTERM.

Options:
${optionLines(OPTIONS)}

Scenarios: a session whose metadata.subjectId starts with test_accepted, test_rejected, test_never_ends,
test_webhook_duplicate, test_webhook_late or test_webhook_lost plays that script (docs/emulator.md, "Scenarios").

Exit codes: 0 stopped by a signal, 1 could not start (config or description error), 2 usage error.
`;

/** Resolves with the exit code once the emulator has stopped (or failed to start). */
export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  let options: EmulatorOptions;
  try {
    options = parseOptionsOrThrow(args, io.env ?? process.env);
  } catch (error) {
    return usageError("emulator", (error as Error).message, io);
  }
  let emulator;
  try {
    emulator = await startEmulator({
      ...options,
      ...(options.watch ? { onReload: (reload: Reload) => io.stderr.write(`${reloadLine(reload)}\n`) } : {}),
    });
  } catch (error) {
    return reportError(error, io);
  }
  const { baseUrl, authUrl, clients } = emulator;
  io.stdout.write(`${JSON.stringify({ baseUrl, authUrl, clients })}\n`);
  await stoppedBy(io);
  await emulator.close();
  return EXIT.ok;
}

function parseOptionsOrThrow(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): EmulatorOptions {
  const parsed = parsedArgs(args, OPTIONS, false);
  if ("usageError" in parsed) throw new Error(parsed.usageError);
  const { values } = parsed;
  const flagSecret = values["webhook-secret"];
  const webhookSecret =
    flagSecret !== undefined ? webhookSecretOrThrow(flagSecret, "--webhook-secret") : webhookSecretFromEnvOrThrow(env);
  const controlToken = values["control-token"] ?? (env.FLOWSMITH_CONTROL_TOKEN || undefined);
  const control = values["no-control"] !== true;
  // Checked here too, so a control API left open to the network is a usage error (exit 2).
  controlAccessOrThrow(
    {
      control,
      ...(values.host !== undefined ? { host: values.host } : {}),
      ...(controlToken !== undefined ? { controlToken } : {}),
    },
    {
      token: values["control-token"] !== undefined ? "--control-token" : "--control-token (or FLOWSMITH_CONTROL_TOKEN)",
      off: "--no-control",
    },
  );
  return {
    ...(values.config !== undefined ? { configPath: values.config } : {}),
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(values["api-port"] !== undefined ? { apiPort: portOrThrow("--api-port", values["api-port"]) } : {}),
    ...(values["auth-port"] !== undefined ? { authPort: portOrThrow("--auth-port", values["auth-port"]) } : {}),
    ...(values["webhook-url"] !== undefined ? { webhookUrl: values["webhook-url"].map(webhookUrlOrThrow) } : {}),
    ...(values["late-webhook-ms"] !== undefined
      ? { lateWebhookMs: integerOrThrow("--late-webhook-ms", values["late-webhook-ms"]) }
      : {}),
    ...(values["created-ms"] !== undefined ? { createdMs: integerOrThrow("--created-ms", values["created-ms"]) } : {}),
    ...(values["step-ms"] !== undefined ? { stepMs: integerOrThrow("--step-ms", values["step-ms"]) } : {}),
    ...(values["max-sessions"] !== undefined
      ? { maxSessions: countOrThrow("--max-sessions", values["max-sessions"]) }
      : {}),
    ...(webhookSecret !== undefined ? { webhookSecret } : {}),
    ...(values["redirect-allowlist"] !== undefined
      ? { redirectAllowlist: allowlistOrThrow(values["redirect-allowlist"]) }
      : {}),
    ...(control ? {} : { control }),
    ...(controlToken !== undefined ? { controlToken } : {}),
    ...(values.watch === true ? { watch: true } : {}),
  };
}

/** One line per reload of --watch: what was published or withdrawn, or why the new set was refused. */
function reloadLine(reload: Reload): string {
  if (!reload.ok && reload.failed === "watch") {
    return `flowsmith emulator: cannot watch for changes (${oneLine(reload.error.message)}); still serving the same flows, and the files still watched reload as before`;
  }
  if (!reload.ok)
    return `flowsmith emulator: reload refused, still serving the previous flows: ${oneLine(reload.error.message)}`;
  const changed = reload.changes.filter((change) => change.change !== "unchanged");
  const unchanged = reload.changes.length - changed.length;
  const described = changed.map(
    (change) => `${change.change} ${change.flowId} (${change.environment}) v${String(change.version)}`,
  );
  const rest = unchanged > 0 ? [`${String(unchanged)} unchanged`] : [];
  return `flowsmith emulator: reloaded: ${[...described, ...rest].join(", ") || "no flows"}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}

/** The variable, when set and not empty; malformed, a usage error naming it (never echoing it). */
function webhookSecretFromEnvOrThrow(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const secret = env.FLOWSMITH_WEBHOOK_SECRET;
  if (secret === undefined || secret === "") return undefined;
  return webhookSecretOrThrow(secret, "FLOWSMITH_WEBHOOK_SECRET");
}

function integerOrThrow(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`${flag} must be a whole number >= 0, got "${text}"`);
  return Number(text);
}

function portOrThrow(flag: string, text: string): number {
  const port = integerOrThrow(flag, text);
  if (port > 65535) throw new Error(`${flag} must be a port number from 0 (any free port) to 65535, got "${text}"`);
  return port;
}

function countOrThrow(flag: string, text: string): number {
  const count = integerOrThrow(flag, text);
  if (count < 1) throw new Error(`${flag} must be a whole number >= 1, got "${text}"`);
  return count;
}

/** Notifications are POSTed over HTTP: anything else would start, then fail every delivery. */
function webhookUrlOrThrow(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== "http:" && url?.protocol !== "https:")
    throw new Error(`--webhook-url must be an absolute http(s) URL, got ${JSON.stringify(text)}`);
  return text;
}

/** Checked here too, so a bad entry is a usage error (exit 2) like any other bad flag. */
function allowlistOrThrow(entries: string[]): string[] {
  parseRedirectAllowlistOrThrow(entries);
  return entries;
}
