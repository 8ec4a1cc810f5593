/**
 * Scenarios per session, chosen by the test through `metadata.subjectId`, as
 * test card numbers choose outcomes elsewhere: a subject starting with one of
 * the prefixes below plays that script; every other subject plays the default
 * one (the OTP step of otp-scenario.ts). The scenario table of docs/emulator.md is this
 * table.
 */
import type { Decision } from "@flowsmith/runtime";

/** How the session-ended webhook of a session goes out. */
export type WebhookDelivery = "once" | "twice" | "late" | "never";

export interface Scenario {
  /** The subjectId prefix that chooses it; "" for the default. */
  readonly prefix: string;
  /** What the session does on its own: the OTP step (default), end with a decision, or stay at START. */
  readonly life:
    { readonly kind: "otp" } | { readonly kind: "ends"; readonly decision: Decision } | { readonly kind: "never-ends" };
  readonly webhook: WebhookDelivery;
}

const DEFAULT_SCENARIO: Scenario = { prefix: "", life: { kind: "otp" }, webhook: "once" };

const acceptedOnItsOwn = { kind: "ends", decision: "ACCEPTED" } as const;

/** In the order of docs/emulator.md's table. No prefix is the start of another, so the order decides nothing. */
export const SCENARIOS: readonly Scenario[] = [
  { prefix: "test_accepted", life: acceptedOnItsOwn, webhook: "once" },
  { prefix: "test_rejected", life: { kind: "ends", decision: "REJECTED" }, webhook: "once" },
  { prefix: "test_never_ends", life: { kind: "never-ends" }, webhook: "once" },
  { prefix: "test_webhook_duplicate", life: acceptedOnItsOwn, webhook: "twice" },
  { prefix: "test_webhook_late", life: acceptedOnItsOwn, webhook: "late" },
  { prefix: "test_webhook_lost", life: acceptedOnItsOwn, webhook: "never" },
];

export function scenarioOf(subjectId: string): Scenario {
  return SCENARIOS.find((scenario) => subjectId.startsWith(scenario.prefix)) ?? DEFAULT_SCENARIO;
}
