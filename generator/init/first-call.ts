/**
 * The snippet `flowsmith init` prints: a first call of a generated flow, for
 * a file beside the config (`first-call.mts`). The request holds every
 * required field with a value its type accepts (the first enum member, the
 * default, a date for `format: date`, a file read from disk), so it compiles
 * under strict as printed. Names and values from the description reach it
 * only through the emitter's escaping (emit/escape.ts), as in generated code.
 */
import { bindingName, codeStringLiteral, numberLiteral, propertyKey } from "../emit/escape.js";
import type { FlowModel, ObjectSchema, Schema } from "../model/types.js";

/** `importPath`: the flow module from the snippet's file, `./src/generated/<name>/index.js`. */
export function firstCallSnippet(model: FlowModel, importPath: string): string {
  const binding = bindingName(model.name, "flow");
  const env = model.environment.toUpperCase();
  const body = objectLines(model.request, "  ");
  const usesFile = body.some((line) => line.includes("fileFromPath("));
  return [
    `import { createClient${usesFile ? ", fileFromPath" : ""} } from "@flowsmith/runtime";`,
    `import * as ${binding} from ${codeStringLiteral(importPath)};`,
    "",
    `const client = createClient({ environment: ${codeStringLiteral(model.environment)}, userAgent: "my-app/1.0",`,
    `  baseUrl: process.env.FLOWSMITH_BASE_URL!, authUrl: process.env.FLOWSMITH_AUTH_URL!,`,
    `  clientId: process.env.FLOWSMITH_${env}_CLIENT_ID!, clientSecret: process.env.FLOWSMITH_${env}_CLIENT_SECRET! });`,
    `const session = await ${binding}.createSession(client, {`,
    ...body,
    "});",
    'console.log(session.sessionContext.sessionId, session.playerUrl);',
    "await client.close();",
  ].join("\n");
}

/** The request's required fields, one top-level field a line; `input` on one line when it is short, else a data block a line. */
function objectLines(request: ObjectSchema, indent: string): string[] {
  const lines = objectLinesLong(request, indent);
  const start = lines.findIndex((line) => line === `${indent}input: {`);
  const end = lines.indexOf(`${indent}},`, start);
  if (start < 0 || end < 0) return lines;
  const short = `${indent}input: { ${lines.slice(start + 1, end).map((line) => line.trim()).join(" ").replace(/,$/, "")} },`;
  return short.length <= 100 ? [...lines.slice(0, start), short, ...lines.slice(end + 1)] : lines;
}

function objectLinesLong(request: ObjectSchema, indent: string): string[] {
  const lines: string[] = [];
  for (const property of request.properties.filter((p) => p.required)) {
    const key = propertyKey(property.name);
    if (property.name === "input" && property.schema.kind === "object" && property.schema.properties.some((p) => p.required)) {
      lines.push(`${indent}${key}: {`);
      for (const block of property.schema.properties.filter((p) => p.required)) {
        lines.push(`${indent}  ${propertyKey(block.name)}: ${valueOf(block.schema, block.name)},`);
      }
      lines.push(`${indent}},`);
    } else {
      lines.push(`${indent}${key}: ${property.name === "metadata" ? '{ subjectId: "user-42" }' : valueOf(property.schema, property.name)},`);
    }
  }
  return lines;
}

/** A value the field's type accepts (and, where the schema says enough, its validator too). */
function valueOf(schema: Schema, name: string): string {
  switch (schema.kind) {
    case "string": {
      if (schema.enum?.[0] !== undefined) return codeStringLiteral(schema.enum[0]);
      if (typeof schema.default === "string") return codeStringLiteral(schema.default);
      const formatted = FORMAT_EXAMPLES[schema.format ?? ""];
      if (formatted !== undefined) return codeStringLiteral(formatted);
      const text = "example".padEnd(schema.minLength ?? 0, "-").slice(0, Math.max(schema.maxLength ?? 7, 1));
      return codeStringLiteral(text);
    }
    case "number":
      if (schema.enum?.[0] !== undefined) return numberLiteral(schema.enum[0]);
      if (typeof schema.default === "number") return numberLiteral(schema.default);
      if (schema.minimum !== undefined) return numberLiteral(schema.minimum);
      return numberLiteral(schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : (schema.maximum ?? 1) >= 1 ? 1 : 0);
    case "boolean":
      return String(schema.enum?.[0] ?? (typeof schema.default === "boolean" ? schema.default : true));
    case "file":
      return `await fileFromPath(${codeStringLiteral(schema.mediaTypes.every((type) => type.startsWith("image/")) && schema.mediaTypes.length > 0 ? "photo.jpg" : "document.pdf")})`;
    case "array": {
      const count = Math.min(Math.max(schema.minItems ?? 1, 1), 8);
      return `[${Array.from({ length: count }, () => valueOf(schema.items, name)).join(", ")}]`;
    }
    case "object": {
      const fields = schema.properties.filter((p) => p.required).map((p) => `${propertyKey(p.name)}: ${valueOf(p.schema, p.name)}`);
      return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
    }
  }
}

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  date: "1990-01-31",
  "date-time": "2026-01-31T12:00:00Z",
  uri: "https://example.test/",
  email: "user@example.test",
};
