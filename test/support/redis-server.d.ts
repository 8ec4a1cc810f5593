/** The types of redis-server.js (plain CommonJS, so the benchmarks and the consumer test use it too). */
export interface RunningRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops the server: an outage. */
  stop(): Promise<void>;
  /** Brings a stopped server back, empty, on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export function startRedis(): Promise<RunningRedis>;
