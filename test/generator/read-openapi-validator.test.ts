/**
 * The build writes the OpenAPI 3.0 validator as ajv standalone code (dist/,
 * build-openapi-validator.ts); run from the sources, openapi-validation.ts
 * compiles it on first use. Both must judge documents alike. jest's suites
 * load the build's file (test/support/built-openapi-validator.js), so it must
 * be the one the sources compile.
 */
import { jest } from "@jest/globals";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import YAML from "yaml";
import { openApiValidatorSource, PRECOMPILED_VALIDATOR } from "../../generator/read/openapi-validation.js";
import { makeTempDir, removeDir, REPO_ROOT } from "../fixtures/golden/compile.js";
import { withoutBuiltValidator } from "../support/without-built-validator.js";

const DOCUMENTS: readonly [string, boolean][] = [
  ["flows/signing.yaml", true],
  ["flows/aml-screening.yaml", true],
  ["test/fixtures/descriptions/odd-names.yaml", true],
  // Valid OpenAPI: the flow id is the model's rule, not OpenAPI's.
  ["test/fixtures/descriptions/bad/missing-flow-id.yaml", true],
  ["test/fixtures/descriptions/bad/invalid-openapi.yaml", false],
  ["test/fixtures/descriptions/bad/openapi-3-1.yaml", false],
];

/** ajv's standalone code of the sources' validator; compiled once for both tests. */
const sourcesValidator = (() => {
  let code: string | undefined;
  return (): string => (code ??= openApiValidatorSource());
})();

type OpenApiValidation = typeof import("../../generator/read/openapi-validation.js");

/** openapi-validation.ts loaded afresh where no precompiled validator is found, as beside the sources. */
function withoutPrecompiled(): Promise<{ module: OpenApiValidation; asked: () => number }> {
  return withoutBuiltValidator(
    "../support/built-openapi-validator.js",
    PRECOMPILED_VALIDATOR,
    () => import("../../generator/read/openapi-validation.js"),
  );
}

test("the precompiled validator judges documents as the one compiled on first use", async () => {
  const { module, asked } = await withoutPrecompiled();
  const dir = makeTempDir();
  try {
    const file = join(dir, "openapi-validator.js");
    writeFileSync(file, sourcesValidator());
    const precompiled = jest.requireActual<ValidateFunction>(file);
    for (const [path, valid] of DOCUMENTS) {
      const document: unknown = YAML.parse(readFileSync(join(REPO_ROOT, path), "utf8"));
      const compiled = (() => {
        try {
          module.validateOpenApiOrThrow(document, path, () => undefined);
          return true;
        } catch {
          return false;
        }
      })();
      expect([path, precompiled(document), compiled]).toEqual([path, valid, valid]);
      if (!valid) expect(precompiled.errors?.length).toBeGreaterThan(0);
    }
    // It looked for the precompiled validator once, found none, and compiled its own.
    expect(asked()).toBe(1);
  } finally {
    removeDir(dir);
  }
});

test("the build's validator, which the other suites load, is the one the sources compile", () => {
  const built = readFileSync(join(REPO_ROOT, "dist", "generator", "read", PRECOMPILED_VALIDATOR), "utf8");
  expect(built.endsWith(sourcesValidator())).toBe(true);
});
