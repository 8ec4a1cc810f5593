/**
 * The emitter: a flow's model in, the files of its generated client out
 * (`<name>/index.ts` and `<name>/validate.ts`, formatted, byte-identical on
 * every run). Pure: the pipeline (generator/codegen.ts) writes them.
 */
import {
  StructureKind,
  VariableDeclarationKind,
  type FunctionDeclarationStructure,
  type Node,
  type VariableStatementStructure,
} from "ts-morph";
import type { FlowSpec } from "@flowsmith/runtime";
import type { FlowModel } from "../model/types.js";
import { docs } from "./docs.js";
import { stringLiteral, templateLiteral } from "./escape.js";
import { toFlowSpec } from "./flow-spec.js";
import { flowTypes, type FlowTypes } from "./flow-types.js";
import { formatTypeScript } from "./format.js";
import { flowHeader } from "./header.js";
import { jsonText } from "./json-text.js";
import { literal } from "./literal.js";
import { emitProject, flowModuleTemplate } from "./template.js";
import { validatorSourceOrThrow } from "./validator.js";

export { emitIndex } from "./emit-index.js";

export interface EmittedFile {
  /** Posix path relative to the output directory, e.g. `signing/index.ts`. */
  readonly path: string;
  readonly content: string;
}

export interface EmitOptions {
  /** Module specifier of the runtime as seen from `<outputDir>/<name>/index.ts`. */
  readonly runtimeImport: string;
}

export async function emitFlowOrThrow(model: FlowModel, options: EmitOptions): Promise<EmittedFile[]> {
  const header = flowHeader(model.source);
  const module = fillTemplate(model, options, flowTypes(model));
  const validator = validatorSourceOrThrow(model, options.runtimeImport);
  return [
    { path: `${model.name}/index.ts`, content: await formatTypeScript(header + module) },
    // ajv's code, indented by validator.ts; prettier over it cost more than all else.
    { path: `${model.name}/validate.ts`, content: `${header}// @ts-nocheck\n${validator}` },
  ];
}

/**
 * The template with its parts replaced, from its first import on. The flow's
 * own statements are printed from structures in one scratch file, then
 * spliced into the template's text at the ranges found when it was parsed.
 */
function fillTemplate(model: FlowModel, options: EmitOptions, types: FlowTypes): string {
  const template = flowModuleTemplate();
  const printed = printFlowStatements(model, types);
  const edits: TextEdit[] = [
    ...template.runtimeSpecifiers.map((range) => ({ ...range, text: stringLiteral(options.runtimeImport) })),
    ...(types.usesFileInput ? [] : [{ ...template.fileInputImport, text: "" }]),
    { ...template.flowStatement, text: printed.flow },
    { ...template.specType, text: `FlowSpec<${stringLiteral(model.environment)}>` },
    { ...template.specInitializer, text: specInitializer(toFlowSpec(model)) },
    { ...template.placeholders, text: printed.declarations },
    { ...template.createSessionDocs, text: printed.createSessionDocs },
    { ...template.clientType, text: `Client<${stringLiteral(model.environment)}>` },
  ];
  return applyEdits(template.text, template.moduleStart, edits);
}

interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function applyEdits(text: string, from: number, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = "";
  let at = from;
  for (const edit of sorted) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

interface PrintedStatements {
  readonly flow: string;
  readonly declarations: string;
  readonly createSessionDocs: string;
}

function printFlowStatements(model: FlowModel, types: FlowTypes): PrintedStatements {
  const flow: VariableStatementStructure = {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs([`The flow "${model.title}" (version ${model.versionLabel}, ${model.environment}).`, model.description ?? ""]),
    declarations: [{ name: "flow", initializer: `${literal(flowConstant(model))} as const` }],
  };
  // Only its JSDoc is used: the template's signature and body stay as written.
  const createSession: FunctionDeclarationStructure = {
    kind: StructureKind.Function,
    name: "createSession",
    hasDeclareKeyword: true,
    docs: docs([
      `Creates a session of the flow "${model.title}" and returns it with its \`playerUrl\`.`,
      model.summary ?? "",
      "The request is validated (schema, then file limits) before anything is sent.",
    ]),
  };
  const file = emitProject().createSourceFile("flow.ts", { statements: [flow, ...types.declarations, createSession] }, { overwrite: true });
  const statements = file.getStatements();
  const text = file.getFullText();
  const firstDeclaration = statements[1];
  const lastDeclaration = statements[statements.length - 2];
  return {
    flow: textOf(text, statements[0]),
    declarations: firstDeclaration && lastDeclaration ? text.slice(firstDeclaration.getStart(true), lastDeclaration.getEnd()) : "",
    createSessionDocs: file.getFunctionOrThrow("createSession").getJsDocs().map((doc) => doc.getText()).join("\n"),
  };
}

function textOf(text: string, node: Node | undefined): string {
  return node ? text.slice(node.getStart(true), node.getEnd()) : "";
}

function flowConstant(model: FlowModel) {
  return { id: model.id, version: model.version, environment: model.environment, title: model.title, path: model.path };
}

/**
 * `spec` as JSON parsed when the module loads, not as an object literal:
 * users' tsc would relate each literal to FlowSpec (and the multipart request
 * tree to the recursive FieldSpec union) in every generated module, which was
 * most of what checking one cost. The value comes from toFlowSpec, typed
 * here, and the module annotates it with the flow's FlowSpec<environment>.
 */
function specInitializer(spec: FlowSpec): string {
  return `JSON.parse(${templateLiteral(jsonText(spec))})`;
}
