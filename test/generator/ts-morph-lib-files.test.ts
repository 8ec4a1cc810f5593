/**
 * cli/ts-morph-lib-files.ts: the CLI loads @ts-morph/common without its
 * lib-file array. Read against the installed module (an upgrade that moves
 * the array fails here), and the hook tried in a child process, where a
 * registration cannot reach the other tests.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { withoutLibFiles } from "../../cli/ts-morph-lib-files";
import { REPO } from "./codegen-project";

const COMMON = require.resolve("@ts-morph/common", { paths: [path.dirname(require.resolve("ts-morph"))] });
const BIN = path.join(REPO, "bin", "flowsmith.js");

/** A module's shape as @ts-morph/common writes it, around an array literal of `entries`. */
function commonLike(entries: string, between = "\n\n"): Buffer {
  return Buffer.from(
    `"use strict";\nconst a = 1;\nconst libFiles = [{\n        fileName: "lib.d.ts",\n        text: ${entries}\n    }];` +
      `${between}function getLibFiles() {\n    return libFiles;\n}\nexports.getLibFiles = getLibFiles;\n`,
  );
}

describe("withoutLibFiles", () => {
  it("empties the array of the installed @ts-morph/common, which then loads with every other export", () => {
    const installed = readFileSync(COMMON);
    const lean = withoutLibFiles(installed);
    if (!lean) throw new Error(`the lib-file array of ${COMMON} is not where cli/ts-morph-lib-files.ts looks`);
    expect(installed.length - lean.length).toBeGreaterThan(installed.length / 2);
    // Compiled as that very file (its requires resolve beside it), in a child process.
    const script = [
      'const Module = require("node:module");',
      `const file = ${JSON.stringify(COMMON)};`,
      "const m = new Module(file, null);",
      "m.filename = file;",
      "m.paths = Module._nodeModulePaths(require('node:path').dirname(file));",
      "m._compile(require('node:fs').readFileSync(0, 'utf8'), file);",
      "const full = require(file);",
      "console.log(JSON.stringify({ libFiles: m.exports.getLibFiles().length, fullLibFiles: full.getLibFiles().length,",
      "  exports: Object.keys(m.exports).sort(), fullExports: Object.keys(full).sort(),",
      "  version: m.exports.ts.version, fullVersion: full.ts.version }));",
    ].join("\n");
    const loaded = JSON.parse(execFileSync(process.execPath, ["-e", script], { input: lean, encoding: "utf8" })) as {
      libFiles: number;
      fullLibFiles: number;
      exports: string[];
      fullExports: string[];
      version: string;
      fullVersion: string;
    };
    expect(loaded.libFiles).toBe(0);
    expect(loaded.fullLibFiles).toBeGreaterThan(0);
    expect(loaded.exports).toEqual(loaded.fullExports);
    expect(loaded.version).toBe(loaded.fullVersion);
  });

  it("leaves a module alone unless it holds exactly one such array right before getLibFiles", () => {
    expect(withoutLibFiles(commonLike('"x"'))?.toString()).toBe(
      '"use strict";\nconst a = 1;\nconst libFiles = [];\n\nfunction getLibFiles() {\n    return libFiles;\n}\nexports.getLibFiles = getLibFiles;\n',
    );
    // Blank lines of any kind between the array and getLibFiles.
    expect(withoutLibFiles(commonLike('"x"', " \r\n\t\r\n"))?.toString()).toContain(
      "const libFiles = [];\n\nfunction getLibFiles()",
    );
    // Something declared between the array and getLibFiles would be lost: not touched.
    expect(withoutLibFiles(commonLike('"x"', "\nconst kept = 2;\n"))).toBeUndefined();
    // A declaration at column 0 inside what ends in `}];` is not the array's: the cut would lose it.
    expect(withoutLibFiles(commonLike('"x"\n    }];\nconst helper = [{\n        x: 1'))).toBeUndefined();
    // A second array, or the marker inside a string: not the layout this was written for.
    expect(withoutLibFiles(commonLike('"x"}, {\n const libFiles = [{ "'))).toBeUndefined();
    expect(withoutLibFiles(commonLike('"function getLibFiles()"'))).toBeUndefined();
    expect(withoutLibFiles(Buffer.from("module.exports = 1;\n"))).toBeUndefined();
    expect(withoutLibFiles(new Uint8Array(0))).toBeUndefined();
  });
});

describe("skipTsMorphLibFiles (the built bin, which calls it)", () => {
  it("registers where Node has synchronous hooks; ts-morph then loads without lib files and still prints", () => {
    const script = [
      // The bin as `flowsmith --version` runs it: registering comes before anything loads ts-morph.
      `process.argv = [process.execPath, ${JSON.stringify(BIN)}, "--version"];`,
      `require(${JSON.stringify(BIN)});`,
      'const { printStructure, StructureKind, Project } = require("ts-morph");',
      `const common = require(${JSON.stringify(COMMON)});`,
      "const printed = printStructure({ kind: StructureKind.TypeAlias, name: 'A', type: 'string' });",
      "const parsed = new Project({ useInMemoryFileSystem: true }).createSourceFile('a.ts', 'type A = 1;').getTypeAliases().length;",
      "console.log(JSON.stringify({ hooks: typeof require('node:module').registerHooks === 'function',",
      "  libFiles: common.getLibFiles().length, printed, parsed }));",
    ].join("\n");
    const output = execFileSync(process.execPath, ["-e", script], { cwd: REPO, encoding: "utf8" });
    const result = JSON.parse(output.trim().split("\n").at(-1) ?? "") as {
      hooks: boolean;
      libFiles: number;
      printed: string;
      parsed: number;
    };
    expect(output).toMatch(/^flowsmith \d/m);
    // CI's jest runs on Node 20 (no hooks); the consumer test runs the installed bin on Node 22 and 24 as well.
    if (result.hooks) expect(result.libFiles).toBe(0);
    else expect(result.libFiles).toBeGreaterThan(0);
    expect(result.printed).toBe("type A = string;");
    expect(result.parsed).toBe(1);
  });
});
