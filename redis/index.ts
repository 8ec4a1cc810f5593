/**
 * @flowsmith/redis: a flowsmith backend on many instances (docs/many-instances.md).
 * One access token for the fleet (createRedisTokenStore, ioredis), and webhooks
 * stored before they are acknowledged and handled by any worker of the fleet
 * (createWebhookQueue, BullMQ), as far as Redis keeps them: the queue checks
 * how Redis is set up and says what it may lose.
 */
export {
  createRedisTokenStore,
  REDIS_TOKEN_STORE_DEFAULTS,
  type RedisTokenStore,
  type RedisTokenStoreOptions,
} from "./token-store.js";
export { createWebhookQueue, type RedisWebhookQueue } from "./webhook-queue.js";
export { WEBHOOK_QUEUE_DEFAULTS, type FailedDelivery, type WebhookQueueOptions } from "./webhook-queue-options.js";
export {
  RedisSetupError,
  RedisStorageError,
  RedisUnavailableError,
  type RedisSetupCode,
  type RedisStorageCode,
} from "./errors.js";
export type { RedisTarget } from "./connection.js";
