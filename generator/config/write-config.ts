/**
 * The one writer of codegen.config.json's text, for `flowsmith init` and
 * `flowsmith add`: a new config is its keys and an empty `flows`, and every
 * entry is appended to it as a person would, one a line, so a config init
 * writes and one add starts or extends read alike. Appending keeps every
 * other byte of the file as it was (keys, their order, comments and trailing
 * commas, how each entry is laid out, the final newline); jsonc-parser finds
 * where the array ends. A file is written whole beside its place and then
 * moved there, so a reader never sees half of it.
 */
import { chmod, link, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { createScanner, findNodeAtLocation, parseTree } from "jsonc-parser";
import { CodegenError } from "../errors.js";
import { isTaken } from "../file-checks.js";
import { TOKEN } from "./config-text.js";
import type { UserConfig, UserFlowConfig } from "./config-types.js";

/** Where `$schema` points when flowsmith is installed beside the config. */
export const DEFAULT_SCHEMA_PATH = "./node_modules/flowsmith/codegen.config.schema.json";

/** What a new config says besides its flows. */
export interface NewConfig {
  /** `$schema`, relative to the config (schemaPathFor). */
  readonly schema: string;
  readonly outputDir: string;
  /** Written on one line when both addresses are given (`init --from-api`). */
  readonly service?: { readonly baseUrl: string; readonly authUrl: string };
  /** Appended in order, one a line, as `add` appends one. */
  readonly flows?: readonly UserFlowConfig[];
}

export function newConfigText(config: NewConfig): string {
  const keys: Pick<UserConfig, "$schema" | "outputDir" | "service"> = {
    $schema: config.schema,
    outputDir: config.outputDir,
    ...(config.service ? { service: config.service } : {}),
  };
  const lines = Object.entries(keys).map(([key, value]) => `  ${JSON.stringify(key)}: ${oneLine(value)},`);
  const empty = ["{", ...lines, '  "flows": []', "}", ""].join("\n");
  return (config.flows ?? []).reduce(withFlowAppended, empty);
}

/**
 * `$schema` for a config in `dir`: the installed flowsmith's schema, relative
 * to it, when flowsmith is in a node_modules of that folder or one above (a
 * workspace); else where an install beside the config puts it.
 */
export async function schemaPathFor(dir: string): Promise<string> {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, "node_modules", "flowsmith", "codegen.config.schema.json");
    const relative = path.relative(dir, candidate).split(path.sep).join("/");
    if (await isTaken(candidate)) return relative.startsWith("../") ? relative : `./${relative}`;
    if (path.dirname(at) === at) return DEFAULT_SCHEMA_PATH;
  }
}

/** The new text; `text` is a config that loadConfigOrThrow accepted, or newConfigText's (so `flows` is an array). */
export function withFlowAppended(text: string, entry: UserFlowConfig): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const flows = findNodeAtLocation(parseTree(text) ?? { type: "null", offset: 0, length: 0 }, ["flows"]);
  // Unreachable for a config loadConfigOrThrow accepted (its schema requires the array): a bug, not a user error.
  // parseTree's defaults read comments and trailing commas, as load-config does.
  if (flows?.type !== "array")
    throw new Error('the config accepted on load has no "flows" array to append to (please report it)');
  const json = oneLine(entry);
  const last = flows.children?.at(-1);
  if (last) {
    const end = last.offset + last.length;
    const indent = indentOfLineAt(text, last.offset);
    // What follows the last entry on its line: a trailing comma, comments (JSONC). They stay on that line.
    const rest = restOfLineOrUndefined(text, end);
    const tail = rest ? text.slice(end, rest.lineEnd) : "";
    if (!rest || tail.trim() === "") return `${text.slice(0, end)},${eol}${indent}${json}${text.slice(end)}`;
    const withoutComma =
      rest.comma === undefined ? tail : text.slice(end, rest.comma) + text.slice(rest.comma + 1, rest.lineEnd);
    return `${text.slice(0, end)},${withoutComma}${eol}${indent}${json}${rest.comma === undefined ? "" : ","}${text.slice(rest.lineEnd)}`;
  }
  // An empty array: the entry one level deeper than the line holding `"flows": [`, after what is inside (comments only).
  const outer = indentOfLineAt(text, flows.offset);
  const unit = /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
  const close = flows.offset + flows.length - 1;
  const inside = text.slice(flows.offset + 1, close).trimEnd();
  return `${text.slice(0, flows.offset + 1)}${inside}${eol}${outer}${unit}${json}${eol}${outer}${text.slice(close)}`;
}

/**
 * After `offset`, up to the end of its line: spaces, at most one comma and
 * comments (one scan by jsonc-parser's scanner, in linear time). Undefined
 * when anything else follows on the line, or a comment runs on to the next.
 */
function restOfLineOrUndefined(
  text: string,
  offset: number,
): { comma: number | undefined; lineEnd: number } | undefined {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let comma: number | undefined;
  for (let token: number = scanner.scan(); ; token = scanner.scan()) {
    const at = scanner.getTokenOffset();
    if (token === TOKEN.lineBreak || token === TOKEN.eof) return { comma, lineEnd: at };
    if (token === TOKEN.comma && comma === undefined) comma = at;
    else if (token === TOKEN.blockComment && /[\r\n]/.test(text.slice(at, scanner.getPosition()))) return undefined;
    else if (token !== TOKEN.space && token !== TOKEN.lineComment && token !== TOKEN.blockComment) return undefined;
  }
}

/** `{ "name": "x", "source": { ... } }`, as the config's own entries are written. */
function oneLine(value: unknown): string {
  // JSON text never holds a raw newline inside a string, so only layout is joined.
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");
}

function indentOfLineAt(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? "";
}

/** Replaces the config (`flowsmith add`). */
export async function writeConfigOrThrow(file: string, text: string): Promise<void> {
  // Through a symbolic link to the file it names: the link stays a link, and a shared config gets the entry. The file keeps its mode.
  const target = await realpath(file).catch(() => file);
  const mode = (await stat(target).catch(() => undefined))?.mode;
  const partial = `${target}.flowsmith-${process.pid}.partial`;
  try {
    await writeFile(partial, text);
    if (mode !== undefined) await chmod(partial, mode & 0o7777);
    await rename(partial, target);
  } finally {
    // force ignores a missing file, not ENOTDIR: the cleanup must not replace the error being reported.
    await rm(partial, { force: true }).catch(() => undefined);
  }
}

/**
 * A config that must not exist yet (`flowsmith init`): written whole beside
 * it, then linked into place, which fails when the file appeared meanwhile,
 * so an existing config is never replaced.
 */
export async function writeNewConfigOrThrow(file: string, text: string): Promise<void> {
  const partial = `${file}.flowsmith-${process.pid}.partial`;
  try {
    await writeFile(partial, text);
    await link(partial, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CodegenError(
      "WRITE_FAILED",
      code === "EEXIST"
        ? `${path.basename(file)} appeared while init ran; it was left as it is`
        : `could not write ${file}: ${String(code ?? error)}`,
      { file },
      { cause: error },
    );
  } finally {
    await rm(partial, { force: true }).catch(() => undefined);
  }
}
