/**
 * The flow's pre-flight request validator, compiled at codegen time to ajv
 * standalone code so no schema is compiled at run time. ajv's output is a
 * pure function of the schema and these options, hence deterministic.
 */
import Ajv, { _ } from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone";
import { CodegenError } from "../errors.js";
import { toJsonSchema } from "../model/json-schema.js";
import type { FlowModel } from "../model/types.js";
import { stringLiteral } from "./escape.js";

/** Helpers runtime/validator-support.ts re-exports as `validatorRuntime`. */
const RUNTIME_HELPERS = new Set(["equal", "ucs2length"]);
const AJV_RUNTIME_REQUIRE = /require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)\.default/gi;

/**
 * ajv's JavaScript (an ES module exporting `validate`), not yet formatted,
 * importing what it needs from the runtime instead of requiring ajv's files.
 */
export function validatorSourceOrThrow(model: FlowModel, runtimeImport: string): string {
  // An ES module is strict anyway, and the directive must not follow the import.
  const code = standaloneValidatorOrThrow(model).replace(/^"use strict";/, "");
  const rewired = code.replace(AJV_RUNTIME_REQUIRE, (whole: string, helper: string) =>
    RUNTIME_HELPERS.has(helper) ? `validatorRuntime.${helper}` : whole,
  );
  if (rewired.includes("require(")) {
    throw invalid(model, `ajv emitted a dependency the runtime does not provide: ${/require\([^)]*\)/.exec(rewired)?.[0]}`);
  }
  const used = ["validatorFormats", "validatorRuntime"].filter((name) => rewired.includes(`${name}.`));
  const imports = used.length > 0 ? `import { ${used.join(", ")} } from ${stringLiteral(runtimeImport)};\n` : "";
  return imports + rewired;
}

function standaloneValidatorOrThrow(model: FlowModel): string {
  const ajv = new Ajv({
    // Formats come from the runtime's `validatorFormats` (ajv-formats' full set).
    code: { source: true, esm: true, lines: true, formats: _`validatorFormats` },
    allErrors: true,
    // The schema is ours (json-schema.ts); anything ajv finds odd is a bug worth failing on.
    strict: true,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  try {
    return standaloneCode(ajv, ajv.compile(toJsonSchema(model.request, { file: {} }) as object));
  } catch (error) {
    throw invalid(model, `the request schema cannot be compiled to a validator: ${(error as Error).message}`, error);
  }
}

function invalid(model: FlowModel, detail: string, cause?: unknown): CodegenError {
  return new CodegenError(
    "INVALID_SCHEMA",
    detail,
    { flow: model.name, file: model.source.file, pointer: model.request.pointer },
    cause === undefined ? undefined : { cause },
  );
}
