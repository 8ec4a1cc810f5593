/**
 * Flow model A (the version a team's code was written for) against flow
 * model B (the new one): every change, judged breaking or compatible
 * (rules.ts), in a stable order. Computed from the models only, so two
 * descriptions that differ in text but not in meaning have no changes.
 */
import type { FlowModel } from "../model/types.js";
import { compareSchemas } from "./compare-schemas.js";
import { judge, type Delta } from "./rules.js";
import type { FlowChange, FlowChanges, FlowVersion } from "./types.js";

export function compareFlowModels(before: FlowModel, after: FlowModel): FlowChanges {
  const changes: FlowChange[] = [...flowLevelChanges(before, after)];
  const partsSent = before.bodyForm === "multipart" && after.bodyForm === "multipart";
  compareSchemas(
    { context: { side: "request", partsSent }, path: [], before: before.request, after: after.request },
    changes,
  );
  const response = {
    context: { side: "response", partsSent: false },
    path: [{ key: "response" }],
    before: before.response,
    after: after.response,
  } as const;
  compareSchemas(response, changes);
  return { name: after.name, before: versionOf(before), after: versionOf(after), changes: sortChanges(changes) };
}

function flowLevelChanges(before: FlowModel, after: FlowModel): FlowChange[] {
  const deltas: Delta[] = [];
  // Another id is another path: the old client posts to a flow that is not this one.
  if (before.id !== after.id)
    deltas.push({ kind: "flowId", before: before.id, after: after.id, shift: "different", caughtBy: "service" });
  // `createSession` takes a Client<environment>: a client of the old environment no longer fits.
  if (before.environment !== after.environment) {
    deltas.push({
      kind: "environment",
      before: before.environment,
      after: after.environment,
      shift: "different",
      caughtBy: "tsc",
    });
  }
  if (before.bodyForm !== after.bodyForm) {
    // A flow with files takes multipart only (docs/service.md 4.1); multipart
    // stays accepted as long as the new description still declares it.
    const stillAccepted = after.bodyForm === "json" && after.declaredBodyForms.includes(before.bodyForm);
    deltas.push({
      kind: "bodyForm",
      before: before.bodyForm,
      after: after.bodyForm,
      shift: stillAccepted ? "wider" : "different",
      caughtBy: "service",
    });
  }
  return deltas.map((delta) => ({
    kind: delta.kind,
    ...judge("request", delta),
    location: "",
    ...(delta.before !== undefined ? { before: delta.before } : {}),
    ...(delta.after !== undefined ? { after: delta.after } : {}),
    pointers: flowPointers(delta.kind, before, after),
  }));
}

function flowPointers(kind: FlowChange["kind"], before: FlowModel, after: FlowModel): FlowChange["pointers"] {
  if (kind === "flowId") return { before: "#/info/x-flow-id", after: "#/info/x-flow-id" };
  if (kind === "environment") return { before: "#/info/x-environment", after: "#/info/x-environment" };
  return { before: before.request.pointer, after: after.request.pointer };
}

function versionOf(model: FlowModel): FlowVersion {
  return {
    file: model.source.file,
    sha256: model.source.sha256,
    id: model.id,
    environment: model.environment,
    version: model.version,
    versionLabel: model.versionLabel,
    title: model.title,
  };
}

/**
 * The flow itself first, then the request, then the response; within each,
 * by location (UTF-16 code unit order, so a parent comes before its fields
 * and no locale decides), then kind.
 */
function sortChanges(changes: readonly FlowChange[]): FlowChange[] {
  const rank = (change: FlowChange) => (change.location === "" ? 0 : isResponse(change.location) ? 2 : 1);
  return [...changes].sort(
    (a, b) => rank(a) - rank(b) || compareText(a.location, b.location) || compareText(a.kind, b.kind),
  );
}

function isResponse(location: string): boolean {
  return location === "response" || location.startsWith("response.") || location.startsWith("response[");
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
