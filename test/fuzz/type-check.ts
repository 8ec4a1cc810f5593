/**
 * One TypeScript program for every generated file of a fuzz run: the files
 * stay in memory under a folder of the repo that is never written (so the
 * runtime import resolves to runtime/flow-module.ts, and the pattern
 * engine's through the repo's paths), and are checked under the repo's own
 * strict options. One program, because a program per flow would
 * type-check the runtime and the libraries again for each.
 */
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../fixtures/golden/compile.js";
import { typeCheckHost } from "../support/type-check-host.js";

/** Where the generated files seem to be; nothing is written there. */
export const VIRTUAL_ROOT = join(REPO_ROOT, "test", ".fuzz-in-memory");

/** The runtimeImport that reaches the runtime's flow-module entry (runtime/flow-module.ts) from `<VIRTUAL_ROOT>/<case>/<flow>/index.ts`. */
export const RUNTIME_IMPORT = relative(join(VIRTUAL_ROOT, "case", "flow"), join(REPO_ROOT, "runtime", "flow-module.js"))
  .split(sep)
  .join("/");

export interface CheckedProgram {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  /** Diagnostics of one of the in-memory files, as `line: message`. */
  diagnosticsOf(path: string): string[];
  sourceFileOrThrow(path: string): ts.SourceFile;
}

/** `files`: path → content: each flow's one module (index.ts, its schemas are JSON in `spec`) and the judge's files. */
export function checkProgram(files: ReadonlyMap<string, string>): CheckedProgram {
  const options = repoCompilerOptions();
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host: inMemoryHost(options, files) });
  const sourceFileOrThrow = (path: string): ts.SourceFile => {
    const file = program.getSourceFile(path);
    if (!file) throw new Error(`${path} is not in the program`);
    return file;
  };
  return {
    program,
    checker: program.getTypeChecker(),
    sourceFileOrThrow,
    diagnosticsOf: (path) => {
      const file = sourceFileOrThrow(path);
      return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((diagnostic) => {
        const line = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1;
        return `${String(line)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`;
      });
    },
  };
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
  for (const path of files.keys())
    for (let dir = dirname(path); dir.startsWith(VIRTUAL_ROOT); dir = dirname(dir)) directories.add(dir);
  return {
    ...host,
    fileExists: (path) => files.has(resolve(path)) || disk.fileExists(path),
    readFile: (path) => files.get(resolve(path)) ?? disk.readFile(path),
    directoryExists: (path) => directories.has(resolve(path)) || (disk.directoryExists?.(path) ?? false),
    getSourceFile: (path, languageVersion, onError) => {
      const text = files.get(resolve(path));
      return text === undefined
        ? disk.getSourceFile(path, languageVersion, onError)
        : ts.createSourceFile(path, text, languageVersion, true);
    },
  };
}
