/** The types of redis-server.js (plain CommonJS, so the benchmarks and the consumer test use it too). */
export interface RunningRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops the server: an outage. */
  stop(): Promise<void>;
  /** Brings a stopped server back on the same port: empty, or with what its append-only file or snapshot kept. */
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Unfreezes it (SIGCONT). */
  resume(): void;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** `config`: redis-server settings (`--name value`) over the defaults (persistence off, maxmemory-policy noeviction). */
export function startRedis(options?: { readonly config?: Readonly<Record<string, string>> }): Promise<RunningRedis>;
