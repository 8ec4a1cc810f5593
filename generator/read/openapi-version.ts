/**
 * Only OpenAPI 3.0 documents are flow descriptions. Swagger 2.0 and 3.1 are
 * refused by name so the user knows what they have, rather than meeting a
 * wall of schema errors.
 */
import { CodegenError } from "../errors.js";
import { valueText } from "./value-text.js";

export function checkOpenApiVersionOrThrow(
  document: unknown,
  file: string,
  lineOfOrUndefined: (pointer: string) => number | undefined,
): void {
  const fail = (detail: string, pointer: string): CodegenError =>
    new CodegenError("NOT_OPENAPI_3", detail, { file, pointer, line: lineOfOrUndefined(pointer) });
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw fail("the file is not an OpenAPI document (expected a mapping at the top level)", "#");
  }
  const record = document as Record<string, unknown>;
  if (!Object.hasOwn(record, "openapi")) {
    if (Object.hasOwn(record, "swagger")) {
      throw fail(
        `this is a Swagger ${String(record["swagger"])} document; flow descriptions are OpenAPI 3.0 (openapi: 3.0.x)`,
        "#/swagger",
      );
    }
    throw fail("no `openapi` field: flow descriptions are OpenAPI 3.0 documents (openapi: 3.0.x)", "#");
  }
  const version = record["openapi"];
  if (typeof version !== "string") {
    throw fail(
      `\`openapi\` must be a string such as "3.0.3" (quote it in YAML), got ${valueText(version)}`,
      "#/openapi",
    );
  }
  if (/^3\.1(\.|$)/.test(version)) {
    throw fail(`OpenAPI ${version}: 3.1 is not supported, flow descriptions are 3.0`, "#/openapi");
  }
  if (!/^3\.0\.\d+(-.+)?$/.test(version)) {
    throw fail(`OpenAPI version "${version}" is not supported; flow descriptions are 3.0.x`, "#/openapi");
  }
}
