/** The latest step read for each session, which submitAction validates against. */
import type { Step } from "./resources.js";

/** Sessions remembered at most; the oldest is forgotten first. */
const CAPACITY = 1000;

export class LatestSteps {
  private readonly steps = new Map<string, Step>();

  remember(sessionId: string, step: Step): void {
    // Re-inserting moves the session to the young end of the Map's order.
    this.steps.delete(sessionId);
    this.steps.set(sessionId, step);
    if (this.steps.size > CAPACITY) {
      const oldest = this.steps.keys().next().value;
      if (oldest !== undefined) this.steps.delete(oldest);
    }
  }

  latestOrUndefined(sessionId: string): Step | undefined {
    return this.steps.get(sessionId);
  }
}
