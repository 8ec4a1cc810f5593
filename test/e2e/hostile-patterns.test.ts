/**
 * Issue 20's probes, as a user meets them: a description whose patterns
 * backtrack catastrophically on a native RegExp (`^(a+)+$` on givenName,
 * `^([A-Za-z]+ ?)+$` on familyName) and values built to make them do so.
 * The generated client's preflight, the emulator and an action schema from
 * a step each answer at once. Each runs where a hang could not freeze the
 * test (a child process for the client, the emulator in its own process),
 * and must finish within a bound a backtracking run would exceed by many
 * orders of magnitude (test/support/bounded.ts). And issue 31's: a pattern
 * the linear-time engine cannot run is left to the service, by the client
 * and the emulator alike.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { parse, stringify } from "yaml";
import { runCodegen } from "../../generator/pipeline";
import { startEmulator } from "../../emulator/index";
import { makeTempDir, removeDir, REPO_ROOT } from "../fixtures/golden/compile";
import { startChildEmulator, type ChildEmulator } from "../emulator/child-emulator";
import { bearer, call, tokenFor } from "../emulator/fixtures";
import { scriptOutputOrThrow } from "../support/bounded-child";
import { NO_HANG_BOUND_MS } from "../support/bounded";

const AML_ID = "a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5";
/** The issue's probe, and one so long that a backtracking engine would never finish it. */
const HOSTILE = [`${"a".repeat(26)}!`, `${"a".repeat(10_000)}!`];

let dir: string;
let emulator: ChildEmulator;

/** A config of one flow: the AML sample with these patterns on basicIdentity's fields; returns its path. */
function writeFlow(folder: string, patterns: Record<string, string>): string {
  const description = parse(readFileSync(path.join(REPO_ROOT, "flows/aml-screening.yaml"), "utf8")) as {
    components: { schemas: { BasicIdentity: { properties: Record<string, Record<string, unknown>> } } };
  };
  const identity = description.components.schemas.BasicIdentity.properties;
  for (const [field, pattern] of Object.entries(patterns)) identity[field] = { ...identity[field], pattern };
  mkdirSync(path.join(folder, "flows"), { recursive: true });
  writeFileSync(path.join(folder, "flows/aml.yaml"), stringify(description));
  const configPath = path.join(folder, "codegen.config.json");
  writeFileSync(
    configPath,
    JSON.stringify({ outputDir: "out", flows: [{ name: "aml", source: { file: "flows/aml.yaml" } }] }),
  );
  return configPath;
}

beforeAll(async () => {
  dir = makeTempDir();
  const configPath = writeFlow(dir, { givenName: "^(a+)+$", familyName: "^([A-Za-z]+ ?)+$" });
  await runCodegen({ configPath });
  transpile(path.join(dir, "out"), path.join(dir, "js"));
  emulator = await startChildEmulator(["--config", configPath]);
}, 120_000);

afterAll(async () => {
  await emulator.stop();
  removeDir(dir);
});

const identityWith = (name: string) => ({ givenName: name, familyName: name, birthDate: "2000-01-01" });

test(
  "the generated client's preflight refuses hostile values at once, nothing sent",
  async () => {
    const { clientId, clientSecret } = emulator.clients.staging;
    const script = `
    const { createClient } = require("@flowsmith/runtime");
    const flow = require(${JSON.stringify(path.join(dir, "js/aml/index.js"))});
    const client = createClient(${JSON.stringify({ baseUrl: emulator.baseUrl, authUrl: emulator.authUrl, clientId, clientSecret, environment: "staging", userAgent: "hostile-patterns-test/1.0" })});
    (async () => {
      const results = [];
      for (const name of ${JSON.stringify(HOSTILE)}) {
        const request = { input: { basicIdentity: { givenName: name, familyName: name, birthDate: "2000-01-01" } }, metadata: { subjectId: "s" } };
        try {
          await flow.createSession(client, request);
          results.push("sent");
        } catch (error) {
          results.push({ name: error.name, code: error.code, issues: error.issues.map((issue) => issue.path + " " + issue.message) });
        }
      }
      await client.close();
      console.log(JSON.stringify(results));
    })();`;
    const results = (await scriptOutputOrThrow(script)) as { issues: string[] }[];
    expect(results).toHaveLength(HOSTILE.length);
    for (const result of results) {
      expect(result).toMatchObject({ name: "RequestValidationError", code: "VALIDATION_FAILED" });
      expect(result.issues).toEqual(
        expect.arrayContaining([
          'input.basicIdentity.givenName must match pattern "^(a+)+$"',
          'input.basicIdentity.familyName must match pattern "^([A-Za-z]+ ?)+$"',
        ]),
      );
    }
    // Refused before anything was sent: the emulator made no session (this test runs before the one that makes one).
    const listed = await call(`${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/sessions`, {
      headers: bearer(await tokenFor(emulator, "staging")),
    });
    expect(listed.json).toEqual({ sessions: [] });
  },
  NO_HANG_BOUND_MS * 2,
);

test(
  "the emulator refuses a hostile request at once, and a GET sent beside it is answered",
  async () => {
    const token = await tokenFor(emulator, "staging");
    const sessions = `${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/sessions`;
    const [hostile, long, get] = await Promise.all([
      ...HOSTILE.map((name) =>
        call(sessions, {
          method: "POST",
          headers: bearer(token, { "content-type": "application/json" }),
          body: JSON.stringify({ input: { basicIdentity: identityWith(name) }, metadata: { subjectId: "s" } }),
        }),
      ),
      call(`${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/openapi`, { headers: bearer(token) }),
    ]);
    for (const answer of [hostile, long]) {
      expect(answer?.status).toBe(400);
      expect(answer?.json).toMatchObject({ code: "VALIDATION_FAILED" });
      expect(answer?.text).toContain("must match pattern");
    }
    expect(get?.status).toBe(200);
    // A value that matches still makes a session: the patterns run, they are not skipped.
    const valid = await call(sessions, {
      method: "POST",
      headers: bearer(token, { "content-type": "application/json" }),
      body: JSON.stringify({
        input: { basicIdentity: { givenName: "aaa", familyName: "Anna Maria", birthDate: "2000-01-01" } },
        metadata: { subjectId: "s" },
      }),
    });
    expect(valid.status).toBe(201);
  },
  NO_HANG_BOUND_MS,
);

/** The generated TypeScript as CommonJS, as a user's build would make it; imports resolve from the repository. */
function transpile(from: string, to: string): void {
  for (const file of ts.sys.readDirectory(from, [".ts"]).map((each) => path.relative(from, each))) {
    const { outputText } = ts.transpileModule(readFileSync(path.join(from, file), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    writeFileSync(path.join(to, file.replace(/\.ts$/, ".js")), outputText);
  }
}

test(
  "a pattern RE2 cannot run (a lookahead) is left to the service: the client is generated, the report names the field, and a value the lookahead refuses is sent and accepted",
  async () => {
    // "No digit in the name", as a lookahead: RE2 has no lookaround, and no backtracking engine runs it instead.
    const lookahead = "^(?!.*\\d).+$";
    const folder = path.join(dir, "left-to-service");
    const configPath = writeFlow(folder, { givenName: lookahead, familyName: "^([A-Za-z]+ ?)+$" });
    const result = await runCodegen({ configPath });
    expect(result.flows.map((flow) => [flow.name, flow.status, flow.leftToService])).toEqual([
      [
        "aml",
        "generated",
        [
          {
            field: "request.input.basicIdentity.givenName",
            pointer: "#/components/schemas/BasicIdentity/properties/givenName/pattern",
            pattern: lookahead,
            reason: "a lookahead ((?= or (?!)",
          },
        ],
      ],
    ]);
    transpile(path.join(folder, "out"), path.join(folder, "js"));
    // What the service's own engine says of the value (a short text: nothing to backtrack over): refused.
    const withDigit = "Ada 1";
    expect(new RegExp(lookahead, "u").test(withDigit)).toBe(false);

    // The emulator cannot run the lookahead either: it leaves it out of the schema it checks, as the client does.
    // In this process, then: none of its patterns can backtrack.
    const served = await startEmulator({ configPath, createdMs: 0, stepMs: 0 });
    try {
      const script = `
      const { createClient } = require("@flowsmith/runtime");
      const flow = require(${JSON.stringify(path.join(folder, "js/aml/index.js"))});
      const client = createClient(${JSON.stringify({ baseUrl: served.baseUrl, authUrl: served.authUrl, ...served.clients.staging, environment: "staging", userAgent: "hostile-patterns-test/1.0" })});
      (async () => {
        const results = [];
        for (const familyName of ["Lovelace", ${JSON.stringify(HOSTILE[0])}]) {
          const request = { input: { basicIdentity: { givenName: ${JSON.stringify(withDigit)}, familyName, birthDate: "2000-01-01" } }, metadata: { subjectId: "s" } };
          try {
            const created = await flow.createSession(client, request);
            results.push({ created: typeof created.sessionContext.sessionId });
          } catch (error) {
            results.push({ name: error.name, issues: (error.issues ?? []).map((issue) => issue.path + " " + issue.message) });
          }
        }
        await client.close();
        console.log(JSON.stringify(results));
      })();`;
      const [sent, refused] = (await scriptOutputOrThrow(script)) as unknown[];
      // The lookahead's check is the service's: the client sends the value and the emulator accepts it.
      expect(sent).toEqual({ created: "string" });
      // The module's other pattern is still checked on the client (the issue's probe): only it is named.
      expect(refused).toEqual({
        name: "RequestValidationError",
        issues: ['input.basicIdentity.familyName must match pattern "^([A-Za-z]+ ?)+$"'],
      });
    } finally {
      await served.close();
    }
  },
  NO_HANG_BOUND_MS * 2,
);
