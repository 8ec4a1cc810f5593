/**
 * JSON Schema `format`s, checked by ajv-formats' own checks ("full" mode):
 * the well-kept implementation of each, read as plain data and functions (its
 * formats module loads nothing else, not ajv). A format it does not know is
 * documentation only, as ajv treats it with `strict: false`.
 */
import { fullFormats } from "ajv-formats/dist/formats.js";

export interface FormatCheck {
  /** The JSON type the format constrains; values of other types pass. */
  readonly appliesTo: "string" | "number";
  readonly test: (value: string & number) => boolean;
}

type FormatDefinition = (typeof fullFormats)[keyof typeof fullFormats];

const checks = new Map<string, FormatCheck | undefined>();

export function formatCheckOrUndefined(name: string): FormatCheck | undefined {
  if (checks.has(name)) return checks.get(name);
  const definition = Object.hasOwn(fullFormats, name)
    ? (fullFormats as Record<string, FormatDefinition>)[name]
    : undefined;
  const check = definition === undefined ? undefined : checkOf(definition);
  checks.set(name, check);
  return check;
}

function checkOf(definition: FormatDefinition): FormatCheck | undefined {
  // `true`: a format ajv-formats names but does not check (binary, password).
  if (definition === true) return undefined;
  if (definition instanceof RegExp) return { appliesTo: "string", test: (value: string) => definition.test(value) };
  if (typeof definition === "function") return { appliesTo: "string", test: definition };
  if (typeof definition !== "object" || !("validate" in definition)) return undefined;
  const { validate } = definition as {
    readonly validate: RegExp | string | ((value: never) => unknown);
    readonly async?: boolean;
  };
  // An async check (none in ajv-formats' full mode) could not answer in time; a string is a pattern only ajv compiles.
  if (typeof validate === "string" || ("async" in definition && definition.async === true)) return undefined;
  const appliesTo = "type" in definition && definition.type === "number" ? "number" : "string";
  const test =
    validate instanceof RegExp
      ? (value: string) => validate.test(value)
      : (value: string & number) => Boolean(validate(value));
  return { appliesTo, test };
}
