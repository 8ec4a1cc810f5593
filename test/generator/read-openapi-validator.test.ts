/**
 * The build writes the OpenAPI 3.0 validator as ajv standalone code (dist/,
 * build-openapi-validator.ts); run from the sources, openapi-validation.ts
 * compiles it on first use. Both must judge documents alike.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import YAML from "yaml";
import { openApiValidatorSource, validateOpenApiOrThrow } from "../../generator/read/openapi-validation.js";
import { makeTempDir, removeDir, REPO_ROOT } from "../fixtures/golden/compile.js";

const DOCUMENTS: readonly [string, boolean][] = [
  ["flows/signing.yaml", true],
  ["flows/aml-screening.yaml", true],
  ["test/fixtures/descriptions/odd-names.yaml", true],
  // Valid OpenAPI: the flow id is the model's rule, not OpenAPI's.
  ["test/fixtures/descriptions/bad/missing-flow-id.yaml", true],
  ["test/fixtures/descriptions/bad/invalid-openapi.yaml", false],
  ["test/fixtures/descriptions/bad/openapi-3-1.yaml", false],
];

test("the precompiled validator judges documents as the one compiled on first use", () => {
  const dir = makeTempDir();
  try {
    const file = join(dir, "openapi-validator.js");
    writeFileSync(file, openApiValidatorSource());
    const precompiled = jest.requireActual<ValidateFunction>(file);
    for (const [path, valid] of DOCUMENTS) {
      const document: unknown = YAML.parse(readFileSync(join(REPO_ROOT, path), "utf8"));
      const compiled = (() => {
        try {
          validateOpenApiOrThrow(document, path, () => undefined);
          return true;
        } catch {
          return false;
        }
      })();
      expect([path, precompiled(document), compiled]).toEqual([path, valid, valid]);
      if (!valid) expect(precompiled.errors?.length).toBeGreaterThan(0);
    }
  } finally {
    removeDir(dir);
  }
});
