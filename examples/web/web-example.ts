/**
 * Starts the web example: its node:http server on loopback, the emulator
 * in-process (webhooks signed and sent to the example, redirects allowed
 * only back to its /return), and the client both use.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@flowsmith/runtime";
import { startEmulator } from "flowsmith/emulator";
import { createApp, RETURN_PATH, WEBHOOK_PATH } from "./app.js";

export interface WebExampleOptions {
  /** Default "127.0.0.1". */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** The emulator's session timings in ms (how long CREATED and each waiting step last). Default: the emulator's (300). */
  readonly createdMs?: number;
  readonly stepMs?: number;
  /** The clock of redirect states, in ms since the epoch. Default Date.now. */
  readonly now?: () => number;
}

export interface RunningWebExample {
  /** Open this in a browser. */
  readonly url: string;
  /** The emulator's API host ({base_url}). */
  readonly emulatorUrl: string;
  close(): Promise<void>;
}

export async function startWebExample(options: WebExampleOptions = {}): Promise<RunningWebExample> {
  // The emulator needs this server's URL (webhooks, allowlist) and the app needs the emulator:
  // listen first, handle requests once wired (nobody has the URL before).
  const server = createServer();
  const url = await listen(server, options.host ?? "127.0.0.1", options.port ?? 0);
  // Fresh secrets per run; a real app reads them from its secret store.
  const webhookSecret = `whsec_${randomBytes(32).toString("base64")}`;
  const stateSecret = randomBytes(32);
  const emulator = await startEmulator({
    webhookUrl: `${url}${WEBHOOK_PATH}`,
    webhookSecret,
    redirectAllowlist: [`${url}${RETURN_PATH}`],
    ...(options.createdMs !== undefined && { createdMs: options.createdMs }),
    ...(options.stepMs !== undefined && { stepMs: options.stepMs }),
  }).catch(async (error: unknown) => {
    await stop(server);
    throw error;
  });
  const client = createClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    environment: "staging",
    ...emulator.clients.staging,
    userAgent: "flowsmith-web-example/1.0",
  });
  const app = createApp({
    client,
    url,
    playerOrigin: new URL(emulator.baseUrl).origin,
    stateSecret,
    webhookSecret,
    now: options.now ?? Date.now,
  });
  server.on("request", app.handle);
  return {
    url,
    emulatorUrl: emulator.baseUrl,
    close: async () => {
      // Deliveries accepted are still read from the API: let them finish before the emulator goes.
      const closed = stop(server);
      await app.drain();
      await emulator.close();
      await client.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const { address, family, port: bound } = server.address() as AddressInfo;
      resolve(`http://${family === "IPv6" ? `[${address}]` : address}:${String(bound)}`);
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => {
      resolve();
    });
    // Browsers keep idle connections open; they would hold close() for minutes.
    server.closeIdleConnections();
  });
}
