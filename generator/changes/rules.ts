/**
 * When a change is breaking. Each rule was checked against what a
 * regenerated client does with a call written for the old version: the
 * generated types (emit/flow-types.ts, emit/schema-types.ts), the pre-flight
 * validator (model/json-schema.ts compiled by ajv) and the file checks of the
 * runtime, and the service behind them (docs/service.md 4.1, 7).
 *
 * Request side: breaking when some request valid for the old version is not
 * valid for the new one (the set of accepted values got narrower, or moved).
 * - A new required field or data block, optional → required, a removed
 *   field in a closed object (a removed optional field too: excess
 *   properties in an object literal fail to compile), a changed type,
 *   `nullable` dropped, an enum or locale list that lost a value or gained
 *   one where there was none: tsc.
 * - A removed field of an object open to extra keys
 *   (`additionalProperties: true`, JSON form only) is compatible: the old
 *   key is still accepted, as an extra key. `input` is the exception: its
 *   interface is always closed, so a removed data block fails to compile.
 * - number → integer: the TypeScript type stays `number`, the validator
 *   refuses fractions: validator.
 * - A tighter limit (maxLength, minLength, minimum, maximum, exclusive
 *   bounds, multipleOf, minItems, maxItems, file maxBytes, fewer accepted
 *   media types), a pattern added or changed (containment of regular
 *   expressions is not decided: any other pattern counts as narrower),
 *   a format added or changed: validator. A format the validator does not
 *   implement (model/json-schema.ts) is still assumed checked by the service.
 * - A moved part name, another flow id or body form: a client built from the
 *   old description sends what the new version refuses: service. Another
 *   environment changes `createSession`'s client type: tsc.
 * - Looser limits, widened enums and locales, new optional fields,
 *   required → optional, `nullable` added: compatible.
 * - A changed `default` is compatible but reported: callers that omit the
 *   field get another value.
 * - Not changes at all: description texts, titles, summaries, property order,
 *   enum order, the server URL (the client's baseUrl decides), which forms
 *   the description declares as long as the body form sent stays accepted.
 *
 * Response side (the 201 body, read by the caller): breaking when code
 * reading the old response type may no longer compile: a field removed,
 * required → optional, `nullable` added, a changed TypeScript type, an enum
 * that gained values (an exhaustive switch no longer is). Limits, formats and
 * patterns of the response appear in no generated type and nothing checks
 * them against the caller's code: compatible.
 */
import type { CaughtBy, ChangeKind, JsonValue, Severity } from "./types.js";

/**
 * How the set of values accepted at one place moved: narrower (some old
 * value is refused now), wider (every old value is still accepted, and
 * more), different (both), same (the set did not move: a part name, a default).
 */
export type Shift = "narrower" | "wider" | "different" | "same";

export type Side = "request" | "response";

/** A change as a comparator found it, before it is judged. */
export interface Delta {
  readonly kind: ChangeKind;
  readonly before?: JsonValue;
  readonly after?: JsonValue;
  /** On the request's accepted values. */
  readonly shift: Shift;
  /** Where an old request first fails when the shift narrows it. */
  readonly caughtBy: CaughtBy;
}

export interface Verdict {
  readonly severity: Severity;
  readonly caughtBy?: CaughtBy;
}

export function judge(side: Side, delta: Delta): Verdict {
  const breaking = side === "request" ? requestBreaks(delta) : responseBreaks(delta);
  if (!breaking) return { severity: "compatible" };
  return { severity: "breaking", caughtBy: side === "request" ? delta.caughtBy : "tsc" };
}

function requestBreaks(delta: Delta): boolean {
  return delta.shift === "narrower" || delta.shift === "different";
}

function responseBreaks(delta: Delta): boolean {
  switch (delta.kind) {
    case "fieldRemoved":
    case "blockRemoved":
      return true;
    case "required":
      return delta.before === true && delta.after === false;
    case "nullable":
      return delta.after === true;
    case "type":
      return delta.caughtBy === "tsc";
    case "enum":
    case "locales":
      return delta.shift === "wider" || delta.shift === "different";
    default:
      return false;
  }
}

/** An upper bound (maxLength, maximum, maxItems, maxBytes, ...); undefined = none. */
export function upperBoundShift(before: number | undefined, after: number | undefined): Shift {
  if (before === after) return "same";
  if (after === undefined) return "wider";
  if (before === undefined) return "narrower";
  return after < before ? "narrower" : "wider";
}

/** A lower bound (minLength, minimum, minItems, ...); undefined = none. */
export function lowerBoundShift(before: number | undefined, after: number | undefined): Shift {
  if (before === after) return "same";
  if (after === undefined) return "wider";
  if (before === undefined) return "narrower";
  return after > before ? "narrower" : "wider";
}

/** A set of allowed values; undefined = any value. Order does not count. */
export function setShift<T>(before: readonly T[] | undefined, after: readonly T[] | undefined): Shift {
  if (before === undefined && after === undefined) return "same";
  if (after === undefined) return "wider";
  if (before === undefined) return "narrower";
  const lost = before.some((value) => !after.includes(value));
  const gained = after.some((value) => !before.includes(value));
  if (lost && gained) return "different";
  return lost ? "narrower" : gained ? "wider" : "same";
}

/** A value that restricts when present (pattern, format): any other value counts as different. */
export function restrictionShift(before: string | undefined, after: string | undefined): Shift {
  if (before === after) return "same";
  if (after === undefined) return "wider";
  return before === undefined ? "narrower" : "different";
}

/** multipleOf: a divisor of the old one accepts every old value. */
export function multipleOfShift(before: number | undefined, after: number | undefined): Shift {
  if (before === after) return "same";
  if (after === undefined) return "wider";
  if (before === undefined) return "narrower";
  return Number.isInteger(before / after) ? "wider" : "narrower";
}
