/** `index.ts` of the output directory: every flow's module as a namespace (`signing.createSession`). */
import { StructureKind, type ExportDeclarationStructure } from "ts-morph";
import type { FlowModel } from "../model/types.js";
import type { EmittedFile } from "./emitted-file.js";
import { bindingName } from "./escape.js";
import { indexHeader } from "./header.js";
import { moduleSpecifierOrThrow } from "./module-specifier.js";
import { moduleText } from "./module-text.js";
import { NameAllocator } from "./names.js";

/** Only each flow's `name` is read, so a pipeline that skipped unchanged flows need not build their models. */
export async function emitIndex(models: readonly Pick<FlowModel, "name">[]): Promise<EmittedFile> {
  const names = new NameAllocator([]);
  // Sorted, so the namespaces and their collision suffixes do not depend on config order.
  const sorted = [...models].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const exports = sorted.map((model): ExportDeclarationStructure => ({
    kind: StructureKind.ExportDeclaration,
    namespaceExport: names.claim(bindingName(model.name, "flow")),
    moduleSpecifier: moduleSpecifierOrThrow(`./${model.name}/index.js`, "flow module", { flow: model.name }),
  }));
  // With no flows, `export {};` keeps the file a module.
  const statements = exports.length > 0 ? exports : [{ kind: StructureKind.ExportDeclaration } as const];
  return { path: "index.ts", content: await moduleText(indexHeader(), statements) };
}
