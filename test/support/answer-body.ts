/**
 * The JSON bodies the tests read from the emulator and from the runtime's
 * webhook handler, as one declared shape, so a test's `answer.json.code` is
 * typed (a misspelt field or a ticket passed where a number goes fails tsc)
 * instead of `any`.
 *
 * Every field is typed as the answer that carries it sends it
 * (docs/service.md "Errors", "Sessions", "Steps and actions", "Data blocks").
 * A body carries only some of them; the shape is declared, not checked: a test
 * that reads a field its answer lacks gets `undefined`, and its expect fails
 * as it would on any other wrong answer.
 */

import type { FaultView, GeneratorErrorView, JournalEntry, WebhookRecord } from "../../emulator/index.js";

/** A file as a data block references it (docs/service.md "Files"). */
interface FileReference {
  readonly vaultEntryId: string;
  readonly filename: string;
  readonly mediaType: string;
  readonly size: number;
}

interface StepView {
  readonly stepType: string;
  readonly ticketId: string | null;
}

export interface AnswerBody {
  // An error (docs/service.md "Errors"); the runtime's webhook handler answers the same way.
  // Optional: tests tell an error from a success by it (`answer.json.code ?? answer.status`).
  readonly code?: string;
  readonly message: string;
  readonly errors: readonly { readonly path: string; readonly message: string }[];
  // The token endpoint.
  readonly access_token: string;
  // A created session, and a session read back.
  readonly sessionContext: { readonly sessionId: string };
  readonly playerUrl: string;
  readonly sessionStatus: string;
  readonly createdAt: string;
  readonly outcome?: { readonly decision: string; readonly decidedAt: string };
  // A step, and an action's answer.
  readonly stepType: string;
  readonly ticketId: string | null;
  readonly actions: readonly { readonly type: string; readonly schema: unknown }[];
  readonly result: string;
  readonly step: StepView;
  // Data blocks: the fixtures' signing flow is the one whose shape tests walk into.
  readonly dataBlocks: {
    readonly [block: string]: unknown;
    readonly documentsToSign: {
      readonly documents: readonly { readonly templateId: string; readonly source: FileReference }[];
    };
  };
  // Lists.
  readonly sessions: readonly { readonly sessionId: string }[];
  readonly flows: readonly { readonly id: string; readonly version: number }[];
  readonly flowVersion: number;
  // The emulator's control API (docs/emulator.md, "Control API").
  readonly id: string;
  readonly field?: string;
  readonly generator?: GeneratorErrorView;
  readonly faults: readonly FaultView[];
  readonly cleared: number;
  readonly requests: readonly JournalEntry[];
  readonly next: number;
  readonly webhooks: readonly WebhookRecord[];
  readonly previousVersion: number | null;
}

/**
 * The body parsed as JSON and typed as the declared shape. An empty or non-JSON
 * body is `undefined` at run time, as before the shape existed: a test reading a
 * field of it fails with a TypeError, and tests of such bodies read `text`.
 */
export function parseAnswerBody(text: string): AnswerBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return json as AnswerBody;
}
