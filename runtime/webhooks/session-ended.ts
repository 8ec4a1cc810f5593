/**
 * What a webhook is processed into: the session it names, read from the
 * API. The handler does it in its own process; a queue's workers
 * (queue.ts) do it wherever they run.
 */
import { decisionOf } from "./event.js";
import type { SessionEnded, WebhookClient } from "./options.js";

/** How long the API may take to show the outcome a webhook announced, and how often it is asked meanwhile. */
export interface OutcomeWait {
  /** Give up after this long, with a TimeoutError. */
  readonly timeoutMs: number;
  /** Time between GET session polls. */
  readonly intervalMs: number;
}

/**
 * The session's record (once it shows an outcome) and data blocks, read
 * through `client`: what onSessionEnded receives. Rejects with the client's
 * error (a TimeoutError when the outcome does not show within `wait`).
 */
export async function readSessionEnded(
  client: WebhookClient,
  sessionId: string,
  webhookId: string | undefined,
  wait: OutcomeWait,
): Promise<SessionEnded> {
  const session = await client.waitForOutcome(sessionId, wait);
  const dataBlocks = await client.getDataBlocks(sessionId);
  return { sessionId, webhookId, session, decision: decisionOf(session), dataBlocks };
}
