/**
 * Placeholder for the generated `validate.ts` beside a flow module, so that
 * templates/flow-module.ts type-checks. The emitter writes ajv standalone
 * code compiled from the flow's request schema in its place.
 */
import type { RequestValidator } from "@flowsmith/runtime";

export const validate: RequestValidator = () => true;
