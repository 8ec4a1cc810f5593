/**
 * What changed between two versions of a flow, as compare-flows.ts computes
 * it from the two flow models (never from text): one entry per change, each
 * marked breaking or compatible. The rules behind the marks are in
 * rules.ts; the human and JSON forms in format-text.ts and format-json.ts.
 */
import type { Environment, JsonValue } from "../model/types.js";

export type { JsonValue } from "../model/types.js";

/**
 * breaking: an existing call that was valid for the old version no longer
 * compiles or is refused (request side), or code reading the old response
 * type may no longer compile (response side). compatible: everything else
 * worth knowing.
 */
export type Severity = "breaking" | "compatible";

/**
 * Where an existing call first fails on a breaking change, once the client
 * has been regenerated:
 * - `tsc`: the generated types refuse it, a build-time error;
 * - `validator`: it compiles, but the pre-flight checks (the generated
 *   validator, file limits and media types) refuse it before anything is sent;
 * - `service`: it compiles and passes the checks, but a client built from the
 *   old description sends what the new flow version refuses (a moved part
 *   name, another path or body form). Regenerating fixes it; the deployed old
 *   client stays broken until then.
 */
export type CaughtBy = "tsc" | "validator" | "service";

/** Every kind of change, in the order docs/generating.md lists them ("What is breaking"). */
export const CHANGE_KINDS = [
  // The flow itself (location "").
  "flowId",
  "environment",
  "bodyForm",
  // Presence: a data block is a property of `input`, a field is any other property.
  "blockAdded",
  "blockRemoved",
  "fieldAdded",
  "fieldRemoved",
  "required",
  // The value of a field.
  "type",
  "nullable",
  "format",
  "enum",
  "locales",
  "default",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "additionalProperties",
  // Files and the wire.
  "maxBytes",
  "mediaTypes",
  "partName",
] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface FlowChange {
  readonly kind: ChangeKind;
  readonly severity: Severity;
  /** Set on breaking changes only. */
  readonly caughtBy?: CaughtBy;
  /**
   * Where, as the user writes the request: `input.basicIdentity.givenName`,
   * `input.documentsToSign.documents[].source` (`[]`: every element),
   * `input.profile.*` (any extra key), `input["odd-block"]`; response fields
   * start with `response`; "" is the flow itself.
   */
  readonly location: string;
  /** The old value; absent when there was none (a field added, a limit introduced). */
  readonly before?: JsonValue;
  /** The new value; absent when there is none (a field removed, a limit dropped). */
  readonly after?: JsonValue;
  /**
   * JSON pointers (`#/...`) of the schema in each document. For an added
   * field, `before` is the pointer of its parent in the old document; for a
   * removed one, `after` is its parent's in the new document.
   */
  readonly pointers: { readonly before: string; readonly after: string };
}

/** One side of a comparison: which document, which flow, which version. */
export interface FlowVersion {
  /** The description's path as given. */
  readonly file: string;
  /** sha256 (hex) of the description's bytes. */
  readonly sha256: string;
  readonly id: string;
  readonly environment: Environment;
  readonly version: number;
  /** info.version, as written. */
  readonly versionLabel: string;
  readonly title: string;
}

/** Everything that changed in one flow, changes sorted (see compare-flows.ts). */
export interface FlowChanges {
  /** The flow's name (config name or title in kebab-case), from the new model. */
  readonly name: string;
  readonly before: FlowVersion;
  readonly after: FlowVersion;
  readonly changes: readonly FlowChange[];
}

export function hasBreakingChange(flows: readonly FlowChanges[]): boolean {
  return flows.some((flow) => flow.changes.some((change) => change.severity === "breaking"));
}
