/**
 * The first call `flowsmith init` prints (generator/init/first-call.ts):
 * golden files for the sample flows, the README quick start's style (the
 * client a key a line, the flow's namespace from the output's index.ts),
 * and which flow's namespace in index.ts is its own name, checked against
 * what emit-index.ts writes. init.test.ts type-checks the printed call
 * against a real run's output.
 * After an intended change to the call, refresh the goldens with
 * `UPDATE_GOLDEN=1 npx jest test/generator/init-first-call` and review the diff.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { emitIndex } from "../../generator/emit/emit-index";
import { bindingName } from "../../generator/emit/escape";
import { firstCall, hasOwnNamespace } from "../../generator/init/first-call";
import { buildFlowModelOrThrow } from "../../generator/model/build-flow-model";
import { parseDescriptionOrThrow } from "../../generator/read/load-description";
import { REPO_ROOT } from "../fixtures/golden/compile";

const UPDATE = process.env["UPDATE_GOLDEN"] === "1";

function modelOf(flow: string) {
  const file = `flows/${flow}.yaml`;
  return buildFlowModelOrThrow(parseDescriptionOrThrow(readFileSync(path.join(REPO_ROOT, file)), file), { name: flow });
}

describe("the first call", () => {
  it.each<[string, { given: { flow: string; index: string }; want: { golden: string; reads: string[] } }]>([
    [
      "a JSON flow",
      {
        given: { flow: "aml-screening", index: "./generated/index.js" },
        want: { golden: "aml-screening.mts.golden", reads: [] },
      },
    ],
    [
      "a flow taking a document",
      {
        given: { flow: "signing", index: "./src/generated/index.js" },
        want: { golden: "signing.mts.golden", reads: ["document.pdf"] },
      },
    ],
    [
      "a live flow taking an image",
      {
        given: { flow: "document-verification", index: "./clients/index.js" },
        want: { golden: "document-verification.mts.golden", reads: ["photo.jpg"] },
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const call = firstCall(modelOf(given.flow), given.index);
    const file = path.join(REPO_ROOT, "test/fixtures/first-call", want.golden);
    if (UPDATE) writeFileSync(file, `${call.code}\n`);
    expect(`${call.code}\n`).toBe(readFileSync(file, "utf8"));
    expect(call.reads).toEqual(want.reads);
  });

  it("is written as the README's quick start writes its call", () => {
    const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const quickStart = /```ts\n([\s\S]*?amlScreening\.createSession[\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const call = firstCall(modelOf("aml-screening"), "./generated/index.js").code;
    for (const text of [quickStart, call]) {
      expect(text).toContain('import { amlScreening } from "./generated/index.js";\n');
      expect(text).toContain("\nconst session = await amlScreening.createSession(client, {\n");
    }
    // createClient({ ... }) a key a line, the same keys in the same order.
    const keys = (text: string) =>
      [...(/const client = createClient\(\{\n([\s\S]*?)\n\}\);/.exec(text)?.[1]?.matchAll(/^ {2}(\w+):/gm) ?? [])].map(
        (match) => match[1],
      );
    expect(keys(call)).toEqual(["baseUrl", "authUrl", "environment", "clientId", "clientSecret", "userAgent"]);
    expect(keys(quickStart)).toEqual(keys(call));
  });
});

describe("hasOwnNamespace: the flow whose namespace in index.ts is its binding name", () => {
  it.each<[string, { given: { name: string; names: string[] }; want: boolean }]>([
    ["a flow alone", { given: { name: "signing", names: ["signing"] }, want: true }],
    [
      "names making other bindings",
      { given: { name: "signing-live", names: ["signing-staging", "signing-live"] }, want: true },
    ],
    ["the first by name of two making one binding", { given: { name: "kyc-2", names: ["kyc2", "kyc-2"] }, want: true }],
    [
      "the second by name of two making one binding",
      { given: { name: "kyc2", names: ["kyc2", "kyc-2"] }, want: false },
    ],
  ])("%s", (_name, { given, want }) => {
    expect(hasOwnNamespace(given.name, given.names)).toBe(want);
  });

  it("agrees with the index.ts emit-index.ts writes", async () => {
    const names = [
      "kyc2",
      "kyc-2",
      "kyc--2",
      "signing",
      "delete",
      "class-act",
      "aml-screening-live",
      "aml-screening-staging",
    ];
    const { content } = await emitIndex(names.map((name) => ({ name })));
    const exported = new Map(
      [...content.matchAll(/export \* as (\S+) from "\.\/([^/]+)\/index\.js";/g)].map((match) => [match[2], match[1]]),
    );
    expect(exported.size).toBe(names.length);
    for (const name of names)
      expect([name, hasOwnNamespace(name, names)]).toEqual([name, exported.get(name) === bindingName(name, "flow")]);
  });
});
