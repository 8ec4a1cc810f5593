/**
 * Placeholder for the generated `validate.ts` beside a flow module, so that
 * templates/flow-module.ts type-checks. The emitter writes ajv standalone
 * code in its place: `validate` compiled from the flow's request schema,
 * `validateResponse` from its 201 response schema.
 */
import type { RequestValidator } from "@flowsmith/runtime";

export const validate: RequestValidator = () => true;
export const validateResponse: RequestValidator = () => true;
