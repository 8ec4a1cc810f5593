/**
 * @flowsmith/redis: a flowsmith backend on many instances (docs/many-instances.md).
 * One access token for the fleet (createRedisTokenStore, ioredis) and every
 * webhook handled once and never lost (createWebhookQueue, BullMQ).
 */
export { createRedisTokenStore, REDIS_TOKEN_STORE_DEFAULTS, type RedisTokenStore, type RedisTokenStoreOptions } from "./token-store.js";
export {
  createWebhookQueue,
  WEBHOOK_QUEUE_DEFAULTS,
  type FailedDelivery,
  type RedisWebhookQueue,
  type WebhookQueueOptions,
} from "./webhook-queue.js";
export { RedisUnavailableError } from "./outage.js";
export type { RedisTarget } from "./connection.js";
