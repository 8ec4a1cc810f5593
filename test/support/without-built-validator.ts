/**
 * A module that loads a validator the build precompiled (generator/precompiled-validator.ts),
 * loaded afresh as it is beside the .ts sources, where no build's file exists: jest maps the
 * module's `require("./<file>")` to `mapped` (jest.config.js), which here fails as a missing
 * file does. `asked()` counts the module's attempts to load it.
 */
import { jest } from "@jest/globals";

export async function withoutBuiltValidator<Module>(
  mapped: string,
  file: string,
  load: () => Promise<Module>,
): Promise<{ module: Module; asked: () => number }> {
  let asked = 0;
  let module: Module | undefined;
  await jest.isolateModulesAsync(async () => {
    jest.doMock(mapped, () => {
      asked += 1;
      throw Object.assign(new Error(`Cannot find module './${file}'`), { code: "MODULE_NOT_FOUND" });
    });
    module = await load();
  });
  if (module === undefined) throw new Error("the module did not load");
  return { module, asked: () => asked };
}
