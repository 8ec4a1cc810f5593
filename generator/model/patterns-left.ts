/**
 * The patterns of a flow that its client leaves to the service: those the
 * linear-time engine cannot run (a lookahead, a backreference), which the
 * model keeps with the reason (StringSchema.patternLeftToService). The run's
 * report names each one's field and reason.
 */
import type { FlowModel, Schema } from "./types.js";

export interface PatternLeftToService {
  /** Where the field sits in the request or response (`request.input.basicIdentity.iban`). */
  readonly field: string;
  /** The pattern's JSON pointer in the description. */
  readonly pointer: string;
  readonly pattern: string;
  readonly reason: string;
}

export function patternsLeftToService(model: FlowModel): PatternLeftToService[] {
  const found: PatternLeftToService[] = [];
  walk(model.request, "request", found);
  walk(model.response, "response", found);
  return found;
}

function walk(schema: Schema, field: string, found: PatternLeftToService[]): void {
  switch (schema.kind) {
    case "string":
      if (schema.pattern !== undefined && schema.patternLeftToService !== undefined) {
        found.push({
          field,
          pointer: `${schema.pointer}/pattern`,
          pattern: schema.pattern,
          reason: schema.patternLeftToService,
        });
      }
      return;
    case "array":
      walk(schema.items, `${field}[]`, found);
      return;
    case "object":
      for (const property of schema.properties)
        walk(
          property.schema,
          `${field}${/^[A-Za-z_$][\w$]*$/.test(property.name) ? `.${property.name}` : `[${JSON.stringify(property.name)}]`}`,
          found,
        );
      if (typeof schema.additionalProperties !== "boolean") walk(schema.additionalProperties, `${field}[*]`, found);
      return;
    default:
      return;
  }
}
