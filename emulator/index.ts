/**
 * The emulator of the verification service: two loopback listeners
 * ({base_url} and {auth_url} are different hosts) serving the flows of a
 * codegen config through the generator's model, and a control API to shape
 * what they do (faults, journal, webhooks log, reset, new flow versions).
 * See docs/emulator.md.
 */
import type { Server } from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createApiServer } from "./api-server.js";
import { createAuthServer } from "./auth-server.js";
import { EmulatorControl } from "./control/controller.js";
import type { FaultInput } from "./control/fault-input.js";
import { controlMount } from "./control/routes.js";
import { endpoints } from "./endpoints.js";
import type { FaultView } from "./faults.js";
import { FileVault } from "./files.js";
import { findConfigOrThrow } from "../generator/index.js";
import { FlowCatalog, readConfiguredFlowsOrThrow, type Publication } from "./flow-catalog.js";
import type { JournalPage } from "./journal.js";
import { resolveOptions, type Credentials, type EmulatorOptions } from "./options.js";
import { playerEndpoints } from "./player/routes.js";
import { SessionStore } from "./sessions.js";
import { TokenStore } from "./tokens.js";
import { Traffic } from "./traffic.js";
import { watchAndReload, type ConfigWatch } from "./watch.js";
import type { WebhookRecord } from "./webhook-log.js";
import { sessionEndedEvent, WebhookSender } from "./webhooks.js";
import type { Environment } from "@flowsmith/runtime";

export type { EmulatorClock } from "./clock.js";
export type { ControlErrorCode, GeneratorErrorView } from "./control-error.js";
export { EmulatorControlError } from "./control-error.js";
export type { FaultInput } from "./control/fault-input.js";
export type { FaultView, HostName } from "./faults.js";
export type { Publication } from "./flow-catalog.js";
export type { JournalEntry, JournalPage } from "./journal.js";
export type { Credentials, EmulatedFlow, EmulatorOptions, FlowChange, Reload } from "./options.js";
export { EMULATOR_DEFAULTS } from "./options.js";
export { ACCEPTED_CODE, MAX_WRONG_CODES, OTP_STEP_TYPE } from "./otp-scenario.js";
export { SCENARIOS, type Scenario, type WebhookDelivery } from "./scenarios.js";
export type { WebhookFailure, WebhookFailureKind } from "./webhook-failure.js";
export type { WebhookAttempt, WebhookRecord } from "./webhook-log.js";

export interface RunningEmulator {
  /** {base_url}: the API host. */
  readonly baseUrl: string;
  /** {auth_url}: the token host. */
  readonly authUrl: string;
  /** The API clients it accepts, per environment. */
  readonly clients: Readonly<Record<Environment, Credentials>>;
  /** Stops both listeners, the watcher and pending webhooks, and removes stored files. */
  close(): Promise<void>;
  // The control API (docs/emulator.md, "Control API"), as methods; they work with the HTTP control API off too.
  /** POST /__emulator/faults. Throws EmulatorControlError (INVALID_FIELD, TOO_MANY_FAULTS). */
  addFault(fault: FaultInput): { readonly id: string };
  /** GET /__emulator/faults: the active faults. */
  faults(): FaultView[];
  /** DELETE /__emulator/faults. */
  clearFaults(): { readonly cleared: number };
  /** GET /__emulator/requests?since=: the journal from `since` on. */
  requests(since?: number): JournalPage;
  /** GET /__emulator/webhooks: each event, its webhook-id and every attempt. */
  webhooks(): WebhookRecord[];
  /** POST /__emulator/reset: sessions, tokens, journal, faults and pending webhooks cleared; flows kept. */
  reset(): void;
  /**
   * POST /__emulator/flows: a description (YAML or JSON text, or the document) published as a new version.
   * Throws EmulatorControlError (INVALID_FLOW; BODY_TOO_DEEP or BODY_KEY_NOT_A_NAME before the text is parsed).
   */
  publishFlow(description: string | Uint8Array | object): Publication;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  if (options.watch && options.flows)
    throw new RangeError("emulator option watch reloads the config's files: it cannot be used with flows");
  const configPath = options.flows ? undefined : await configPathOrThrow(options.configPath);
  const configured = configPath === undefined ? undefined : await readConfiguredFlowsOrThrow(configPath);
  const catalog = FlowCatalog.createOrThrow(options.flows ?? configured ?? []);
  const vault = await FileVault.create();
  const webhooks = new WebhookSender(resolved);
  const tokens = new TokenStore(resolved);
  const traffic = new Traffic(resolved.clock);
  const sessions = new SessionStore(resolved, {
    onEnd: (session) => {
      webhooks.notify(sessionEndedEvent(session), session.scenario.webhook);
    },
    onEvict: (session) => void vault.discard(session.files).catch(() => undefined),
  });
  const control = new EmulatorControl({ traffic, sessions, tokens, webhooks, catalog });
  let baseUrl = "";
  const services = {
    catalog,
    tokens,
    sessions,
    vault,
    redirectAllowlist: resolved.redirectAllowlist,
    baseUrl: () => baseUrl,
  };
  // The API's endpoints, then the hosted player's pages (also on {base_url}).
  const routes = [...endpoints, ...playerEndpoints];
  const api = createApiServer(
    services,
    traffic,
    routes,
    resolved.control ? controlMount(control, { token: resolved.controlToken, host: resolved.host }) : undefined,
  );
  const auth = createAuthServer(resolved, tokens, traffic);
  let watch: ConfigWatch | undefined;
  const stopAll = async (): Promise<void> => {
    traffic.endDelays();
    await Promise.all([stop(api), stop(auth), webhooks.close(), watch?.close()]);
    sessions.clear();
    await vault.close();
  };
  try {
    baseUrl = await listenOrThrow(api, resolved.host, resolved.apiPort);
    const authUrl = await listenOrThrow(auth, resolved.host, resolved.authPort);
    if (options.watch && configPath !== undefined)
      watch = await watchAndReload({ configPath, catalog, onReload: options.onReload ?? (() => undefined) });
    return {
      baseUrl,
      authUrl,
      clients: resolved.clients,
      close: stopAll,
      addFault: (fault) => control.addFault(fault),
      faults: () => control.faults(),
      clearFaults: () => control.clearFaults(),
      requests: (since) => control.requests(since),
      webhooks: () => control.webhooks(),
      reset: () => {
        control.reset();
      },
      publishFlow: (description) => control.publishFlow(description),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The config named, or the nearest codegen.config.json in the working directory or above it. */
function configPathOrThrow(given: string | undefined): Promise<string> {
  return given !== undefined ? Promise.resolve(path.resolve(given)) : findConfigOrThrow(process.cwd());
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
