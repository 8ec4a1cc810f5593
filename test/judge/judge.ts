/**
 * The judge (issue 26): openapi-typescript's reading of a description
 * against our generated types, checked by the TypeScript compiler, for the
 * JSON request (`CreateSessionRequest` against the operation's
 * `application/json` body), the multipart form (the parts our runtime sends
 * against openapi-typescript's property keys, each part's value type) and
 * the 201 response (`CreateSessionResponse` against its body). Both ways:
 * property by property (compare-types.ts), then each type assignable to the
 * other. The differences we mean are adapters (adapters.ts, open-objects.ts,
 * their-types.ts); anything else is a disagreement naming the flow, the path
 * and both types.
 *
 * For each description, prepareJudgement gives the files to put beside our
 * module in one TypeScript program: openapi-typescript's module
 * (`theirs.ts`) and the aliases that apply the adapters (`judge.ts`). Once
 * the program is built, verdictOf compares them. judgeFlows does both for a
 * list of flows, in one program.
 */
import { dirname, join, relative, sep } from "node:path";
import ts from "typescript";
import { parse } from "yaml";
import type { EmittedFile } from "../../generator/emit/emitted-file.js";
import type { FlowModel } from "../../generator/model/types.js";
import { REPO_ROOT } from "../fixtures/golden/compile.js";
import { checkProgram, VIRTUAL_ROOT } from "../fuzz/type-check.js";
import { compareTypes, type Disagreement } from "./compare-types.js";
import { operationOf } from "./document.js";
import { formDisagreements, sentParts, type SentPart } from "./form-parts.js";
import { openObjects } from "./open-objects.js";
import { theirTypesOf } from "./their-types.js";

const ADAPTERS = join(REPO_ROOT, "test", "judge", "adapters.js");

/** The codegen options a flow was generated with, where they change its types. */
export interface JudgeOptions {
  /**
   * JSON data blocks typed without index signatures (the option issue 24
   * adds): their extra keys are then not compared (adapters.ts, ClosedDataBlocks).
   */
  readonly closedDataBlocks?: boolean;
}

export interface JudgedFlow {
  /** Folder of this flow's files in the program; our module is `<dir>/<model.name>/index.ts`. */
  readonly dir: string;
  readonly model: FlowModel;
  /** The description as written. */
  readonly text: string;
  readonly options?: JudgeOptions;
}

export interface Prepared {
  /** Path → text, for the program. */
  readonly files: ReadonlyMap<string, string>;
  /** Why openapi-typescript could not read the description (then there are no files). */
  readonly unread?: string;
  /** The parts our runtime sends for a request with every field present. */
  readonly parts: readonly SentPart[];
}

/** openapi-typescript's module and the aliases to compare, for one flow. */
export async function prepareJudgement(flow: JudgedFlow): Promise<Prepared> {
  const document = parsed(flow.text);
  const forms = flow.model.declaredBodyForms;
  const both = forms.length === 2;
  openObjects(document, { jsonForm: !both });
  const { json, multipart, created } = operationOf(document);
  let theirs: string;
  try {
    theirs = await theirTypesOf(document);
  } catch (error) {
    // A finding, for the flow: a description the generator reads and openapi-typescript cannot.
    return { files: new Map(), parts: [], unread: error instanceof Error ? error.message : String(error) };
  }
  const module = join(flow.dir, "judge.ts");
  const adapters = relative(dirname(module), ADAPTERS).split(sep).join("/");
  const lines = [
    `import type { CreateSessionRequest, CreateSessionResponse } from ${JSON.stringify(`./${flow.model.name}/index.js`)};`,
    `import type { operations } from "./theirs.js";`,
    `import type * as Adapt from "${adapters.startsWith(".") ? adapters : `./${adapters}`}";`,
    `type Operation = operations["createSession"];`,
    `type Body = NonNullable<Operation["requestBody"]>["content"];`,
    `export type ResponseOurs = Adapt.Ours<CreateSessionResponse>;`,
    `export type ResponseTheirs = Adapt.Theirs<Operation["responses"][201]["content"][${JSON.stringify(created?.key ?? "application/json")}]>;`,
    `export type RequestOurs = Adapt.Ours<CreateSessionRequest>;`,
  ];
  if (json) {
    const closed = (type: string): string =>
      flow.options?.closedDataBlocks === true ? `Adapt.ClosedDataBlocks<${type}>` : type;
    const beside = (type: string): string => (both ? `Adapt.BesideMultipart<${type}>` : type);
    lines.push(
      `export type JsonTheirs = ${beside(closed(`Adapt.TheirsInFrame<Adapt.Theirs<Body[${JSON.stringify(json.key)}]>>`))};`,
      `export type JsonOurs = ${beside(`Adapt.OursInFrame<RequestOurs, JsonTheirs>`)};`,
    );
  }
  if (multipart) {
    lines.push(
      `export type FormTheirs = Adapt.Theirs<Body[${JSON.stringify(multipart.key)}]>;`,
      `export type FormOurs = Adapt.OursInFrame<RequestOurs, Adapt.FormFrame<FormTheirs>>;`,
    );
  }
  return {
    files: new Map([
      [join(flow.dir, "theirs.ts"), theirs],
      [module, `${lines.join("\n")}\n`],
    ]),
    parts: multipart ? sentParts(flow.model) : [],
  };
}

/** Every disagreement of one flow, each naming it; the program holds its prepared files. */
export function verdictOf(program: ts.Program, flow: JudgedFlow, prepared: Prepared): string[] {
  const name = `flow ${flow.model.name} (${flow.model.source.file})`;
  if (prepared.unread !== undefined) return [`${name}: openapi-typescript cannot read it: ${prepared.unread}`];
  const [theirs, judge] = ["theirs.ts", "judge.ts"].map((file) => {
    const source = program.getSourceFile(join(flow.dir, file));
    if (!source) throw new Error(`${flow.dir}/${file} is not in the program`);
    return source;
  }) as [ts.SourceFile, ts.SourceFile];
  // openapi-typescript's module must parse (text of the document that broke it would be a finding), and the
  // aliases must compile; a type in theirs.ts that does not would reach them as `any`, which agrees with nothing.
  const diagnostics = [
    ...program.getSyntacticDiagnostics(theirs),
    ...program.getSyntacticDiagnostics(judge),
    ...program.getSemanticDiagnostics(judge),
  ].map(
    (d) =>
      `${name}: ${relative(flow.dir, d.file?.fileName ?? "")}:${String((d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line ?? 0) + 1)} does not compile: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
  );
  if (diagnostics.length > 0) return diagnostics;
  const checker = program.getTypeChecker();
  const aliases = aliasesOf(checker, judge);
  const found: Disagreement[] = [];
  for (const [ours, theirsType, root] of [
    ["JsonOurs", "JsonTheirs", "request"],
    ["ResponseOurs", "ResponseTheirs", "response"],
  ] as const) {
    const a = aliases.get(ours);
    const b = aliases.get(theirsType);
    if (a && b) found.push(...compareTypes(checker, a, b, root, { enclosing: judge }));
  }
  const form = {
    framed: aliases.get("FormOurs"),
    whole: aliases.get("RequestOurs"),
    theirs: aliases.get("FormTheirs"),
  };
  if (form.framed && form.whole && form.theirs) {
    found.push(
      ...formDisagreements(checker, { framed: form.framed, whole: form.whole }, form.theirs, prepared.parts, judge),
    );
  }
  return found.map((d) => `${name}: ${d.path}: ${d.what}\n  ours:   ${d.ours}\n  theirs: ${d.theirs}`);
}

/** A flow as codegen gave it: its model and emitted files (index.ts first). */
export interface EmittedFlow {
  readonly model: FlowModel;
  readonly files: readonly EmittedFile[];
  readonly text: string;
  readonly options?: JudgeOptions;
}

/** Each flow judged, all in one program: its disagreements (none: the two readings agree). */
export async function judgeFlows(flows: readonly EmittedFlow[]): Promise<string[][]> {
  const files = new Map<string, string>();
  const judged: { flow: JudgedFlow; prepared: Prepared }[] = [];
  for (const [index, emitted] of flows.entries()) {
    const dir = join(VIRTUAL_ROOT, `judge${String(index)}`);
    for (const file of emitted.files) files.set(join(dir, file.path), file.content);
    const flow: JudgedFlow = {
      dir,
      model: emitted.model,
      text: emitted.text,
      ...(emitted.options ? { options: emitted.options } : {}),
    };
    const prepared = await prepareJudgement(flow);
    for (const [path, text] of prepared.files) files.set(path, text);
    judged.push({ flow, prepared });
  }
  const { program } = checkProgram(files);
  return judged.map(({ flow, prepared }) => verdictOf(program, flow, prepared));
}

/** JSON as JSON.parse reads it (the service sends JSON; the yaml package takes far longer), else YAML. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return parse(text) as unknown;
  }
}

function aliasesOf(checker: ts.TypeChecker, file: ts.SourceFile): Map<string, ts.Type> {
  const module = checker.getSymbolAtLocation(file);
  return new Map(
    (module ? checker.getExportsOfModule(module) : []).map((symbol) => [
      symbol.name,
      checker.getDeclaredTypeOfSymbol(symbol),
    ]),
  );
}
