/** `index.ts` of the output directory: every flow's module as a namespace (`signing.createSession`). */
import { Project } from "ts-morph";
import type { FlowModel } from "../model/types.js";
import { bindingName, stringLiteral } from "./escape.js";
import type { EmittedFile } from "./emit-flow.js";
import { formatTypeScript } from "./format.js";
import { indexHeader } from "./header.js";
import { NameAllocator } from "./names.js";

/** Only each flow's `name` is read, so a pipeline that skipped unchanged flows need not build their models. */
export async function emitIndex(models: readonly Pick<FlowModel, "name">[]): Promise<EmittedFile> {
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile("index.ts", "");
  const names = new NameAllocator([]);
  // Sorted, so the namespaces and their collision suffixes do not depend on config order.
  const sorted = [...models].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const model of sorted) {
    const declaration = file.addExportDeclaration({
      namespaceExport: names.claim(bindingName(model.name, "flow")),
      moduleSpecifier: "./module.js",
    });
    declaration.getModuleSpecifier()?.replaceWithText(stringLiteral(`./${model.name}/index.js`));
  }
  if (sorted.length === 0) file.addExportDeclaration({});
  return { path: "index.ts", content: await formatTypeScript(indexHeader() + file.getFullText()) };
}
