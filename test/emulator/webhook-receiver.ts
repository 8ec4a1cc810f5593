/**
 * A webhook receiver for the emulator's deliveries: a node:http server on
 * loopback that answers with the statuses it is given (then 204), and hands
 * each request to the test as it arrives.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { WebhookRecord } from "../../emulator/index.js";

export interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
}

export class Receiver {
  readonly server: Server;
  private readonly arrived: Delivery[] = [];
  private readonly waiting: ((delivery: Delivery) => void)[] = [];
  statuses: number[] = [];

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        res.writeHead(this.statuses.shift() ?? 204).end();
        const delivery = { headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") };
        const waiter = this.waiting.shift();
        if (waiter) waiter(delivery);
        else this.arrived.push(delivery);
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** The next delivery attempt (jest's timeout bounds the wait). */
  next(): Promise<Delivery> {
    const ready = this.arrived.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => this.waiting.push(resolve));
  }

  get unread(): number {
    return this.arrived.length;
  }

  /** Closes at once: a connection the emulator left open would hold server.close() for seconds. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => {
        resolve();
      });
      this.server.closeAllConnections();
    });
  }
}

/** The session's event in the emulator's webhook log (the handle's, or one read over HTTP) once no attempt is still to come: a bounded wait for the emulator to hear the last answer. */
export async function settledWebhook(
  emulator: { webhooks(): WebhookRecord[] | Promise<WebhookRecord[]> },
  sessionId: string,
): Promise<WebhookRecord> {
  for (let tries = 0; tries < 500; tries++) {
    const event = (await emulator.webhooks()).find((candidate) => candidate.sessionId === sessionId);
    if (event && !event.pending) return event;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the webhook of session ${sessionId} is still pending after 5 s`);
}
