/**
 * The change report against what users meet: a backend written for
 * version 1 of the Signing flow, compiled against the client generated from
 * version 2, fails tsc exactly at the changes the report marks breaking and
 * caught by tsc; the request it builds, valid for version 1's request check,
 * is refused by version 2's exactly at the changes caught by tsc or the
 * validator (each module's spec.request, through the runtime's schema
 * checker, as createSession checks it). Both clients come from runCodegen,
 * as a user generates them.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareFlowModels, type FlowChange } from "../../../generator/changes/index";
import { locationOf, type Segment } from "../../../generator/changes/location";
import { runCodegen } from "../../../generator/pipeline";
import { buildFlowModelOrThrow } from "../../../generator/model/build-flow-model";
import type { FlowModel } from "../../../generator/model/types";
import { parseDescriptionOrThrow } from "../../../generator/read/load-description";
import type { FlowSpec } from "../../../runtime/flow-spec";
import { flowChecksOrThrow } from "../../../runtime/flow-checks.js";
import { issuesOf } from "../../../runtime/validation/schema-check";
import { REPO_ROOT, makeTempDir, removeDir, runtimeImportFor, typeCheck } from "../../fixtures/golden/compile";

const V1 = path.join(REPO_ROOT, "flows/signing.yaml");
const V2 = path.join(REPO_ROOT, "test/fixtures/changes/signing-v2.yaml");
const TEMPLATE = readFileSync(path.join(REPO_ROOT, "test/fixtures/changes/signing-consumer.ts.template"), "utf8");

let dir: string;
let changes: readonly FlowChange[];

beforeAll(async () => {
  dir = makeTempDir();
  for (const [version, description] of [
    ["v1", V1],
    ["v2", V2],
  ] as const) {
    copyFileSync(description, path.join(dir, `signing-${version}.yaml`));
    writeFileSync(
      path.join(dir, `${version}.config.json`),
      JSON.stringify({
        outputDir: version,
        runtimeImport: runtimeImportFor(path.join(dir, version)),
        flows: [{ name: "signing", source: { file: `signing-${version}.yaml` } }],
      }),
    );
    await runCodegen({ configPath: path.join(dir, `${version}.config.json`) });
    writeFileSync(
      path.join(dir, `consumer-${version}.ts`),
      TEMPLATE.replace("__FLOW_MODULE__", `./${version}/signing/index.js`),
    );
  }
  const model = (file: string): FlowModel => {
    const loaded = parseDescriptionOrThrow(readFileSync(file), path.relative(REPO_ROOT, file));
    return buildFlowModelOrThrow(loaded);
  };
  changes = compareFlowModels(model(V1), model(V2)).changes;
}, 60_000);

afterAll(() => {
  removeDir(dir);
});

const breakingAt = (...caughtBy: readonly string[]) =>
  [
    ...new Set(
      changes.filter((c) => c.severity === "breaking" && caughtBy.includes(c.caughtBy ?? "")).map((c) => c.location),
    ),
  ].sort();

describe("a consumer written for version 1", () => {
  it("fails tsc on version 2 exactly where the report says breaking [tsc], and nowhere on version 1", () => {
    const consumers = ["v1", "v2"].map((version) => path.join(dir, `consumer-${version}.ts`));
    const errors = typeCheck(consumers);
    const v1Errors = errors.filter((error) => error.includes("consumer-v1.ts:"));
    expect(v1Errors).toEqual([]);

    const markers = TEMPLATE.split("\n").map((line) => /^\/\/ change: (\S+)$/.exec(line)?.[1]);
    const located = errors
      .filter((error) => error.includes("consumer-v2.ts:"))
      .map((error) => {
        const line = Number(/consumer-v2\.ts:(\d+):/.exec(error)?.[1]);
        // The nearest marker above the line; an error before any marker is reported as itself.
        const marker = markers
          .slice(0, line)
          .reverse()
          .find((m) => m !== undefined);
        return marker ?? error;
      });
    expect([...new Set(located)].sort()).toEqual(breakingAt("tsc"));
    expect(breakingAt("tsc").length).toBeGreaterThanOrEqual(5);
  });

  it("builds a request version 1's check accepts and version 2's refuses exactly at the breaking [tsc] and [validator] changes", async () => {
    const { request } = (await import(path.join(dir, "consumer-v1.ts"))) as { request: unknown };
    const issues = async (version: string) => {
      const { spec } = (await import(path.join(dir, version, "signing/index.ts"))) as { spec: FlowSpec };
      return issuesOf(flowChecksOrThrow(spec).request, request);
    };

    expect(await issues("v1")).toEqual([]);
    const v2 = await issues("v2");
    expect(v2).not.toEqual([]);
    const refusedAt = v2.map((issue) => locationOfIssue(issue.path));
    expect([...new Set(refusedAt)].sort()).toEqual(breakingAt("tsc", "validator"));
    // What only the service would refuse (a moved part name) passes both checks, as the report says.
    expect(breakingAt("service")).toEqual(["input.documentsToSign.documents[].source"]);
  });
});

/**
 * An issue's readable path (`input.documentsToSign.documents[0]["my-key"]`, a missing or extra key
 * at its end) as a change location: indices become `[]`.
 */
function locationOfIssue(readable: string): string {
  const segments: Segment[] = [];
  for (const [, name, index, quoted] of readable.matchAll(
    /(?:^|\.)([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g,
  )) {
    if (index !== undefined) segments.push("[]");
    else segments.push({ key: name ?? (JSON.parse(quoted ?? '""') as string) });
  }
  return locationOf(segments);
}
