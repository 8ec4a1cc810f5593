/**
 * The flow's pre-flight request validator, compiled at codegen time to ajv
 * standalone code so no schema is compiled at run time. ajv's output is a
 * pure function of the schema and these options, hence deterministic.
 */
import Ajv from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone";
import { CodegenError } from "../errors.js";
import { toJsonSchema } from "../model/json-schema.js";
import type { FlowModel } from "../model/types.js";

/** ajv's JavaScript (an ES module exporting `validate`), not yet formatted. */
export function validatorSourceOrThrow(model: FlowModel): string {
  const ajv = new Ajv({
    code: { source: true, esm: true, lines: true },
    allErrors: true,
    // The schema is ours (json-schema.ts); anything ajv finds odd is a bug worth failing on.
    strict: true,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  try {
    const validate = ajv.compile(toJsonSchema(model.request, { file: {} }) as object);
    return standaloneCode(ajv, validate);
  } catch (error) {
    throw new CodegenError(
      "INVALID_SCHEMA",
      `the request schema cannot be compiled to a validator: ${(error as Error).message}`,
      { flow: model.name, file: model.source.file, pointer: model.request.pointer },
      { cause: error },
    );
  }
}
