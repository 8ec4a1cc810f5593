/**
 * Generated validators carry no ajv messages: the runtime words each issue
 * from keyword and params. These tables check it says what ajv would have.
 */
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describeIssues, issuesFromAjv, readablePath } from "../../runtime/validation-issues.js";

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2, maxLength: 4, pattern: "^[a-z]+$" },
    day: { type: "string", format: "date" },
    count: { type: "integer", minimum: 1, maximum: 9, multipleOf: 2 },
    ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    tags: { type: "array", minItems: 1, maxItems: 2, items: { type: "string" } },
    locale: { type: "string", enum: ["en", "de"] },
    "odd key": { type: "boolean" },
  },
  required: ["name"],
  additionalProperties: false,
};

function compile(messages: boolean) {
  const ajv = new Ajv({ allErrors: true, messages, strict: true });
  addFormats(ajv);
  return ajv.compile(SCHEMA);
}

const CASES: [string, unknown, string[]][] = [
  ["missing property", {}, ["name is required"]],
  ["unknown property", { name: "ab", extra: 1 }, ["extra is not allowed here"]],
  ["wrong type", { name: 5 }, ["name must be string"]],
  ["too short, pattern", { name: "A" }, ["name must NOT have fewer than 2 characters", 'name must match pattern "^[a-z]+$"']],
  ["too long", { name: "abcde" }, ["name must NOT have more than 4 characters"]],
  ["format", { name: "ab", day: "tuesday" }, ['day must match format "date"']],
  [
    "minimum, multipleOf",
    { name: "ab", count: 0.5 },
    ["count must be integer", "count must be >= 1", "count must be multiple of 2"],
  ],
  ["maximum", { name: "ab", count: 10 }, ["count must be <= 9"]],
  ["exclusive bounds", { name: "ab", ratio: 1 }, ["ratio must be < 1"]],
  ["items", { name: "ab", tags: [] }, ["tags must NOT have fewer than 1 items"]],
  [
    "too many items, item type",
    { name: "ab", tags: ["a", "b", 3] },
    ["tags must NOT have more than 2 items", "tags[2] must be string"],
  ],
  ["enum", { name: "ab", locale: "fr" }, ['locale must be one of "en", "de"']],
  ["quoted key", { name: "ab", "odd key": 1 }, ['["odd key"] must be boolean']],
];

describe("issuesFromAjv", () => {
  const withoutMessages = compile(false);
  const withMessages = compile(true);

  test.each(CASES)("%s", (_, data, want) => {
    expect(withoutMessages(data)).toBe(false);
    const issues = issuesFromAjv(withoutMessages.errors);
    expect(issues.map((issue) => `${issue.path} ${issue.message}`)).toEqual(want);
    withMessages(data);
    expect(issuesFromAjv(withMessages.errors)).toEqual(issues);
  });

  test("no errors at all still names the root", () => {
    expect(issuesFromAjv(null)).toEqual([{ path: "(root)", message: "is invalid" }]);
  });

  test("an unknown keyword says which one failed", () => {
    expect(issuesFromAjv([{ instancePath: "/a", keyword: "someKeyword", params: {} }])).toEqual([
      { path: "a", message: "fails someKeyword" },
    ]);
  });

  test("the message lists five issues and counts the rest", () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({ path: `f${String(i)}`, message: "is required" }));
    expect(describeIssues(issues)).toBe(
      "f0 is required; f1 is required; f2 is required; f3 is required; f4 is required; and 2 more",
    );
    expect(readablePath(["input", "documents", 0, "my-key"])).toBe('input.documents[0]["my-key"]');
  });
});
