/**
 * What the control API does, as methods: the handle of startEmulator has
 * them, and the HTTP routes (routes.ts) call them. Input from either is
 * checked here, so both refuse the same things with the same words.
 */
import { CodegenError, loadFlowFromTextOrThrow } from "../../generator/index.js";
import { MAX_FAULTS, type FaultView } from "../faults.js";
import type { FlowCatalog, Publication } from "../flow-catalog.js";
import type { JournalPage } from "../journal.js";
import type { SessionStore } from "../sessions.js";
import type { TokenStore } from "../tokens.js";
import type { Traffic } from "../traffic.js";
import type { WebhookRecord } from "../webhook-log.js";
import type { WebhookSender } from "../webhooks.js";
import { EmulatorControlError, invalidField } from "../control-error.js";
import { checkBodyShapeInTurnsOrThrow, checkBodyShapeOrThrow } from "./body-shape.js";
import { faultSpecOrThrow, type FaultInput } from "./fault-input.js";

export interface ControlTargets {
  readonly traffic: Traffic;
  readonly sessions: SessionStore;
  readonly tokens: TokenStore;
  readonly webhooks: WebhookSender;
  readonly catalog: FlowCatalog;
}

/** How a published description is named in the generator's messages. */
const PUBLISHED_DISPLAY = "published description";

export class EmulatorControl {
  constructor(private readonly targets: ControlTargets) {}

  /** Applies to the next `times` matching requests; answers its id. */
  addFault(input: FaultInput): { readonly id: string } {
    const spec = faultSpecOrThrow(input);
    const { faults } = this.targets.traffic;
    if (faults.size >= MAX_FAULTS) {
      throw new EmulatorControlError(
        "TOO_MANY_FAULTS",
        `at most ${String(MAX_FAULTS)} faults are active at once; DELETE /__emulator/faults clears them`,
      );
    }
    return { id: faults.add(spec).id };
  }

  /** The active faults, each with the requests it still applies to. */
  faults(): FaultView[] {
    return this.targets.traffic.faults.list();
  }

  /** Answers how many were active. */
  clearFaults(): { readonly cleared: number } {
    return { cleared: this.targets.traffic.faults.clear() };
  }

  /** The journal from index `since` on (default: all it keeps). */
  requests(since: number = 0): JournalPage {
    if (!Number.isSafeInteger(since) || since < 0)
      throw invalidField(
        "since",
        `must be a whole number >= 0 (the "next" of the previous read), got ${String(since)}`,
      );
    return this.targets.traffic.journal.read(since);
  }

  webhooks(): WebhookRecord[] {
    return this.targets.webhooks.log.list();
  }

  /** Sessions (and their files), tokens, journal, faults and pending webhooks cleared; flows kept. */
  reset(): void {
    const { traffic, sessions, tokens, webhooks } = this.targets;
    traffic.faults.clear();
    traffic.endDelays();
    traffic.journal.clear();
    webhooks.reset();
    sessions.clear();
    tokens.clear();
  }

  /**
   * A description (YAML or JSON text, or the parsed document) published as
   * the dashboard would publish a new version: it replaces the version of its
   * flow id and environment; sessions already created keep theirs. A text
   * nested too deep, or with a key that is no name, is refused before it is
   * parsed (body-shape.ts).
   */
  publishFlow(description: string | Uint8Array | object): Publication {
    const text = descriptionTextOrThrow(description);
    checkBodyShapeOrThrow(typeof text === "string" ? text : new TextDecoder().decode(text));
    return this.publishChecked(text);
  }

  /** publishFlow for a body read over HTTP: its shape is checked in turns, so other requests are served meanwhile. */
  async publishFlowInTurns(body: Uint8Array): Promise<Publication> {
    await checkBodyShapeInTurnsOrThrow(new TextDecoder().decode(body));
    return this.publishChecked(body);
  }

  private publishChecked(text: string | Uint8Array): Publication {
    let loaded;
    try {
      loaded = loadFlowFromTextOrThrow(text, PUBLISHED_DISPLAY);
    } catch (error) {
      if (error instanceof CodegenError) {
        const { pointer, line } = error.context;
        throw new EmulatorControlError(
          "INVALID_FLOW",
          `not published: ${error.message}`,
          {
            generator: {
              code: error.code,
              message: error.message,
              ...(pointer !== undefined ? { pointer } : {}),
              ...(line !== undefined ? { line } : {}),
            },
          },
          { cause: error },
        );
      }
      throw error;
    }
    return this.targets.catalog.publish({ model: loaded.model, document: loaded.description.document });
  }
}

function descriptionTextOrThrow(description: string | Uint8Array | object): string | Uint8Array {
  if (typeof description === "string" || description instanceof Uint8Array) return description;
  try {
    // A document nested too deep to write (RangeError) or with a cycle (TypeError) is no description.
    return JSON.stringify(description);
  } catch {
    throw invalidField("description", "must be YAML or JSON text, or a JSON-serializable document");
  }
}
