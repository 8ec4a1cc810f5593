/**
 * The fixed parts of a generated flow module, read from templates/flow-module.ts
 * (real TypeScript that tsc checks) once per process: its imports and the
 * `spec` declaration as structures, and `createSession` as written.
 *
 * createSession is taken whole, not as a structure: ts-morph prints a
 * parameter list on one line (here 140 columns), and prettier, which would
 * break it as the template does, costs more per module than all the rest of
 * emitting it (bench/analysis.md). Its text names no flow-specific value
 * (`Client<Flow["environment"]>`), so there is nothing to fill in.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Project, type ImportDeclarationStructure, type VariableStatementStructure } from "ts-morph";

const TEMPLATE = join("templates", "flow-module.ts");
/** The runtime's specifier in the template; the emitter writes the configured one. */
export const TEMPLATE_RUNTIME_IMPORT = "@flowsmith/runtime/flow-module";

export interface FlowModuleTemplate {
  /** In the template's order. Those from TEMPLATE_RUNTIME_IMPORT name every runtime binding a module may use. */
  readonly imports: readonly ImportDeclarationStructure[];
  /** Docs and type annotation of `spec`; the emitter gives it the flow's value. */
  readonly spec: VariableStatementStructure;
  /** The `createSession` declaration with its JSDoc, exactly as written. */
  readonly createSession: string;
}

let cached: FlowModuleTemplate | undefined;

export function flowModuleTemplate(): FlowModuleTemplate {
  cached ??= readTemplateOrThrow(readFileSync(findTemplateOrThrow(__dirname), "utf8"));
  return cached;
}

/** Exported for the test that checks emitted modules against the template. */
export function readTemplateOrThrow(text: string): FlowModuleTemplate {
  // A parse, never a type check: no lib files (cli/ts-morph-lib-files.ts leaves the CLI's process without them).
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
  const file = project.createSourceFile("flow-module.ts", text);
  const createSession = file.getFunction("createSession");
  const spec = file.getVariableStatement("spec");
  const imports = file.getImportDeclarations();
  if (!createSession || !spec || !imports.some((i) => i.getModuleSpecifierValue() === TEMPLATE_RUNTIME_IMPORT)) {
    throw new Error(`flowsmith: ${TEMPLATE} lacks a part the emitter copies (runtime imports, spec, createSession)`);
  }
  return {
    imports: imports.map((declaration) => declaration.getStructure()),
    spec: spec.getStructure(),
    createSession: createSession.getText(true),
  };
}

/** This module runs from generator/emit (tests) or dist/generator/emit (CLI): look upwards. */
function findTemplateOrThrow(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, TEMPLATE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`flowsmith: ${TEMPLATE} not found above ${start}`);
  }
}
