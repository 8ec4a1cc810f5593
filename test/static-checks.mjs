// The type check and typescript-eslint on one TypeScript program, as `npm test` runs them.
// `tsc -p tsconfig.json` and `eslint .` each build the program of tsconfig.json and
// type-check it, which is most of what either costs; here it is built and checked once:
// tsc's diagnostics first, then eslint with `parserOptions.programs` set to that program,
// so the type-aware rules ask a checker that has already done its work.
// `npm run typecheck` and `npm run lint` still run each on its own.
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { importsPastEntry } from "./entry-imports.mjs";
import { climbingImports, moduleCycles } from "./module-cycles.mjs";

const root = path.resolve(import.meta.dirname, "..");

function typeCheck() {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
  });
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  return { program, diagnostics };
}

const { program, diagnostics } = typeCheck();
if (diagnostics.length > 0) {
  const host = { getCanonicalFileName: (file) => file, getCurrentDirectory: () => root, getNewLine: () => "\n" };
  // As tsc prints them: with colour and context on a terminal, plain in a log.
  process.stderr.write(
    process.stderr.isTTY
      ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host)
      : ts.formatDiagnostics(diagnostics, host),
  );
}

// Every TypeScript file eslint lints is in tsconfig.json's program (eslint stops with an error on one that
// is not); the JavaScript files get eslint's recommended rules without types (eslint.config.mjs).
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { programs: [program], projectService: false, project: null } } },
});
const results = await eslint.lintFiles(["."]);
const report = await (await eslint.loadFormatter("stylish")).format(results);
if (report) process.stderr.write(report);

// No module imports itself through others, not even for types: one direction between concepts.
const cycles = moduleCycles(program, root);
for (const cycle of cycles) process.stderr.write(`import cycle: ${cycle.join(" ↔ ")}\n`);

// cli/ and the emulator reach the generator only through its entry, generator/index.ts.
const pastEntry = importsPastEntry(program, root);
for (const { file, target, entry } of pastEntry)
  process.stderr.write(`import past the entry: ${file} → ${target} (only ${entry})\n`);

// Each area's intended layering (module-cycles.mjs, climbingImports): its rooms (subfolders, one concept
// each) and what may import what. The emulator's rooms stand apart on its floor and only its index.ts puts
// them together; the runtime's rooms build on one another in this order, and its floor's top (the client,
// the calls) builds on them.
const LAYOUTS = {
  emulator: { rooms: [] },
  runtime: {
    rooms: ["validation", "patterns", "secrets", "exchange", "platform", "webhooks"],
    floorBuildsOnRooms: true,
  },
};
const climbs = climbingImports(program, root, LAYOUTS);
for (const { from, to } of climbs)
  process.stderr.write(
    `import climbs: ${from} → ${to} (shared modules belong at the area's root; only its index.ts assembles rooms)\n`,
  );

const lintErrors = results.reduce((sum, result) => sum + result.errorCount, 0);
const problems = diagnostics.length + lintErrors + cycles.length + pastEntry.length + climbs.length;
if (problems > 0) {
  process.stderr.write(
    `static checks: ${diagnostics.length} type error(s), ${lintErrors} lint error(s), ${cycles.length} import cycle(s), ${pastEntry.length} import(s) past an entry, ${climbs.length} climbing import(s)\n`,
  );
  process.exitCode = 1;
}
