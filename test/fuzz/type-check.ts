/**
 * One TypeScript program for every generated file of a fuzz run: the files
 * stay in memory under a folder of the repo that is never written (so the
 * runtime import resolves to runtime/index.ts), and are checked under the
 * repo's own strict options. One program, because a program per flow would
 * type-check the runtime and the libraries again for each.
 */
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../fixtures/golden/compile.js";
import { typeCheckHost } from "../support/type-check-host.js";

/** Where the generated files seem to be; nothing is written there. */
export const VIRTUAL_ROOT = join(REPO_ROOT, "test", ".fuzz-in-memory");

/** The runtimeImport that reaches runtime/index.ts from `<VIRTUAL_ROOT>/<case>/<flow>/index.ts`. */
export const RUNTIME_IMPORT = relative(join(VIRTUAL_ROOT, "case", "flow"), join(REPO_ROOT, "runtime", "index.js")).split(sep).join("/");

export interface CheckedProgram {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  /** Diagnostics of one of the in-memory files, as `line: message`. */
  diagnosticsOf(path: string): string[];
  sourceFileOrThrow(path: string): ts.SourceFile;
  /** Syntax errors of a generated validator, its top-level statements other than imports, constants and functions, and its exports unless exactly `validate` and `default`. */
  validatorProblemsOf(path: string): string[];
  /** A generated validator, parsed once for all that reads it. */
  validatorFileOrThrow(path: string): ts.SourceFile;
}

/**
 * `files`: path → content. Generated validators (`validate.ts`, ajv's code
 * under `// @ts-nocheck`) have nothing to type-check, and binding them would
 * cost more than checking all the rest: the program sees each as the
 * declaration of its typed export, and validatorSyntaxProblems parses them.
 */
export function checkProgram(files: ReadonlyMap<string, string>): CheckedProgram {
  // Parsed only: a program whose checker is never asked for does not bind its files.
  const validators = [...files.keys()].filter(isValidator);
  const syntaxOptions: ts.CompilerOptions = { noLib: true, noResolve: true, types: [], target: ts.ScriptTarget.ES2022 };
  const syntax = ts.createProgram({ rootNames: validators, options: syntaxOptions, host: inMemoryHost(syntaxOptions, files) });
  const validatorFileOrThrow = (path: string): ts.SourceFile => {
    const file = syntax.getSourceFile(path);
    if (!file) throw new Error(`${path} is not in the program`);
    return file;
  };
  const options = repoCompilerOptions();
  const declared = new Map([...files].map(([path, text]) => [path, isValidator(path) ? validatorDeclaration(validatorFileOrThrow(path)) : text]));
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host: inMemoryHost(options, declared) });
  const sourceFileOrThrow = (path: string): ts.SourceFile => {
    const file = program.getSourceFile(path);
    if (!file) throw new Error(`${path} is not in the program`);
    return file;
  };
  return {
    program,
    checker: program.getTypeChecker(),
    sourceFileOrThrow,
    validatorFileOrThrow,
    validatorProblemsOf: (path) => {
      const file = validatorFileOrThrow(path);
      return [...syntax.getSyntacticDiagnostics(file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")), ...validatorShapeProblems(file)];
    },
    diagnosticsOf: (path) => {
      const file = sourceFileOrThrow(path);
      return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((diagnostic) => {
        const line = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1;
        return `${String(line)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`;
      });
    },
  };
}

function validatorShapeProblems(file: ts.SourceFile): string[] {
  const problems: string[] = [];
  const exported: string[] = [];
  for (const statement of file.statements) {
    if (ts.isExportAssignment(statement)) exported.push("default");
    else if (ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      exported.push(...statement.declarationList.declarations.map((d) => d.name.getText(file)));
    } else if (!ts.isImportDeclaration(statement) && !ts.isVariableStatement(statement) && !ts.isFunctionDeclaration(statement)) {
      problems.push(`unexpected ${ts.SyntaxKind[statement.kind]} at top level: ${statement.getText(file).slice(0, 80)}`);
    }
  }
  if (exported.sort().join() !== "validate,validateResponse") problems.push(`exports ${exported.join(", ")}`);
  return problems;
}

function isValidator(path: string): boolean {
  return path.endsWith("/validate.ts");
}

/** The validators as index.ts sees them: the imports and the typed exports. */
function validatorDeclaration(file: ts.SourceFile): string {
  const imports = file.statements.filter(ts.isImportDeclaration).map((statement) => statement.getText(file));
  return `${imports.join("\n")}\nexport declare const validate: RequestValidator;\nexport declare const validateResponse: RequestValidator;\n`;
}

function repoCompilerOptions(): ts.CompilerOptions {
  const configPath = join(REPO_ROOT, "tsconfig.json");
  const { config } = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path)) as { config: unknown };
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, REPO_ROOT);
  // Generated code and the runtime need node's types; jest's would only cost time to parse.
  return { ...parsed.options, noEmit: true, types: ["node"] };
}

function inMemoryHost(options: ts.CompilerOptions, files: ReadonlyMap<string, string>): ts.CompilerHost {
  const host = typeCheckHost(options);
  const disk = { ...host };
  const directories = new Set<string>();
  for (const path of files.keys()) for (let dir = dirname(path); dir.startsWith(VIRTUAL_ROOT); dir = dirname(dir)) directories.add(dir);
  return {
    ...host,
    fileExists: (path) => files.has(resolve(path)) || disk.fileExists(path),
    readFile: (path) => files.get(resolve(path)) ?? disk.readFile(path),
    directoryExists: (path) => directories.has(resolve(path)) || (disk.directoryExists?.(path) ?? false),
    getSourceFile: (path, languageVersion, onError) => {
      const text = files.get(resolve(path));
      return text === undefined ? disk.getSourceFile(path, languageVersion, onError) : ts.createSourceFile(path, text, languageVersion, true);
    },
  };
}
