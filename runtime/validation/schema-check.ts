/**
 * JSON Schema checked by walking the schema, never by compiling code: a
 * flow's request and 201 schemas (data in its generated module) and the
 * action schemas a step sends. Cloudflare Workers and Vercel Edge refuse
 * `eval` and `new Function`, which a compiling validator needs, and no
 * interpreting library runs `pattern` on a linear-time engine
 * (bench/analysis.md, "Validators as data"); this one takes the engine as a
 * parameter (patterns/).
 *
 * A schema is turned once into a tree of closures (a Check per keyword it
 * uses), kept per schema object, so a generated module's constant schema is
 * walked once per process and each call only runs the closures. Keywords:
 * type (and OpenAPI's nullable), enum, const, format, pattern, min/maxLength,
 * minimum, maximum, exclusiveMinimum/Maximum (numbers, or draft-04 booleans),
 * multipleOf, items (a schema or a tuple, with additionalItems),
 * min/maxItems, uniqueItems, properties, required, additionalProperties,
 * patternProperties, propertyNames, min/maxProperties, allOf, anyOf, oneOf,
 * not, if/then/else, and `$ref` to a place inside the same schema. Other
 * keywords are annotations (title, description, default, examples, ...) or
 * unknown, and are ignored, as ajv does with `strict: false`.
 */
import type { ValidationIssue } from "../errors.js";
import { escapePointerToken, isRecord, pointerTokens, valueAtTokens } from "../json.js";
import { formatCheckOrUndefined } from "./formats.js";
import { issueAt, type Path } from "./issues.js";
import { jsonEqual } from "./json-equal.js";
import type { PatternEngine, PatternTest } from "./pattern-engine.js";

export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/** Adds what is wrong with `value` (at `path`) to `issues`; `path` is one stack, pushed and popped on the way down. */
export type Check = (value: unknown, path: Path, issues: ValidationIssue[]) => void;

/** Where a schema's pattern is, and why it is left to the service. */
export interface UncheckedPattern {
  /** JSON pointer of the `pattern` keyword (or the patternProperties key) in the schema. */
  readonly pointer: string;
  readonly pattern: string;
  readonly reason: string;
}

export interface SchemaCheckOptions {
  /** How `pattern` runs; without one, every pattern is left unchecked (and said through onUnchecked). */
  readonly patterns?: PatternEngine;
  /** Told once per pattern the checker cannot run, when the schema is walked. */
  readonly onUnchecked?: (unchecked: UncheckedPattern) => void;
}

/** A schema that is not a JSON Schema (not an object or boolean), said with where in the schema. */
export class SchemaShapeError extends Error {
  constructor(
    readonly pointer: string,
    detail: string,
  ) {
    super(`${pointer === "" ? "the schema" : `the schema at ${pointer}`} ${detail}`);
  }
}

/** The check of `schema`; throws SchemaShapeError for a schema that cannot be one. */
export function schemaCheckOrThrow(schema: unknown, options: SchemaCheckOptions = {}): Check {
  return new Walk(schema, options).checkAt(schema, "");
}

/** All issues of `value` against a check made by schemaCheckOrThrow; empty when it fits. */
export function issuesOf(check: Check, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  check(value, [], issues);
  return issues;
}

type Keywords = { readonly [keyword: string]: unknown };

class Walk {
  /** By schema object: a `$ref` to a place already walked (or being walked: a recursive schema) reuses its check. */
  private readonly made = new Map<object, Check>();

  constructor(
    private readonly root: unknown,
    private readonly options: SchemaCheckOptions,
  ) {}

  checkAt(schema: unknown, pointer: string): Check {
    if (schema === true) return PASS;
    if (schema === false) return FAIL;
    if (!isRecord(schema)) throw new SchemaShapeError(pointer, "must be an object or a boolean");
    const known = this.made.get(schema);
    if (known) return known;
    // A placeholder first: a $ref cycle back to this schema finds it and calls through.
    let built: Check = PASS;
    this.made.set(schema, (value, path, issues) => {
      built(value, path, issues);
    });
    built = all(this.keywordChecks(schema, pointer));
    this.made.set(schema, built);
    return built;
  }

  private keywordChecks(s: Keywords, at: string): Check[] {
    if (typeof s.$ref === "string") return [this.refCheck(s.$ref, at)];
    const checks: Check[] = [];
    const types = typesOrThrow(s, at);
    if (types) checks.push(typeCheck(types));
    const guarded = (kind: "string" | "number" | "array" | "object", inner: Check[]): void => {
      if (inner.length > 0) checks.push(onlyFor(kind, all(inner)));
    };
    guarded("string", this.stringChecks(s, at));
    guarded("number", numberChecks(s, at));
    guarded("array", this.arrayChecks(s, at));
    guarded("object", this.objectChecks(s, at));
    const format = this.formatCheck(s);
    if (format) checks.push(format);
    if (Array.isArray(s.enum)) checks.push(enumCheck(s.enum));
    if (Object.hasOwn(s, "const")) checks.push(constCheck(s.const));
    checks.push(...this.combinatorChecks(s, at));
    return checks;
  }

  private refCheck(ref: string, at: string): Check {
    if (!ref.startsWith("#"))
      throw new SchemaShapeError(at, `has $ref ${JSON.stringify(ref)}, which points outside the schema`);
    let tokens: string[];
    try {
      tokens = pointerTokens(decodeURIComponent(ref.slice(1)));
    } catch {
      throw new SchemaShapeError(at, `has $ref ${JSON.stringify(ref)}, which is not a JSON pointer`);
    }
    const target = valueAtTokens(this.root, tokens);
    if (target === undefined) throw new SchemaShapeError(at, `has $ref ${JSON.stringify(ref)}, which points nowhere`);
    return this.checkAt(target, ref.slice(1));
  }

  private stringChecks(s: Keywords, at: string): Check[] {
    const checks: Check[] = [];
    const max = limitOrThrow(s, "maxLength", at);
    if (max !== undefined) checks.push(maxLengthCheck(max));
    const min = limitOrThrow(s, "minLength", at);
    if (min !== undefined) checks.push(minLengthCheck(min));
    if (typeof s.pattern === "string") {
      const test = this.patternTest(s.pattern, `${at}/pattern`);
      if (test) {
        const message = `must match pattern ${JSON.stringify(s.pattern)}`;
        checks.push((value, path, issues) => {
          if (!test.test(value as string)) issueAt(issues, path, message);
        });
      }
    }
    return checks;
  }

  private arrayChecks(s: Keywords, at: string): Check[] {
    const checks: Check[] = [];
    const max = limitOrThrow(s, "maxItems", at);
    if (max !== undefined)
      checks.push(sizeCheck((a) => (a as unknown[]).length > max, `must NOT have more than ${String(max)} items`));
    const min = limitOrThrow(s, "minItems", at);
    if (min !== undefined)
      checks.push(sizeCheck((a) => (a as unknown[]).length < min, `must NOT have fewer than ${String(min)} items`));
    if (Array.isArray(s.items)) {
      const tuple = s.items.map((item, i) => this.checkAt(item, `${at}/items/${String(i)}`));
      const rest = s.additionalItems === undefined ? PASS : this.checkAt(s.additionalItems, `${at}/additionalItems`);
      checks.push(elementsCheck((index) => tuple[index] ?? rest));
    } else if (s.items !== undefined) {
      const item = this.checkAt(s.items, `${at}/items`);
      checks.push(elementsCheck(() => item));
    }
    if (s.uniqueItems === true) checks.push(uniqueCheck);
    return checks;
  }

  private objectChecks(s: Keywords, at: string): Check[] {
    const checks: Check[] = [];
    const required = Array.isArray(s.required)
      ? s.required.filter((name): name is string => typeof name === "string")
      : [];
    if (required.length > 0) checks.push(requiredCheck(required));
    const properties = isRecord(s.properties) ? s.properties : {};
    const named = Object.keys(properties).map((name) => ({
      name,
      check: this.checkAt(properties[name], `${at}/properties/${escapePointerToken(name)}`),
    }));
    const patterned = isRecord(s.patternProperties)
      ? Object.keys(s.patternProperties).flatMap((pattern) => {
          const where = `${at}/patternProperties/${escapePointerToken(pattern)}`;
          const test = this.patternTest(pattern, where);
          return test ? [{ test, check: this.checkAt((s.patternProperties as Keywords)[pattern], where) }] : [];
        })
      : [];
    const extra: Extra =
      s.additionalProperties === false
        ? "forbidden"
        : s.additionalProperties === undefined
          ? undefined
          : this.checkAt(s.additionalProperties, `${at}/additionalProperties`);
    if (extra || patterned.length > 0 || s.propertyNames !== undefined) {
      const names = s.propertyNames === undefined ? undefined : this.checkAt(s.propertyNames, `${at}/propertyNames`);
      checks.push(keysCheck(new Set(Object.keys(properties)), patterned, extra, names));
    }
    if (named.length > 0) checks.push(propertiesCheck(named));
    const max = limitOrThrow(s, "maxProperties", at);
    if (max !== undefined)
      checks.push(
        sizeCheck((o) => Object.keys(o as object).length > max, `must NOT have more than ${String(max)} properties`),
      );
    const min = limitOrThrow(s, "minProperties", at);
    if (min !== undefined)
      checks.push(
        sizeCheck((o) => Object.keys(o as object).length < min, `must NOT have fewer than ${String(min)} properties`),
      );
    return checks;
  }

  private combinatorChecks(s: Keywords, at: string): Check[] {
    const checks: Check[] = [];
    const list = (keyword: string): Check[] =>
      Array.isArray(s[keyword])
        ? (s[keyword] as unknown[]).map((sub, i) => this.checkAt(sub, `${at}/${keyword}/${String(i)}`))
        : [];
    checks.push(...list("allOf"));
    const anyOf = list("anyOf");
    if (anyOf.length > 0) checks.push(countCheck(anyOf, (n) => n >= 1, "must match a schema in anyOf"));
    const oneOf = list("oneOf");
    if (oneOf.length > 0) checks.push(countCheck(oneOf, (n) => n === 1, "must match exactly one schema in oneOf"));
    if (s.not !== undefined)
      checks.push(countCheck([this.checkAt(s.not, `${at}/not`)], (n) => n === 0, "must NOT be valid"));
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      const condition = this.checkAt(s.if, `${at}/if`);
      const then = s.then === undefined ? PASS : this.checkAt(s.then, `${at}/then`);
      const otherwise = s.else === undefined ? PASS : this.checkAt(s.else, `${at}/else`);
      checks.push((value, path, issues) => {
        (fits(condition, value) ? then : otherwise)(value, path, issues);
      });
    }
    return checks;
  }

  private formatCheck(s: Keywords): Check | undefined {
    if (typeof s.format !== "string") return undefined;
    const format = formatCheckOrUndefined(s.format);
    if (!format) return undefined;
    const message = `must match format ${JSON.stringify(s.format)}`;
    return (value, path, issues) => {
      if (typeof value === format.appliesTo && !format.test(value as never)) issueAt(issues, path, message);
    };
  }

  private patternTest(pattern: string, pointer: string): PatternTest | undefined {
    const { patterns, onUnchecked } = this.options;
    if (!patterns) {
      onUnchecked?.({ pointer, pattern, reason: "no linear-time pattern engine is loaded here" });
      return undefined;
    }
    const compiled = patterns.compile(pattern);
    if ("unsupported" in compiled) {
      onUnchecked?.({ pointer, pattern, reason: compiled.unsupported });
      return undefined;
    }
    return compiled;
  }
}

const PASS: Check = () => undefined;

/** The schema `false`: nothing fits it. */
const FAIL: Check = (_value, path, issues) => {
  issueAt(issues, path, "must NOT be present (the schema is false)");
};

function all(checks: readonly Check[]): Check {
  if (checks.length === 0) return PASS;
  if (checks.length === 1) return checks[0] as Check;
  return (value, path, issues) => {
    for (const check of checks) check(value, path, issues);
  };
}

/** Whether `value` fits `check` (for the combinators: their branches' own issues are not reported). */
function fits(check: Check, value: unknown): boolean {
  const issues: ValidationIssue[] = [];
  check(value, [], issues);
  return issues.length === 0;
}

type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";
const JSON_TYPES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

function typesOrThrow(s: Keywords, at: string): JsonType[] | undefined {
  if (s.type === undefined) return undefined;
  const listed: unknown[] = Array.isArray(s.type) ? s.type : [s.type];
  const types = listed.filter((type): type is JsonType => typeof type === "string" && JSON_TYPES.has(type));
  if (types.length !== listed.length)
    throw new SchemaShapeError(at, `has type ${JSON.stringify(s.type)}, which names no JSON type`);
  // OpenAPI 3.0: `nullable: true` admits null beside the type.
  if (s.nullable === true && !types.includes("null")) types.push("null");
  return types;
}

function typeCheck(types: readonly JsonType[]): Check {
  const message = `must be ${types.join(",")}`;
  return (value, path, issues) => {
    if (!types.some((type) => isOfType(value, type))) issueAt(issues, path, message);
  };
}

function isOfType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
  }
}

/** Type-specific keywords apply only to values of that type (JSON Schema: `maxLength` says nothing of a number). */
function onlyFor(kind: "string" | "number" | "array" | "object", check: Check): Check {
  const applies = APPLIES[kind];
  return (value, path, issues) => {
    if (applies(value)) check(value, path, issues);
  };
}

const APPLIES: { readonly [kind in "string" | "number" | "array" | "object"]: (value: unknown) => boolean } = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number",
  array: (value) => Array.isArray(value),
  object: (value) => isRecord(value),
};

function limitOrThrow(s: Keywords, keyword: string, at: string): number | undefined {
  const limit = s[keyword];
  if (limit === undefined) return undefined;
  if (typeof limit !== "number" || !Number.isFinite(limit))
    throw new SchemaShapeError(at, `has ${keyword} ${JSON.stringify(limit)}, which is not a number`);
  return limit;
}

/**
 * Characters are code points, as JSON Schema counts them (a surrogate pair is
 * one). A string has at least as many UTF-16 units as code points, so only
 * one longer than the limit needs counting.
 */
function maxLengthCheck(max: number): Check {
  const message = `must NOT have more than ${String(max)} characters`;
  return (value, path, issues) => {
    const text = value as string;
    if (text.length > max && codePoints(text) > max) issueAt(issues, path, message);
  };
}

function minLengthCheck(min: number): Check {
  const message = `must NOT have fewer than ${String(min)} characters`;
  return (value, path, issues) => {
    const text = value as string;
    if (text.length < min || codePoints(text) < min) issueAt(issues, path, message);
  };
}

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    count++;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

function sizeCheck(wrong: (value: unknown) => boolean, message: string): Check {
  return (value, path, issues) => {
    if (wrong(value)) issueAt(issues, path, message);
  };
}

function numberChecks(s: Keywords, at: string): Check[] {
  const checks: Check[] = [];
  const bound = (keyword: string, exclusive: boolean, upper: boolean): void => {
    const limit = limitOrThrow(s, keyword, at);
    if (limit === undefined) return;
    const comparison = `${upper ? "<" : ">"}${exclusive ? "" : "="}`;
    const message = `must be ${comparison} ${String(limit)}`;
    const within = upper
      ? exclusive
        ? (n: number) => n < limit
        : (n: number) => n <= limit
      : exclusive
        ? (n: number) => n > limit
        : (n: number) => n >= limit;
    checks.push((value, path, issues) => {
      if (!within(value as number)) issueAt(issues, path, message);
    });
  };
  // Draft-04 (and OpenAPI 3.0) write exclusiveness as a boolean beside maximum/minimum; later drafts as a number.
  bound("maximum", s.exclusiveMaximum === true, true);
  bound("minimum", s.exclusiveMinimum === true, false);
  if (typeof s.exclusiveMaximum === "number") bound("exclusiveMaximum", true, true);
  if (typeof s.exclusiveMinimum === "number") bound("exclusiveMinimum", true, false);
  const step = limitOrThrow(s, "multipleOf", at);
  if (step !== undefined) {
    if (step <= 0) throw new SchemaShapeError(at, `has multipleOf ${String(step)}, which must be greater than 0`);
    const message = `must be multiple of ${String(step)}`;
    checks.push((value, path, issues) => {
      const ratio = (value as number) / step;
      if (!Number.isInteger(ratio)) issueAt(issues, path, message);
    });
  }
  return checks;
}

function elementsCheck(checkOf: (index: number) => Check): Check {
  return (value, path, issues) => {
    const elements = value as unknown[];
    for (let index = 0; index < elements.length; index++) {
      path.push(index);
      checkOf(index)(elements[index], path, issues);
      path.pop();
    }
  };
}

const uniqueCheck: Check = (value, path, issues) => {
  const elements = value as unknown[];
  // Quadratic, as every validator's deep comparison is; only arrays whose schema says uniqueItems pay it.
  for (let j = elements.length - 1; j > 0; j--) {
    for (let i = j - 1; i >= 0; i--) {
      if (jsonEqual(elements[i], elements[j])) {
        issueAt(issues, path, `must NOT have duplicate items (items ## ${String(j)} and ${String(i)} are identical)`);
        return;
      }
    }
  }
};

function requiredCheck(required: readonly string[]): Check {
  return (value, path, issues) => {
    const object = value as Keywords;
    for (const name of required) {
      // An own property only: `constructor` or `toString` is never "present" by inheritance; undefined is absent, as in JSON.
      if (!Object.hasOwn(object, name) || object[name] === undefined) {
        path.push(name);
        issueAt(issues, path, "is required");
        path.pop();
      }
    }
  };
}

function keysCheck(
  declared: ReadonlySet<string>,
  patterned: readonly { readonly test: PatternTest; readonly check: Check }[],
  extra: Extra,
  names: Check | undefined,
): Check {
  return (value, path, issues) => {
    const object = value as Keywords;
    for (const key of Object.keys(object)) {
      if (names && !fits(names, key)) {
        path.push(key);
        issueAt(issues, path, "must have a valid property name (propertyNames)");
        path.pop();
      }
      let matched = declared.has(key);
      for (const { test, check } of patterned) {
        if (!test.test(key)) continue;
        matched = true;
        path.push(key);
        check(object[key], path, issues);
        path.pop();
      }
      if (matched || extra === undefined) continue;
      path.push(key);
      if (extra === "forbidden") issueAt(issues, path, "is not allowed here");
      else extra(object[key], path, issues);
      path.pop();
    }
  };
}

/** additionalProperties: absent, false (an extra key is refused by name), or the schema extra values must fit. */
type Extra = Check | "forbidden" | undefined;

function propertiesCheck(named: readonly { readonly name: string; readonly check: Check }[]): Check {
  return (value, path, issues) => {
    const object = value as Keywords;
    for (const { name, check } of named) {
      if (!Object.hasOwn(object, name)) continue;
      const child = object[name];
      if (child === undefined) continue;
      path.push(name);
      check(child, path, issues);
      path.pop();
    }
  };
}

function countCheck(branches: readonly Check[], enough: (matching: number) => boolean, message: string): Check {
  return (value, path, issues) => {
    let matching = 0;
    for (const branch of branches) if (fits(branch, value)) matching++;
    if (!enough(matching)) issueAt(issues, path, message);
  };
}

function enumCheck(values: readonly unknown[]): Check {
  const message = `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
  const primitives = values.every((v) => v === null || typeof v !== "object");
  const set = new Set(values);
  return (value, path, issues) => {
    const found = primitives ? set.has(value) : values.some((allowed) => jsonEqual(allowed, value));
    if (!found) issueAt(issues, path, message);
  };
}

function constCheck(expected: unknown): Check {
  const message = `must be ${JSON.stringify(expected)}`;
  return (value, path, issues) => {
    if (!jsonEqual(expected, value)) issueAt(issues, path, message);
  };
}
