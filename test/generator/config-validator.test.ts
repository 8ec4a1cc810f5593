/**
 * The build writes the validator of codegen.config.schema.json as ajv
 * standalone code (dist/, build-config-validator.ts); run from the sources,
 * load-config.ts compiles it on first use. Both must judge configs alike,
 * with the same errors (the messages are worded from them).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import { configValidatorSource } from "../../generator/config/load-config.js";
import configSchema from "../../codegen.config.schema.json";
import { makeTempDir, removeDir } from "../fixtures/golden/compile.js";

const CONFIGS: readonly unknown[] = [
  { outputDir: "generated", flows: [{ source: { file: "flows/signing.yaml" } }] },
  { outputDir: "generated", runtimeImport: "@flowsmith/runtime", flows: [{ name: "a", source: { file: "a.yaml" } }, { source: { api: { id: "x", environment: "sandbox" } } }] },
  { outputDir: 3, flows: [] },
  { flows: [{ source: { file: "a.yaml", api: {} } }], extra: true },
  { outputDir: "generated", flows: [{ name: "", source: {} }] },
  [],
  null,
];

test("the precompiled config validator judges configs as the one compiled on first use", () => {
  const dir = makeTempDir();
  try {
    const file = join(dir, "config-validator.js");
    writeFileSync(file, configValidatorSource());
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const precompiled = require(file) as ValidateFunction;
    const compiled = new Ajv({ allErrors: true, strict: false }).compile(configSchema);
    let invalid = 0;
    for (const config of CONFIGS) {
      const valid = compiled(config);
      expect([config, precompiled(config)]).toEqual([config, valid]);
      expect(precompiled.errors ?? null).toEqual(compiled.errors ?? null);
      if (!valid) invalid += 1;
    }
    expect(invalid).toBeGreaterThan(2);
  } finally {
    removeDir(dir);
  }
});
