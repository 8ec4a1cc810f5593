/**
 * The webhook queue's own connection to Redis, and whether the queue may use
 * it now: connected, and the setup checked (redis-setup.ts). A delivery is
 * refused at once while Redis is known to be away (unreachable, or not
 * answering: after a command timed out, one PING at a time asks until it
 * answers) or set up to lose deliveries, instead of waiting out
 * enqueueTimeoutMs each time. Setup findings are said once per queue object;
 * a restart, each time.
 */
import type { Redis } from "ioredis";
import type { RedisSetupError } from "./errors.js";
import type { Outage } from "./outage.js";
import { readRedisSetup, setupFindings, type RedisSetup } from "./redis-setup.js";

export type ConnectionState =
  /** No answer yet: the first connection, or a check under way. */
  | { readonly kind: "connecting" }
  | { readonly kind: "usable" }
  /** Set up in a way the queue refuses (an eviction policy without allowEviction). */
  | { readonly kind: "refused"; readonly error: RedisSetupError }
  /** Unreachable, or not answering. */
  | { readonly kind: "down"; readonly cause: unknown };

export class QueueConnection {
  private current: ConnectionState = { kind: "connecting" };
  private lastSetup: RedisSetup | undefined;
  private readonly said = new Set<string>();
  private readonly waiting = new Set<() => void>();
  private readonly listeners: (() => void)[] = [];
  /** Bumped when the connection drops, so a check of the connection before is ignored. */
  private generation = 0;
  private probing = false;

  constructor(
    private readonly client: Redis,
    private readonly options: {
      readonly allowEviction: boolean;
      readonly outage: Outage;
      readonly report: (finding: RedisSetupError) => void;
      /** Each time the state changes. */
      readonly changed: (state: ConnectionState) => void;
    },
  ) {
    const on = (event: string, listener: (argument: unknown) => void): void => {
      client.on(event, listener);
      this.listeners.push(() => client.off(event, listener));
    };
    on("ready", () => void this.check());
    // An 'error' event without a listener would end the process; the outage is reported once through onError instead.
    on("error", (error: unknown) => {
      this.lost(error);
    });
    on("close", () => {
      this.lost(new Error("the connection closed"));
    });
    if (client.status === "ready") void this.check();
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** Resolves once the state is settled (usable, refused or down), or after `ms`. */
  async settled(ms: number): Promise<ConnectionState> {
    if (this.current.kind !== "connecting") return this.current;
    let timer: NodeJS.Timeout | undefined;
    let wake!: () => void;
    await new Promise<void>((resolve) => {
      wake = resolve;
      this.waiting.add(resolve);
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    this.waiting.delete(wake);
    return this.current;
  }

  /** Throws at once, or after `ms` at most, unless the queue may store a job now. */
  async usableOrThrow(ms: number): Promise<void> {
    const state = await this.settled(ms);
    if (state.kind === "usable") return;
    if (state.kind === "refused") throw state.error;
    throw this.options.outage.failed(
      state.kind === "down" ? state.cause : new Error(`Redis did not answer within ${ms} ms`),
    );
  }

  /** A command got no answer in time: Redis is taken as away until a PING answers. */
  unresponsive(cause: unknown): void {
    if (this.current.kind !== "usable") return;
    this.set({ kind: "down", cause });
    if (this.probing) return;
    this.probing = true;
    const generation = this.generation;
    this.client.ping().then(
      () => {
        this.probing = false;
        if (generation === this.generation && this.current.kind === "down") {
          this.options.outage.succeeded();
          this.set({ kind: "usable" });
        }
      },
      () => {
        this.probing = false;
      },
    );
  }

  /** Stops listening to the client (the caller closes it when it is the queue's own). */
  detach(): void {
    for (const remove of this.listeners.splice(0)) remove();
    this.generation += 1;
  }

  private lost(cause: unknown): void {
    this.options.outage.failed(cause);
    this.generation += 1;
    // A refusal stands until a check says otherwise; anything else is down until 'ready'.
    if (this.current.kind !== "refused") this.set({ kind: "down", cause });
  }

  private async check(): Promise<void> {
    const generation = ++this.generation;
    let setup: RedisSetup;
    try {
      setup = await readRedisSetup(this.client);
    } catch (error) {
      if (generation === this.generation) this.lost(error);
      return;
    }
    if (generation !== this.generation) return;
    const findings = setupFindings(setup, this.lastSetup, this.options.allowEviction);
    this.lastSetup = setup;
    for (const finding of findings) {
      const key = `${finding.code} ${finding.message}`;
      if (finding.code !== "REDIS_RESTARTED" && this.said.has(key)) continue;
      this.said.add(key);
      this.options.report(finding);
    }
    this.options.outage.succeeded();
    const refusal = findings.find((finding) => finding.refused);
    this.set(refusal ? { kind: "refused", error: refusal } : { kind: "usable" });
  }

  private set(state: ConnectionState): void {
    const before = this.current;
    this.current = state;
    if (state.kind !== "connecting") for (const wake of this.waiting) wake();
    if (before.kind !== state.kind) this.options.changed(state);
  }
}
