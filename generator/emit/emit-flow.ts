/**
 * The emitter: a flow's model in, the files of its generated client out
 * (`<name>/index.ts` and `<name>/validate.ts`, formatted, byte-identical on
 * every run). Pure: the pipeline (generator/codegen.ts) writes them.
 */
import { Node, Project, type SourceFile } from "ts-morph";
import type { FlowModel } from "../model/types.js";
import { docs } from "./docs.js";
import { stringLiteral } from "./escape.js";
import { toFlowSpec } from "./flow-spec.js";
import { flowTypes, type FlowTypes } from "./flow-types.js";
import { formatTypeScript } from "./format.js";
import { flowHeader } from "./header.js";
import { literal } from "./literal.js";
import { PLACEHOLDER_DECLARATIONS, flowModuleTemplate } from "./template.js";
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
    {
      path: `${model.name}/validate.ts`,
      content: await formatTypeScript(`${header}// @ts-nocheck\n${validator}`),
    },
  ];
}

/** The template with its placeholders replaced; returns the text after the template's own header comment. */
function fillTemplate(model: FlowModel, options: EmitOptions, types: FlowTypes): string {
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile(
    "index.ts",
    flowModuleTemplate(),
  );
  setRuntimeImport(file, options.runtimeImport, types.usesFileInput);
  setFlow(file, model);
  setSpec(file, model);
  replacePlaceholders(file, types);
  setCreateSession(file, model);
  // The template's own leading comment explains the template; the header replaces it.
  return file.getFullText().slice(file.getImportDeclarations()[0]?.getStart() ?? 0);
}

function setRuntimeImport(file: SourceFile, runtimeImport: string, usesFileInput: boolean): void {
  for (const declaration of file.getImportDeclarations()) {
    if (declaration.getModuleSpecifierValue() !== "../runtime/index.js") continue;
    declaration.getModuleSpecifier().replaceWithText(stringLiteral(runtimeImport));
    if (!usesFileInput)
      declaration
        .getNamedImports()
        .find((i) => i.getName() === "FileInput")
        ?.remove();
  }
}

function setFlow(file: SourceFile, model: FlowModel): void {
  const flow = file.getVariableDeclarationOrThrow("flow");
  const value = literal({
    id: model.id,
    version: model.version,
    environment: model.environment,
    title: model.title,
    path: model.path,
  });
  flow.setInitializer(`${value} as const`);
  flow
    .getVariableStatementOrThrow()
    .getJsDocs()
    .forEach((doc) => doc.remove());
  flow
    .getVariableStatementOrThrow()
    .addJsDocs(
      docs([
        `The flow "${model.title}" (version ${model.versionLabel}, ${model.environment}).`,
        model.description ?? "",
      ]),
    );
}

function setSpec(file: SourceFile, model: FlowModel): void {
  const spec = file.getVariableDeclarationOrThrow("spec");
  spec.setType(`FlowSpec<${stringLiteral(model.environment)}>`);
  spec.setInitializer(literal(toFlowSpec(model)));
}

/** The generated declarations take the place of the first placeholder, in the model's order. */
function replacePlaceholders(file: SourceFile, types: FlowTypes): void {
  const placeholders = file.getStatements().filter(isPlaceholder);
  const index = placeholders[0]?.getChildIndex() ?? file.getStatements().length;
  for (const placeholder of placeholders.reverse()) placeholder.remove();
  const [first] = file.insertStatements(index, [...types.declarations]);
  first?.prependWhitespace("\n");
}

function isPlaceholder(node: Node): boolean {
  return (
    (Node.isInterfaceDeclaration(node) || Node.isTypeAliasDeclaration(node)) &&
    PLACEHOLDER_DECLARATIONS.includes(node.getName())
  );
}

function setCreateSession(file: SourceFile, model: FlowModel): void {
  const createSession = file.getFunctionOrThrow("createSession");
  createSession.getParameterOrThrow("client").setType(`Client<${stringLiteral(model.environment)}>`);
  createSession.getJsDocs().forEach((doc) => doc.remove());
  createSession.addJsDocs(
    docs([
      `Creates a session of the flow "${model.title}" and returns it with its \`playerUrl\`.`,
      model.summary ?? "",
      "The request is validated (schema, then file limits) before anything is sent.",
    ]),
  );
}
