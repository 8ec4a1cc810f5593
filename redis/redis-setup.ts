/**
 * How Redis is set up, as far as the webhook queue's promises depend on it,
 * read each time the queue connects: whether Redis may evict the queue's
 * keys (maxmemory-policy), whether a restart keeps them (AOF, RDB
 * snapshots), and whether it restarted since the queue last saw it (run_id).
 * What the queue then says is `setupFindings`; docs/many-instances.md has the
 * table of what each setup guarantees.
 */
import type { Redis } from "ioredis";
import { RedisSetupError } from "./errors.js";

export interface RedisSetup {
  /** Changes on every start of the server. */
  readonly runId: string | undefined;
  readonly evictionPolicy: string | undefined;
  /** Appends every write to its log (appendonly yes). */
  readonly aof: boolean | undefined;
  /** Writes snapshots (a `save` rule); undefined when the server refuses CONFIG GET (some managed services). */
  readonly rdb: boolean | undefined;
}

/** INFO (server, memory, persistence) and CONFIG GET save; INFO is allowed where CONFIG is not, so only `rdb` may stay unknown. */
export async function readRedisSetup(redis: Redis): Promise<RedisSetup> {
  const [server, memory, persistence] = await Promise.all([
    redis.info("server"),
    redis.info("memory"),
    redis.info("persistence"),
  ]);
  const fields = infoFields(`${server}\n${memory}\n${persistence}`);
  let rdb: boolean | undefined;
  try {
    const answer = (await redis.config("GET", "save")) as unknown;
    rdb = Array.isArray(answer) && typeof answer[1] === "string" ? answer[1].trim() !== "" : undefined;
  } catch {
    rdb = undefined;
  }
  const aof = fields.get("aof_enabled");
  return {
    runId: fields.get("run_id"),
    evictionPolicy: fields.get("maxmemory_policy"),
    aof: aof === undefined ? undefined : aof === "1",
    rdb,
  };
}

function infoFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0 && !line.startsWith("#")) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

const WHAT = "flowsmith webhook queue";

/**
 * What the queue says about a setup: an eviction policy (refused unless
 * allowed), no persistence at all, and a restart that lost data. `previous`
 * is the setup read at the connection before, to notice a restart.
 */
export function setupFindings(
  setup: RedisSetup,
  previous: RedisSetup | undefined,
  allowEviction: boolean,
): RedisSetupError[] {
  const findings: RedisSetupError[] = [];
  const policy = setup.evictionPolicy;
  if (policy !== undefined && policy !== "noeviction") {
    const risk =
      `${WHAT}: Redis's maxmemory-policy is ${policy}, so once it reaches maxmemory it may evict the queue's keys: ` +
      "a delivery answered 204 can be lost, and a copy of a handled one handled again, with nothing more said";
    findings.push(
      allowEviction
        ? new RedisSetupError("REDIS_EVICTION_POLICY", `${risk}; taken as allowEviction: true says`, false)
        : new RedisSetupError(
            "REDIS_EVICTION_POLICY",
            `${risk}. The queue takes no delivery (each is answered 503, so its sender retries it) and starts no worker: ` +
              "set maxmemory-policy noeviction (redis.conf, or CONFIG SET), or accept the risk with createWebhookQueue({ allowEviction: true })",
            true,
          ),
    );
  }
  if (setup.aof === false && setup.rdb === false) {
    findings.push(
      new RedisSetupError(
        "REDIS_NOT_PERSISTENT",
        `${WHAT}: Redis writes neither an append-only file (appendonly) nor snapshots (save), so a Redis restart loses every delivery ` +
          "waiting or waiting for a retry (each already answered 204), the failed set, and the memory of handled webhook-ids " +
          "(a copy of a handled delivery is then handled again): set appendonly yes to keep them",
        false,
      ),
    );
  }
  const restarted = previous?.runId !== undefined && setup.runId !== undefined && previous.runId !== setup.runId;
  if (restarted && setup.aof !== true) {
    const lost =
      setup.rdb === false
        ? "every delivery it held is gone"
        : "every delivery stored after its last snapshot may be gone";
    findings.push(
      new RedisSetupError(
        "REDIS_RESTARTED",
        `${WHAT}: Redis restarted without an append-only file: ${lost}, each already answered 204; ` +
          "reconcile the sessions that ended meanwhile through the API",
        false,
      ),
    );
  }
  return findings;
}
