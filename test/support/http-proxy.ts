/**
 * A small reverse proxy on loopback (node:http in, undici out), standing where
 * a load balancer or the network would: it counts what passes (token
 * requests at an auth host), can hold answers back (so concurrent first calls
 * really overlap) or answer itself (a 401 for a revoked token), and spreads
 * requests round-robin over several targets, each also copied to the next
 * target (a delivery duplicated to a second instance). Targets can be taken
 * out of the rotation (a health check that noticed a dead instance).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";

export interface ProxyOptions {
  /** Origins (`http://127.0.0.1:1234`) requests are forwarded to, round-robin. */
  readonly targets: readonly string[];
  /** Also send each request to the next target in the rotation (its answer is not passed back). */
  readonly duplicate?: boolean;
  /** Wait this long before forwarding. Default 0. */
  readonly delayMs?: number;
  /** Answer with this status instead of forwarding, when it returns one. */
  readonly answer?: (req: IncomingMessage) => number | undefined;
  /** Hold the request, unanswered, when it returns true (a server that hangs). */
  readonly hold?: (req: IncomingMessage, index: number) => boolean;
}

export interface RunningProxy {
  readonly url: string;
  /** Requests received, in order: method and path. */
  readonly received: { readonly method: string; readonly path: string }[];
  /** Puts a target into the rotation. */
  add(target: string): void;
  /** Takes a target out of the rotation. */
  remove(target: string): void;
  close(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const targets = [...options.targets];
  const received: RunningProxy["received"] = [];
  const dispatcher = new Agent();
  const held: IncomingMessage[] = [];
  let next = 0;

  const forward = async (target: string, req: IncomingMessage, body: Buffer) => {
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)),
    );
    const response = await request(`${target}${req.url ?? "/"}`, {
      method: req.method as "POST",
      headers: headers as Record<string, string>,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
      dispatcher,
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: Buffer.from(await response.body.arrayBuffer()),
    };
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const index = received.length;
      received.push({ method: req.method ?? "", path: req.url ?? "" });
      if (options.hold?.(req, index)) {
        held.push(req);
        return;
      }
      const own = options.answer?.(req);
      if (own !== undefined) {
        res.writeHead(own, { "content-type": "application/json" }).end(JSON.stringify({ status: own }));
        return;
      }
      const body = Buffer.concat(chunks);
      const live = targets.length;
      if (live === 0) {
        res.writeHead(502).end();
        return;
      }
      const primary = targets[next % live]!;
      const copy = options.duplicate && live > 1 ? targets[(next + 1) % live] : undefined;
      next += 1;
      void (async () => {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        if (copy !== undefined) void forward(copy, req, body).catch(() => undefined);
        try {
          const answer = await forward(primary, req, body);
          const headers = Object.fromEntries(
            Object.entries(answer.headers).filter(
              ([name]) => !["connection", "transfer-encoding", "keep-alive"].includes(name),
            ),
          );
          res.writeHead(answer.status, headers).end(answer.body);
        } catch {
          // The target is gone (killed): what a load balancer answers.
          res.writeHead(502).end();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    add: (target) => {
      targets.push(target);
    },
    remove: (target) => {
      const at = targets.indexOf(target);
      if (at !== -1 && targets.length > 1) targets.splice(at, 1);
    },
    close: async () => {
      for (const req of held) req.socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await dispatcher.close();
    },
  };
}
