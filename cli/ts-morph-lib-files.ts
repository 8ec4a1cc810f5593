/**
 * ts-morph keeps, in @ts-morph/common's one module, the text of TypeScript's
 * lib .d.ts files as an array of string literals (nearly all of that module's
 * bytes), for in-memory projects that type-check. The generator never
 * type-checks: its one Project is a parse of the template and sets
 * skipLoadingLibFiles (generator/template/flow-module-template.ts). Yet every
 * process that loads ts-morph parsed and held that text, the largest part of
 * codegen's peak memory beyond TypeScript's own (bench/analysis.md, "ts-morph's
 * lib files").
 *
 * Where Node has synchronous module hooks (module.registerHooks), the CLI
 * loads that module with the array empty, cut from its bytes before they are
 * decoded. Only the CLI does this, for its own process (bin/flowsmith.js);
 * what runs the generator in its own process (the tests, the benchmarks'
 * scripts) loads ts-morph as published. If the installed module does not
 * hold the array exactly where expected, it loads unchanged (the test of
 * this module reads the installed one, so an upgrade that moves it is seen;
 * a newer 28.x that moves it between releases loads as published).
 */
import { readFileSync } from "node:fs";
import * as nodeModule from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ARRAY_START = "const libFiles = [{";
const ARRAY_END = "}];";
/** What follows the array in the module; nothing but blank lines between the two. */
const NEXT_DECLARATION = "function getLibFiles()";
const EMPTY_ARRAY = "const libFiles = [];\n\n";
/** Space, tab, newline, carriage return. */
const BLANKS = [0x20, 0x09, 0x0a, 0x0d];
/** Space, tab. */
const INDENTS = [0x20, 0x09];

/**
 * @ts-morph/common's source with its lib-file array empty, or undefined when
 * the source does not hold one array literal ending right before
 * `function getLibFiles()` (then it must load as it is). Every line inside the
 * array is indented, as a literal's are in that module: a line at column 0
 * would be a declaration of its own, which the cut would lose.
 */
export function withoutLibFiles(source: Uint8Array): Buffer | undefined {
  const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const start = onlyIndexOf(bytes, ARRAY_START);
  const next = onlyIndexOf(bytes, NEXT_DECLARATION);
  if (start === undefined || next === undefined || next < start) return undefined;
  let end = next;
  while (end > start && BLANKS.includes(bytes[end - 1] ?? 0)) end -= 1;
  if (end - ARRAY_END.length < start + ARRAY_START.length) return undefined;
  if (bytes.toString("latin1", end - ARRAY_END.length, end) !== ARRAY_END) return undefined;
  for (
    let newline = bytes.indexOf(0x0a, start);
    newline >= 0 && newline < end;
    newline = bytes.indexOf(0x0a, newline + 1)
  ) {
    if (!INDENTS.includes(bytes[newline + 1] ?? 0)) return undefined;
  }
  return Buffer.concat([bytes.subarray(0, start), Buffer.from(EMPTY_ARRAY), bytes.subarray(next)]);
}

function onlyIndexOf(bytes: Buffer, text: string): number | undefined {
  const first = bytes.indexOf(text);
  return first >= 0 && bytes.indexOf(text, first + 1) < 0 ? first : undefined;
}

type RegisterHooks = (hooks: {
  load(url: string, context: LoadContext, nextLoad: (url: string, context: LoadContext) => LoadResult): LoadResult;
}) => unknown;
interface LoadContext {
  /** Undefined for a file require() loads as CommonJS, as that module is today. */
  readonly format?: string;
}
interface LoadResult {
  readonly format?: string | null;
  readonly source?: string | Uint8Array | null;
  readonly shortCircuit?: boolean;
}

/**
 * Registers the hook before ts-morph is first loaded. True if registered;
 * false on a Node without synchronous hooks (before 22.15 and 23.5), or when
 * ts-morph cannot be found from here (then nothing changes).
 */
export function skipTsMorphLibFiles(): boolean {
  const registerHooks = (nodeModule as { registerHooks?: RegisterHooks }).registerHooks;
  if (typeof registerHooks !== "function") return false;
  let commonPath: string;
  try {
    commonPath = require.resolve("@ts-morph/common", { paths: [path.dirname(require.resolve("ts-morph"))] });
  } catch {
    return false;
  }
  const commonUrl = pathToFileURL(commonPath).href;
  try {
    registerHooks({
      load(url, context, nextLoad) {
        // Only the CommonJS module it was written for: an ES module would need its format, which is Node's to find.
        if (url !== commonUrl || (context.format !== undefined && context.format !== "commonjs")) {
          return nextLoad(url, context);
        }
        // Read as bytes and cut before decoding: Node's own load would first decode the whole module to text.
        let lean: Buffer | undefined;
        try {
          lean = withoutLibFiles(readFileSync(commonPath));
        } catch {
          lean = undefined;
        }
        // CommonJS by the check above, whether Node named the format or left it to require().
        return lean ? { format: "commonjs", source: lean, shortCircuit: true } : nextLoad(url, context);
      },
    });
  } catch {
    // An optimisation only: a Node whose hooks refuse this one runs as before.
    return false;
  }
  return true;
}
