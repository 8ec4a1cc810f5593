/**
 * Test helpers for api sources: the emulator, started in-process on
 * loopback, serving flows read from description files (so a test can serve
 * version 1 of a flow, stop, and serve version 2), and the environment the
 * CLI reads its address and API clients from.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import { buildFlowModelOrThrow } from "../../../generator/model/build-flow-model";
import { parseDescriptionOrThrow } from "../../../generator/read/load-description";
import { main } from "../../../cli/main";
import { REPO } from "../codegen-project";

/** Distinct from the emulator's defaults, so a test that finds one in output cannot be fooled. */
export const CLIENTS = {
  staging: { clientId: "api-source-staging", clientSecret: "s3cret-staging-Zq9!xV" },
  live: { clientId: "api-source-live", clientSecret: "s3cret-live-Kp4#wM" },
} as const;

export interface Service {
  readonly emulator: RunningEmulator;
  /** FLOWSMITH_* variables pointing at it, with both API clients. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Serves these description files (paths relative to the repository). */
export async function startService(files: readonly string[]): Promise<Service> {
  const flows = await Promise.all(
    files.map(async (file) => {
      const description = parseDescriptionOrThrow(await readFile(path.join(REPO, file)), file);
      return { model: buildFlowModelOrThrow(description), document: description.document };
    }),
  );
  const emulator = await startEmulator({ flows, clients: CLIENTS });
  return { emulator, env: serviceEnv(emulator.baseUrl, emulator.authUrl), close: () => emulator.close() };
}

export function serviceEnv(baseUrl: string, authUrl: string): Record<string, string> {
  return {
    FLOWSMITH_BASE_URL: baseUrl,
    FLOWSMITH_AUTH_URL: authUrl,
    FLOWSMITH_STAGING_CLIENT_ID: CLIENTS.staging.clientId,
    FLOWSMITH_STAGING_CLIENT_SECRET: CLIENTS.staging.clientSecret,
    FLOWSMITH_LIVE_CLIENT_ID: CLIENTS.live.clientId,
    FLOWSMITH_LIVE_CLIENT_SECRET: CLIENTS.live.clientSecret,
  };
}

export const SAMPLE_IDS = {
  signing: { flowId: "6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13", environment: "staging" },
  "document-verification": { flowId: "2d8e4b17-90af-4c3e-b6d2-5e7f1a0c9b34", environment: "live" },
  "aml-screening": { flowId: "a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5", environment: "staging" },
} as const;

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The dispatcher's main() in this process, with this environment and its output captured. */
export async function cli(args: readonly string[], env: Record<string, string>): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
