/**
 * The two forms of a change report: text lines that stay one line whatever
 * the description holds, and JSON that is the same bytes for the same input.
 * Plus the entry codegen's report will call.
 */
import {
  compareFlowModels,
  formatChangesJson,
  formatFlowChanges,
  reportFlowChanges,
  reportFlowChangesSince,
  type ChangesDocument,
  type FlowChanges,
} from "../../../generator/changes/index";
import { buildFlowModelOrThrow } from "../../../generator/model/build-flow-model";
import type { FlowModel } from "../../../generator/model/types";
import { parseDescriptionOrThrow } from "../../../generator/read/load-description";
import type { DescriptionParts } from "../../fixtures/descriptions/make-description";
import { block, description, elsewhere, field } from "../../fixtures/changes/pairs";

function model(parts: DescriptionParts, file: string, name = "test-flow"): FlowModel {
  return buildFlowModelOrThrow(parseDescriptionOrThrow(description(parts), file), { name });
}

describe("formatFlowChanges", () => {
  it("keeps every change on one line and no control character raw, whatever the names and values", () => {
    const odd = "odd\nname\u001b[31m\u202e";
    const before = { ...block({ [odd]: { type: "string", enum: ["a\nb", "c"] } }), info: { title: "Two\nlines" } };
    const after = {
      ...block({ [odd]: { type: "string", enum: ["c"], pattern: "^x\u2028$" } }),
      info: { title: "Two\nlines" },
    };
    const lines = formatFlowChanges(compareFlowModels(model(before, "a.yaml"), model(after, "b.yaml")));
    expect(lines).toEqual([
      `"Two\\nlines" (flow f-123, staging) v1 → v1: 2 breaking, 0 compatible`,
      `  breaking    input.person["odd\\nname\\u001b[31m\\u202e"]  enum "a\\nb", "c" → "c" (removed "a\\nb")  [tsc]`,
      `  breaking    input.person["odd\\nname\\u001b[31m\\u202e"]  pattern none → "^x\\u2028$"  [validator]`,
    ]);
    for (const line of lines) expect(line).not.toMatch(/[\p{Cc}\u2028\u2029\u202e]/u);
  });

  it("writes locations as code would: quoted where a key is no identifier, `[]` for elements", () => {
    const before = block({
      ok: { type: "array", items: { type: "string" } },
      "2nd": { type: "string" },
      __proto__x: { type: "string" },
    });
    const after = block({
      ok: { type: "array", items: { type: "string", maxLength: 1 } },
      "2nd": { type: "string", maxLength: 1 },
      __proto__x: { type: "string", maxLength: 1 },
    });
    const proto = JSON.parse('{ "__proto__": { "type": "string" } }') as Record<string, unknown>;
    const locations = [
      ...compareFlowModels(model(before, "a.yaml"), model(after, "b.yaml")).changes,
      ...compareFlowModels(model(block({}), "a.yaml"), model(block(proto), "b.yaml")).changes,
    ].map((change) => change.location);
    expect(locations).toEqual([
      "input.person.__proto__x",
      "input.person.ok[]",
      'input.person["2nd"]',
      'input.person["__proto__"]',
    ]);
  });

  it("shows a moved id and environment in the header, and says when nothing changed", () => {
    const moved = compareFlowModels(
      model(field({ type: "string" }), "a.yaml"),
      model(elsewhere(field({ type: "string" }), "f-9", "live"), "b.yaml"),
    );
    expect(formatFlowChanges(moved)).toEqual([
      "Test flow (flow f-123 → f-9, staging → live) v1 → v1: 2 breaking, 0 compatible",
      "  breaking    (flow)  environment staging → live  [tsc]",
      "  breaking    (flow)  flow id f-123 → f-9  [service]",
    ]);
    const same = compareFlowModels(
      model(field({ type: "string" }), "a.yaml"),
      model(field({ type: "string", description: "new" }), "b.yaml"),
    );
    expect(formatFlowChanges(same)).toEqual([
      "Test flow (flow f-123, staging) v1 → v1: 0 breaking, 0 compatible",
      "  no changes to the request or the response",
    ]);
  });
});

describe("formatChangesJson", () => {
  const flow = (name: string, before: DescriptionParts, after: DescriptionParts): FlowChanges =>
    compareFlowModels(model(before, `${name}-old.yaml`, name), model(after, `${name}-new.yaml`, name));

  it("sorts flows by name and keys at every level, and keeps a `__proto__` key a key", () => {
    const b = flow("b-flow", field({ type: "string" }), field({ type: "string", maxLength: 3 }));
    const a = flow(
      "a-flow",
      field({ type: "object", default: JSON.parse('{ "__proto__": 1 }') as unknown }),
      field({ type: "object", default: { z: 1, a: 2 } }),
    );
    const text = formatChangesJson([b, a]);
    expect(text).toBe(formatChangesJson([a, b]));
    expect(text.endsWith("}\n")).toBe(true);
    const document = JSON.parse(text) as ChangesDocument;
    expect(Object.keys(document)).toEqual(["flows", "format", "summary", "version"]);
    expect(document.flows.map((f) => f.name)).toEqual(["a-flow", "b-flow"]);
    const [first] = document.flows;
    const change = first?.changes[0];
    expect(Object.keys(first ?? {})).toEqual(["after", "before", "changes", "name", "summary"]);
    expect(change).toMatchObject({ kind: "default", before: { ["__proto__"]: 1 }, after: { a: 2, z: 1 } });
    expect(Object.keys(change?.after as object)).toEqual(["a", "z"]);
    expect(Object.hasOwn(change?.before as object, "__proto__")).toBe(true);
    expect(document.summary).toEqual({ breaking: 1, compatible: 1 });
  });
});

describe("the report codegen prints", () => {
  it("comes from the previous description or model, built under the new flow's name", () => {
    const previous = parseDescriptionOrThrow(
      description(field({ type: "string", maxLength: 9 })),
      "generated/descriptions.json (x)",
    );
    const next = model(field({ type: "string", maxLength: 5 }), "flows/x.yaml", "x");
    const report = reportFlowChangesSince(previous, next);
    expect(report.breaking).toBe(true);
    expect(report.changes.name).toBe("x");
    expect(report.lines).toEqual([
      "Test flow (flow f-123, staging) v1 → v1: 1 breaking, 0 compatible",
      "  breaking    input.person.value  maxLength 9 → 5  [validator]",
    ]);
    expect(reportFlowChanges(buildFlowModelOrThrow(previous, { name: "x" }), next)).toEqual(report);
  });
});
