/**
 * The fixed part of a generated flow module: templates/flow-module.ts, real
 * TypeScript that tsc checks. It is parsed once per process, and the places
 * the emitter fills in are kept as text ranges: filling a flow's module is
 * then splicing text, where editing a parsed copy per flow made ts-morph
 * re-parse the whole file after every edit (the largest cost of codegen).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Node, Project, type SourceFile } from "ts-morph";

const TEMPLATE = join("templates", "flow-module.ts");
const TEMPLATE_RUNTIME_IMPORT = "@flowsmith/runtime";

/** Names of the template's placeholder declarations, replaced by the flow's own types. */
export const PLACEHOLDER_DECLARATIONS: readonly string[] = [
  "CreateSessionRequest",
  "Metadata",
  "Locale",
  "CreateSessionResponse",
];

export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/** The template's text and where each part the emitter replaces sits in it. */
export interface FlowModuleTemplate {
  readonly text: string;
  /** Where the module starts: the template's own leading comment explains the template, not the module. */
  readonly moduleStart: number;
  /** The string literals naming the runtime module. */
  readonly runtimeSpecifiers: readonly TextRange[];
  /** `FileInput, ` in the type import, dropped when no type refers to it. */
  readonly fileInputImport: TextRange;
  /** The `flow` statement with its JSDoc. */
  readonly flowStatement: TextRange;
  readonly specType: TextRange;
  readonly specInitializer: TextRange;
  /** From the first placeholder declaration's JSDoc to the end of the last one. */
  readonly placeholders: TextRange;
  readonly createSessionDocs: TextRange;
  readonly clientType: TextRange;
}

let project: Project | undefined;
let cached: FlowModuleTemplate | undefined;

/** One in-memory project per process, for the template and for printing generated declarations. */
export function emitProject(): Project {
  project ??= new Project({ useInMemoryFileSystem: true });
  return project;
}

export function flowModuleTemplate(): FlowModuleTemplate {
  cached ??= locateSlotsOrThrow(
    emitProject().createSourceFile("template.ts", readFileSync(findTemplateOrThrow(__dirname), "utf8"), {
      overwrite: true,
    }),
  );
  return cached;
}

function locateSlotsOrThrow(file: SourceFile): FlowModuleTemplate {
  const imports = file.getImportDeclarations();
  const runtimeImports = imports.filter((i) => i.getModuleSpecifierValue() === TEMPLATE_RUNTIME_IMPORT);
  const named = runtimeImports.flatMap((i) => i.getNamedImports());
  const fileInputIndex = named.findIndex((i) => i.getName() === "FileInput");
  const fileInput = named[fileInputIndex];
  const afterFileInput = named[fileInputIndex + 1];
  const flow = file.getVariableStatementOrThrow("flow");
  const spec = file.getVariableDeclarationOrThrow("spec");
  const placeholders = file
    .getStatements()
    .filter((node) => (Node.isInterfaceDeclaration(node) || Node.isTypeAliasDeclaration(node)) && PLACEHOLDER_DECLARATIONS.includes(node.getName()));
  const createSession = file.getFunctionOrThrow("createSession");
  const [docs] = createSession.getJsDocs();
  const clientType = createSession.getParameterOrThrow("client").getTypeNode();
  const specType = spec.getTypeNode();
  const specInitializer = spec.getInitializer();
  const first = placeholders[0];
  const last = placeholders[placeholders.length - 1];
  if (!fileInput || !afterFileInput || !docs || !clientType || !specType || !specInitializer || !first || !last || !imports[0]) {
    throw new Error(`flowsmith: ${TEMPLATE} lacks a part the emitter fills in`);
  }
  return {
    text: file.getFullText(),
    moduleStart: imports[0].getStart(),
    runtimeSpecifiers: runtimeImports.map((i) => rangeOf(i.getModuleSpecifier())),
    fileInputImport: { start: fileInput.getStart(), end: afterFileInput.getStart() },
    flowStatement: { start: flow.getStart(true), end: flow.getEnd() },
    specType: rangeOf(specType),
    specInitializer: rangeOf(specInitializer),
    placeholders: { start: first.getStart(true), end: last.getEnd() },
    createSessionDocs: rangeOf(docs),
    clientType: rangeOf(clientType),
  };
}

function rangeOf(node: Node): TextRange {
  return { start: node.getStart(), end: node.getEnd() };
}

/** This module runs from generator/emit (tests) or dist/generator/emit (CLI): look upwards. */
function findTemplateOrThrow(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, TEMPLATE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`flowsmith: ${TEMPLATE} not found above ${start}`);
  }
}
