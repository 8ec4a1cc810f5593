/**
 * The emulator of the verification service: two loopback listeners
 * ({base_url} and {auth_url} are different hosts) serving the flows of a
 * codegen config through the generator's model. See the README, section Emulator.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiServer } from "./api-server.js";
import { createAuthServer } from "./auth-server.js";
import { FileVault } from "./files.js";
import { FlowCatalog } from "./flow-catalog.js";
import { resolveOptions, type Credentials, type EmulatorOptions } from "./options.js";
import { SessionStore } from "./sessions.js";
import { TokenStore } from "./tokens.js";
import { sessionEndedEvent, WebhookSender } from "./webhooks.js";
import type { Environment } from "@flowsmith/runtime";

export type { EmulatorClock } from "./clock.js";
export type { Credentials, EmulatedFlow, EmulatorOptions } from "./options.js";
export { EMULATOR_DEFAULTS } from "./options.js";
export { ACCEPTED_CODE, MAX_WRONG_CODES, OTP_STEP_TYPE } from "./otp-scenario.js";

export interface RunningEmulator {
  /** {base_url}: the API host. */
  readonly baseUrl: string;
  /** {auth_url}: the token host. */
  readonly authUrl: string;
  /** The API clients it accepts, per environment. */
  readonly clients: Readonly<Record<Environment, Credentials>>;
  /** Stops both listeners and pending webhooks, and removes stored files. */
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const catalog = await FlowCatalog.loadOrThrow(options);
  const vault = await FileVault.create();
  const webhooks = new WebhookSender(resolved);
  const tokens = new TokenStore(resolved);
  const sessions = new SessionStore(resolved, {
    onEnd: (session) => {
      webhooks.notify(sessionEndedEvent(session));
    },
    onEvict: (session) => void vault.discard(session.files).catch(() => undefined),
  });
  let baseUrl = "";
  const api = createApiServer({ catalog, tokens, sessions, vault, redirectAllowlist: resolved.redirectAllowlist, baseUrl: () => baseUrl });
  const auth = createAuthServer(resolved, tokens);
  try {
    baseUrl = await listenOrThrow(api, resolved.host, resolved.apiPort);
    const authUrl = await listenOrThrow(auth, resolved.host, resolved.authPort);
    return {
      baseUrl,
      authUrl,
      clients: resolved.clients,
      close: async () => {
        await Promise.all([stop(api), stop(auth), webhooks.close()]);
        await vault.close();
      },
    };
  } catch (error) {
    await Promise.all([stop(api), stop(auth)]);
    await vault.close();
    throw error;
  }
}

function listenOrThrow(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve(`http://${shownHost}:${address.port}`);
    });
  });
}

function stop(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => {
      resolve();
    });
    // Keep-alive connections would hold close() open.
    server.closeAllConnections();
  });
}
