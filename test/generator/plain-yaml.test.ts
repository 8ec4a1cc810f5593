/**
 * generator/read/plain-yaml.ts reads a document only where the yaml package
 * would read it to the same values; otherwise it declines and the yaml
 * package reads it (with its errors and lines). Compared here on every
 * description in the repository, the fuzz suite's hostile descriptions
 * (JSON and YAML), and scalars and constructs where the two libraries differ.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { execFileSync } from "node:child_process";
import { parseDocument } from "yaml";
import { plainYamlOrUndefined } from "../../generator/read/plain-yaml";
import { flowCases } from "../fuzz/descriptions";
import { REPO } from "./codegen-project";

/** What the yaml package makes of a text (as yaml-source.ts asks it), or "error". */
function byYamlPackage(text: string): { value: unknown } | "error" {
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) return "error";
  try {
    return { value: document.toJS({ maxAliasCount: 1000 }) };
  } catch {
    return "error";
  }
}

/** Declined, or the same values (NaN, -0 and key order included) as the yaml package. */
function agreesOrDeclines(text: string): boolean {
  const plain = plainYamlOrUndefined(text);
  if (plain === undefined) return true;
  const full = byYamlPackage(text);
  return full !== "error" && isDeepStrictEqual(plain.value, full.value) && sameKeyOrder(plain.value, full.value);
}

function sameKeyOrder(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.every((item, index) => sameKeyOrder(item, b[index]));
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return true;
  const keys = Object.keys(a);
  return (
    isDeepStrictEqual(keys, Object.keys(b)) && keys.every((key) => sameKeyOrder((a as never)[key], (b as never)[key]))
  );
}

const SCALARS = [
  "0o17",
  "0x1F",
  "0X1F",
  "1_000",
  "+12",
  "-0",
  "007",
  "019",
  "0b101",
  "1:20",
  "12345678901234567890",
  "9007199254740993",
  ".inf",
  "-.Inf",
  "+.INF",
  ".NaN",
  ".nan",
  "1e3",
  "1E3",
  "1e+3",
  "1.5e-3",
  "1.",
  ".5",
  "+.5",
  "-1.0",
  "1.0e999",
  "1e1.5",
  "~",
  "null",
  "Null",
  "NULL",
  "nULL",
  "True",
  "TRUE",
  "tRue",
  "false",
  "yes",
  "on",
  "n",
  "2001-12-14",
  "2001-12-14T21:59:43Z",
  '"a\\x41\\u00e9\\N\\_\\L\\P"',
  "'it''s'",
  '"\\/"',
  "'multi\n  line'",
  '"multi\n\n  line"',
  "plain\n  folded\n\n  text",
];

const DOCUMENTS = [
  "",
  "# only a comment\n",
  "---\n",
  "a: 1\n...\n",
  "%YAML 1.1\n---\na: yes\n",
  "a: 1\n---\nb: 2\n",
  "a: 1\na: 2\n",
  "1: a\n'1': b\n",
  "a: &x {b: 1}\nc: *x\n",
  "<<: {a: 1}\nb: 2\n",
  "? a\n: b\n",
  "[a]: x\n",
  "{a: 1}: x\n",
  "null: x\n",
  "~: x\n",
  ": x\n",
  "'null': x\n",
  "a: !!str 1\n",
  "a: !custom x\n",
  "a: !!binary aGk=\n",
  "\ta: 1\n",
  "a:\n\t- 1\n",
  "a: -\n",
  "a: @x\n",
  "a: `x\n",
  "__proto__: {a: 1}\n",
  "a: |\n  line\n   more\n\n",
  "a: |-\n  x\n\n",
  "a: |+\n  x\n\n",
  "a: >\n  fold\n  this\n\n  para\n",
  "a: |2\n   indented\n",
  "a: [1, 2, {b: c}]\n",
  "a: {b: [], c: {}}\n",
  "- a\n- - b\n  - c\n",
  "a: b # comment\nc: 'd # e'\n",
  "a: b#c\n",
  "a:\n  - 1\n  -\n",
  "key with spaces: v\n",
  "'quoted key': v\n",
  '"\\u00e9": v\n',
  "a: 'x\n  y'\n",
  "a:    \n  b: 1\n",
  "a: b: c\n",
  "a:\nb\n",
  'a: "unterminated\n',
  "- [a, b\n",
  "x" + "y".repeat(1100) + ": v\n",
  "a: 1\r\nb: 2\r\n",
  "\uFEFFa: 1\n",
  '{"a": [1, 2.5, true, null, "s"]}',
];

describe("plainYamlOrUndefined", () => {
  it("reads every scalar as the yaml package does, or declines", () => {
    for (const scalar of SCALARS) {
      for (const text of [
        `a: ${scalar}\n`,
        `- ${scalar}\n`,
        `[${scalar.includes("\n") ? "x" : scalar}]`,
        `${scalar.split("\n")[0] ?? ""}: v\n`,
      ]) {
        expect([text, agreesOrDeclines(text)]).toEqual([text, true]);
      }
    }
  });

  it("agrees or declines on constructs where the libraries differ, and declines what the yaml package refuses", () => {
    for (const text of DOCUMENTS) expect([text, agreesOrDeclines(text)]).toEqual([text, true]);
    expect(plainYamlOrUndefined("a: 1\na: 2\n")).toBeUndefined();
    expect(plainYamlOrUndefined("a: &x 1\nb: *x\n")).toBeUndefined();
    expect(plainYamlOrUndefined("")).toBeUndefined();
  });

  it("reads the repository's descriptions, the same as the yaml package", () => {
    const files = execFileSync("git", ["ls-files", "*.yaml", "*.yml"], { cwd: REPO, encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(10);
    let read = 0;
    for (const file of files) {
      const text = readFileSync(`${REPO}/${file}`, "utf8");
      expect([file, agreesOrDeclines(text)]).toEqual([file, true]);
      if (plainYamlOrUndefined(text)) read += 1;
    }
    // The samples are plain YAML: the fast path is taken, not declined everywhere.
    expect(plainYamlOrUndefined(readFileSync(`${REPO}/flows/signing.yaml`, "utf8"))).toBeDefined();
    expect(read).toBeGreaterThan(files.length / 2);
  });

  it("agrees with the yaml package on 300 of the fuzz suite's hostile descriptions", () => {
    const cases = fc.sample(flowCases(), { seed: 20_251_010, numRuns: 300 });
    const disagreeing = cases.filter((each) => !agreesOrDeclines(each.text)).map((each) => each.text.slice(0, 300));
    expect(disagreeing).toEqual([]);
  });

  it("reads JSON as YAML 1.2 (snapshots, descriptions.json), and declines a duplicate key the yaml package refuses", () => {
    const snapshot = `${JSON.stringify({ openapi: "3.0.3", info: { title: 'A \\ "b"', version: "1" }, x: [1, -0, 2.5e-7, null, true, "\u00e9"] }, null, 2)}\n`;
    expect(plainYamlOrUndefined(snapshot)).toEqual({ value: JSON.parse(snapshot) as unknown });
    const others = [
      `{"a": "${"* &x !y ? ".repeat(200)}", "b": [1, -0, 1e400, 2.5e-7, null, true]}`,
      '{"__proto__": {"x": 1}, "b": 2}',
      '{"a\\"b": "c\\":", "": {"key\\\\": "\\u0000\\ud800"}}',
      `{"${"k".repeat(1100)}": 1}`,
      '\n\t[{"a": 1}, {"a": 2}]\n',
      JSON.stringify({ a: '"'.repeat(100_000), b: { '"': '":' } }),
    ];
    for (const text of others) expect([text, agreesOrDeclines(text)]).toEqual([text, true]);
    const declined = [
      '{"a": 1, "a": 2}',
      '{"a": {"b": 1, "c": {"b": 2, "b": 3}}}',
      '[{"x": 1, "x": 1}]',
      `${"[".repeat(300)}${"]".repeat(300)}`,
    ];
    for (const text of declined) expect([text, plainYamlOrUndefined(text)]).toEqual([text, undefined]);
    expect(byYamlPackage('{"a": 1, "a": 2}')).toBe("error");
  });
});
