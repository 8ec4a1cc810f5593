/**
 * The compiler host of the tests' type checks (test/fixtures/golden/compile.ts,
 * test/fuzz/type-check.ts): the declarations under node_modules (lib.*.d.ts,
 * @types/node, undici's: nearly all of a program's files) are parsed once
 * per jest worker and reused by every program with the same options, as
 * TypeScript's language service reuses them between programs; parsing them
 * again was most of a program over one generated module. Files outside
 * node_modules (what the tests judge, and
 * the runtime's sources) are read fresh for every program.
 */
import ts from "typescript";

interface Worker {
  readonly sourceFiles: Map<string, ts.SourceFile>;
}

/** Outside test/support/jest-environment.js (another runner), a cache for this module only. */
const ownSourceFiles = new Map<string, ts.SourceFile>();

export function typeCheckHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const worker = (globalThis as { __flowsmithWorker?: () => Worker }).__flowsmithWorker;
  const cache = worker ? worker().sourceFiles : ownSourceFiles;
  // Parsing and binding depend on the options: a file is reused only by programs with the same ones.
  const optionsKey = JSON.stringify(options);
  return {
    ...host,
    getSourceFile: (path, languageVersionOrOptions, onError, shouldCreate) => {
      if (!path.includes("/node_modules/"))
        return host.getSourceFile(path, languageVersionOrOptions, onError, shouldCreate);
      const key = `${path}\n${JSON.stringify(languageVersionOrOptions)}\n${optionsKey}`;
      let file = cache.get(key);
      if (!file) {
        file = host.getSourceFile(path, languageVersionOrOptions, onError, shouldCreate);
        if (file) cache.set(key, file);
      }
      return file;
    },
  };
}
