/**
 * The build writes the validator of codegen.config.schema.json as ajv
 * standalone code (dist/, build-config-validator.ts); run from the sources,
 * load-config.ts compiles it on first use. Both must judge configs alike,
 * with the same errors (the messages are worded from them). jest's suites
 * load the build's file (test/support/built-config-validator.js), so it must
 * be the one the sources compile.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import { configValidatorSource, PRECOMPILED_CONFIG_VALIDATOR } from "../../generator/config/load-config.js";
import configSchema from "../../codegen.config.schema.json";
import { makeTempDir, removeDir, REPO_ROOT } from "../fixtures/golden/compile.js";
import { withoutBuiltValidator } from "../support/without-built-validator.js";

const CONFIGS: readonly unknown[] = [
  { outputDir: "generated", flows: [{ source: { file: "flows/signing.yaml" } }] },
  {
    outputDir: "generated",
    runtimeImport: "@flowsmith/runtime",
    flows: [{ name: "a", source: { file: "a.yaml" } }, { source: { api: { id: "x", environment: "sandbox" } } }],
  },
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

test("the build's validator, which the other suites load, is the one the sources compile", () => {
  const built = readFileSync(join(REPO_ROOT, "dist", "generator", "config", PRECOMPILED_CONFIG_VALIDATOR), "utf8");
  expect(built.endsWith(configValidatorSource())).toBe(true);
});

test("without the build's validator, load-config.ts compiles its own once and judges configs with it", async () => {
  const { module, asked } = await withoutBuiltValidator(
    "../support/built-config-validator.js",
    PRECOMPILED_CONFIG_VALIDATOR,
    () => import("../../generator/config/load-config.js"),
  );
  const dir = makeTempDir();
  try {
    const good = join(dir, "good.json");
    writeFileSync(good, JSON.stringify(CONFIGS[0]));
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify(CONFIGS[2]));
    expect((await module.loadConfigOrThrow(good)).flows).toHaveLength(1);
    await expect(module.loadConfigOrThrow(bad)).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      context: { pointer: "#/outputDir" },
    });
    expect(asked()).toBe(1);
  } finally {
    removeDir(dir);
  }
});
