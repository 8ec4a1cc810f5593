/**
 * The first call `flowsmith init` prints, for a file beside the config
 * (`first-call.mts`), in the README's quick start style: `createClient({...})`
 * with a key a line, then `<flow>.createSession(client, {...})` through the
 * output's index.ts. The request holds every required field with a value its
 * type accepts (the first enum member, the default, a date for `format: date`,
 * a file read from disk), so it compiles under strict as printed. Names and
 * values from the description reach it only through the emitter's escaping
 * (emit/escape.ts), as in generated code.
 */
import { bindingName, codeStringLiteral, numberLiteral, propertyKey } from "../emit/escape.js";
import type { FlowModel, ObjectSchema, Schema } from "../model/types.js";

export interface FirstCall {
  /** The module's text, without a final newline. */
  readonly code: string;
  /** The files it reads from disk (a flow that takes files), to put beside it. */
  readonly reads: readonly string[];
}

/**
 * `flow`: a flow generated whose namespace in index.ts is its own binding
 * name (hasOwnNamespace); `indexPath`: the output's index.ts from the
 * snippet's file, `./src/generated/index.js`.
 */
export function firstCall(flow: FlowModel, indexPath: string): FirstCall {
  const binding = bindingName(flow.name, "flow");
  const env = flow.environment.toUpperCase();
  const reads = new Set<string>();
  const body = objectLines(flow.request, "  ", reads);
  const code = [
    `import { createClient${reads.size > 0 ? ", fileFromPath" : ""} } from "@flowsmith/runtime";`,
    `import { ${binding} } from ${codeStringLiteral(indexPath)};`,
    "",
    "const client = createClient({",
    "  baseUrl: process.env.FLOWSMITH_BASE_URL!,",
    "  authUrl: process.env.FLOWSMITH_AUTH_URL!,",
    `  environment: ${codeStringLiteral(flow.environment)},`,
    `  clientId: process.env.FLOWSMITH_${env}_CLIENT_ID!,`,
    `  clientSecret: process.env.FLOWSMITH_${env}_CLIENT_SECRET!,`,
    '  userAgent: "my-app/0.1",',
    "});",
    "",
    `const session = await ${binding}.createSession(client, {`,
    ...body,
    "});",
    "console.log(`created session ${session.sessionContext.sessionId}; the user would open ${session.playerUrl}`);",
    "await client.close();",
  ].join("\n");
  return { code, reads: [...reads] };
}

/**
 * Whether index.ts (emit/emit-index.ts) exports the flow `name` of `names`
 * under its binding name: when two names make the same one, the first by
 * name gets it and the others a suffix. The first by name always does.
 */
export function hasOwnNamespace(name: string, names: readonly string[]): boolean {
  const binding = bindingName(name, "flow");
  return !names.some((other) => other < name && bindingName(other, "flow") === binding);
}

/** The request's required fields, one top-level field a line; `input` on one line when it is short, else a data block a line. */
function objectLines(request: ObjectSchema, indent: string, reads: Set<string>): string[] {
  const lines = objectLinesLong(request, indent, reads);
  const start = lines.findIndex((line) => line === `${indent}input: {`);
  const end = lines.indexOf(`${indent}},`, start);
  if (start < 0 || end < 0) return lines;
  const short = `${indent}input: { ${lines
    .slice(start + 1, end)
    .map((line) => line.trim())
    .join(" ")
    .replace(/,$/, "")} },`;
  return short.length <= 100 ? [...lines.slice(0, start), short, ...lines.slice(end + 1)] : lines;
}

function objectLinesLong(request: ObjectSchema, indent: string, reads: Set<string>): string[] {
  const lines: string[] = [];
  for (const property of request.properties.filter((p) => p.required)) {
    const key = propertyKey(property.name);
    if (
      property.name === "input" &&
      property.schema.kind === "object" &&
      property.schema.properties.some((p) => p.required)
    ) {
      lines.push(`${indent}${key}: {`);
      for (const block of property.schema.properties.filter((p) => p.required)) {
        lines.push(`${indent}  ${propertyKey(block.name)}: ${valueOf(block.schema, reads)},`);
      }
      lines.push(`${indent}},`);
    } else {
      lines.push(
        `${indent}${key}: ${property.name === "metadata" ? '{ subjectId: "user-42" }' : valueOf(property.schema, reads)},`,
      );
    }
  }
  return lines;
}

/** A value the field's type accepts (and, where the schema says enough, its validator too); a file read from disk is added to `reads`. */
function valueOf(schema: Schema, reads: Set<string>): string {
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
      return numberLiteral(
        schema.exclusiveMinimum !== undefined
          ? Math.floor(schema.exclusiveMinimum) + 1
          : (schema.maximum ?? 1) >= 1
            ? 1
            : 0,
      );
    case "boolean":
      return String(schema.enum?.[0] ?? (typeof schema.default === "boolean" ? schema.default : true));
    case "file": {
      const file =
        schema.mediaTypes.length > 0 && schema.mediaTypes.every((type) => type.startsWith("image/"))
          ? "photo.jpg"
          : "document.pdf";
      reads.add(file);
      return `await fileFromPath(${codeStringLiteral(file)})`;
    }
    case "array": {
      const count = Math.min(Math.max(schema.minItems ?? 1, 1), 8);
      return `[${Array.from({ length: count }, () => valueOf(schema.items, reads)).join(", ")}]`;
    }
    case "object": {
      const fields = schema.properties
        .filter((p) => p.required)
        .map((p) => `${propertyKey(p.name)}: ${valueOf(p.schema, reads)}`);
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
