/**
 * The generator as other parts of flowsmith see it: the flows of a config as
 * models, the model's types, the uniqueness rules, and the watch of a config
 * and its descriptions. The emulator imports only this module, so a flow's
 * rules are read one way everywhere.
 */
export { loadFlowFromTextOrThrow, loadFlowsOrThrow } from "./load-flows.js";
export { CodegenError } from "./errors.js";
export { findConfigOrThrow } from "./config/load-config.js";
export { watchConfig, type ConfigWatch } from "./config-watch.js";
export { toJsonSchema, type JsonSchema } from "./model/json-schema.js";
export { checkOneVersionPerFlowOrThrow } from "./unique-flows.js";
export { hasFile } from "./model/request-body.js";
export type { FlowModel, ObjectSchema, PartName, Schema } from "./model/types.js";
