/**
 * `@flowsmith/runtime/flow-module`: what a generated flow module imports,
 * and nothing else (one subpath every generated file names). Not for
 * applications: it changes with the flowsmith that generated the code.
 */
export { createFlowSession } from "./create-session.js";
export type { BodyForm, FieldSpec, FlowSpec, PartName, PartSegment } from "./flow-spec.js";
export type { Client } from "./client.js";
export type { FileInput } from "./file-input.js";
export type { RequestOptions } from "./resources.js";
export type { Environment, Locale } from "./service-limits.js";
export type { JsonSchema } from "./validation/schema-check.js";
