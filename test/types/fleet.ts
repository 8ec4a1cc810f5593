/**
 * Type-level tests of the store seams and @flowsmith/redis. Compiled by
 * `tsc -p tsconfig.json`; never run. Each `@ts-expect-error` must meet an error.
 */
import {
  createRedisTokenStore,
  createWebhookQueue,
  RedisSetupError,
  RedisStorageError,
  type FailedDelivery,
  type RedisSetupCode,
  type RedisStorageCode,
  type RedisWebhookQueue,
} from "../../redis/index.js";
import {
  createClient,
  createMemoryTokenStore,
  createWebhookHandler,
  type Client,
  type TokenStore,
  type WebhookQueue,
} from "../../runtime/index.js";

declare const staging: Client<"staging">;
const options = {
  baseUrl: "http://api",
  authUrl: "http://auth",
  environment: "staging",
  clientId: "id",
  clientSecret: "s",
  userAgent: "ua",
} as const;

// A Redis store, the in-memory one, or any object with the four operations.
createClient({ ...options, tokenStore: createRedisTokenStore({ redis: "redis://127.0.0.1:6379" }) });
createClient({ ...options, tokenStore: createMemoryTokenStore() });
// @ts-expect-error -- a store needs setIfAbsent and deleteIf too
createClient({ ...options, tokenStore: { get: () => Promise.resolve(undefined), set: () => Promise.resolve() } });
// @ts-expect-error -- a URL is not a store: createRedisTokenStore({ redis: url }) is
createClient({ ...options, tokenStore: "redis://127.0.0.1:6379" });

const queue: RedisWebhookQueue = createWebhookQueue({
  connection: "redis://127.0.0.1:6379",
  client: staging,
  onSessionEnded: ({ sessionId, decision }) => void [sessionId, decision],
  onError: (error: unknown, delivery: FailedDelivery | undefined) =>
    void [error, delivery?.jobId, delivery?.attemptsMade],
});
// The Redis queue is the runtime's WebhookQueue; the handler takes it instead of onSessionEnded.
export const seam: WebhookQueue = queue;
export const store: TokenStore = createRedisTokenStore({ redis: "redis://127.0.0.1:6379", leaseMs: 5_000 });
createWebhookHandler({ client: staging, secret: "whsec_c2VjcmV0", queue });
// @ts-expect-error a queue needs a secret too (or allowUnsigned: true): an unset variable is not one
createWebhookHandler({ client: staging, secret: process.env["WEBHOOK_SECRET"], queue });
// How Redis is set up is said through onError, typed; taking deliveries despite an eviction policy is asked for by name.
createWebhookQueue({
  connection: "redis://127.0.0.1:6379",
  client: staging,
  onSessionEnded: () => undefined,
  allowEviction: true,
  onError: (error) => {
    if (error instanceof RedisSetupError) void [error.code satisfies RedisSetupCode, error.refused satisfies boolean];
    if (error instanceof RedisStorageError) void (error.code satisfies RedisStorageCode);
  },
});
// @ts-expect-error not a setup code
export const badSetupCode: RedisSetupCode = "REDIS_EVICTED";
export const missingSession: string | undefined = ({} as FailedDelivery).sessionId;
// @ts-expect-error a failed delivery's session is unknown when its job's data is gone
export const certainSession: string = ({} as FailedDelivery).sessionId;
// @ts-expect-error -- onSessionEnded or queue, not both: with a queue its workers call their own
createWebhookHandler({ client: staging, queue, onSessionEnded: () => undefined });
// @ts-expect-error -- neither: nothing would handle a delivery
createWebhookHandler({ client: staging });
// @ts-expect-error -- the queue's connection is a redis:// URL or an ioredis client, not a port
createWebhookQueue({ connection: 6379, client: staging, onSessionEnded: () => undefined });
// @ts-expect-error -- the queue needs the callback its workers call
createWebhookQueue({ connection: "redis://127.0.0.1:6379", client: staging });
void queue.startWorker({ concurrency: 4 });
// @ts-expect-error -- concurrency is a number
void queue.startWorker({ concurrency: "4" });
