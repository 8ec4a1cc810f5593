/**
 * Flow changes for people: per flow a header (title, id, environment,
 * version from → to, counts), then one line per change:
 *
 *   breaking    input.basicIdentity.birthDate  optional → required  [tsc]
 *
 * Text from a description (names, enum values, patterns) is shown quoted
 * when it is not a plain token, so a line is always one line and no control
 * character reaches the terminal.
 */
import type { JsonValue } from "../model/types.js";
import { jsonText, plain } from "./location.js";
import type { FlowChange, FlowChanges } from "./types.js";

const MAX_LOCATION_COLUMN = 48;

/** The lines for one flow, without trailing newlines. */
export function formatFlowChanges(flow: FlowChanges): string[] {
  const width = Math.min(
    MAX_LOCATION_COLUMN,
    Math.max(0, ...flow.changes.map((change) => shownLocation(change).length)),
  );
  const lines = flow.changes.map((change) => {
    const mark = change.severity.padEnd("compatible".length);
    const tag = change.caughtBy ? `  [${change.caughtBy}]` : "";
    return `  ${mark}  ${shownLocation(change).padEnd(width)}  ${describeChange(change)}${tag}`;
  });
  return [header(flow), ...(lines.length > 0 ? lines : ["  no changes to the request or the response"])];
}

function header(flow: FlowChanges): string {
  const { before, after } = flow;
  const breaking = flow.changes.filter((change) => change.severity === "breaking").length;
  const compatible = flow.changes.length - breaking;
  const environment =
    before.environment === after.environment ? after.environment : `${before.environment} → ${after.environment}`;
  const id = before.id === after.id ? after.id : `${before.id} → ${after.id}`;
  const versions = `v${String(before.version)} → v${String(after.version)}`;
  return `${plain(after.title)} (flow ${plain(id)}, ${environment}) ${versions}: ${String(breaking)} breaking, ${String(compatible)} compatible`;
}

function shownLocation(change: FlowChange): string {
  // Locations are one line already: location.ts quotes odd keys.
  return change.location === "" ? "(flow)" : change.location;
}

function describeChange(change: FlowChange): string {
  const { before, after } = change;
  switch (change.kind) {
    case "blockAdded":
      return `data block added (${presence(after)})`;
    case "blockRemoved":
      return `data block removed (was ${presence(before)})`;
    case "fieldAdded":
      return `field added (${presence(after)})`;
    case "fieldRemoved":
      return `field removed (was ${presence(before)})`;
    case "required":
      return after === true ? "optional → required" : "required → optional";
    case "nullable":
      return after === true ? "now nullable" : "no longer nullable";
    case "enum":
      return `enum ${list(before, value)} → ${list(after, value)}${setNote(before, after, value)}`;
    case "locales":
      return `locales ${list(before, token)} → ${list(after, token)}${setNote(before, after, token)}`;
    case "mediaTypes":
      return `media types ${list(before, token, "any")} → ${list(after, token, "any")}`;
    case "additionalProperties":
      return `extra keys ${word(before)} → ${word(after)}`;
    case "flowId":
      return `flow id ${token(before)} → ${token(after)}`;
    case "bodyForm":
      return `body form ${word(before)} → ${word(after)}`;
    case "partName":
      return `part name ${value(before)} → ${value(after)}`;
    case "type":
    case "environment":
      return `${change.kind} ${word(before)} → ${word(after)}`;
    default:
      // Limits, format, pattern, default: the keyword and both values, "none" where absent.
      return `${change.kind} ${before === undefined ? "none" : value(before)} → ${after === undefined ? "none" : value(after)}`;
  }
}

function presence(summary: JsonValue | undefined): string {
  const { type, required } = (summary ?? {}) as { type?: string; required?: boolean };
  return `${type ?? "?"}, ${required ? "required" : "optional"}`;
}

/** Listed values; absent means no restriction (`any`, or none for an enum). */
function list(values: JsonValue | undefined, show: (value: JsonValue) => string, absent = "none"): string {
  if (!Array.isArray(values) || values.length === 0) return absent;
  return values.map(show).join(", ");
}

function setNote(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  show: (value: JsonValue) => string,
): string {
  if (!Array.isArray(before) || !Array.isArray(after)) return "";
  const removed = before.filter((item) => !after.includes(item));
  const added = after.filter((item) => !before.includes(item));
  const notes = [
    ...(removed.length > 0 ? [`removed ${removed.map(show).join(", ")}`] : []),
    ...(added.length > 0 ? [`added ${added.map(show).join(", ")}`] : []),
  ];
  return notes.length > 0 ? ` (${notes.join("; ")})` : "";
}

/** A value as JSON (strings quoted), on one line. */
function value(item: JsonValue | undefined): string {
  return item === undefined ? "none" : jsonText(item);
}

/** A name the model chose (a type, a body form, an environment) as is. */
function word(item: JsonValue | undefined): string {
  return typeof item === "string" ? item : value(item);
}

/** A plain token (locale, media type, id) bare; anything else quoted. */
function token(item: JsonValue | undefined): string {
  return typeof item === "string" && /^[\w./+\-:]+$/.test(item) ? item : value(item);
}
