/**
 * Every value the runtime puts into a path is one segment (issue 10): the
 * server records the raw request target (node:http's req.url is exactly what
 * the client sent, unnormalized) and no hostile id may change the path or
 * add a query or fragment.
 */
import { type Client } from "../../runtime/index.js";
import type { FlowSpec } from "../../runtime/flow-module.js";
import { clientFor } from "./support/clients.js";
import { createdSession, json, startFakeService, type FakeService } from "./support/fake-service.js";
import { acceptAll, createSessionFor } from "./support/specs.js";

let service: FakeService;
let client: Client<"staging">;

beforeAll(async () => {
  service = await startFakeService("/gw");
  client = clientFor(service, { retry: { maxRetries: 0 } });
});
afterAll(async () => {
  await client.close();
  await service.close();
});
beforeEach(() => {
  service.apiRequests.length = 0;
  service.onApi((req, res, recorded) => {
    if (req.method === "POST") {
      json(res, 201, createdSession(req.url ?? "", subjectIdOf(recorded.body)));
      return;
    }
    if (req.url?.endsWith("/step")) {
      json(res, 200, { stepType: "END", ticketId: null });
      return;
    }
    if (req.url?.includes("/files/")) return void res.writeHead(200).end("file");
    if (req.url?.endsWith("/datablocks")) {
      json(res, 200, {});
      return;
    }
    json(res, 200, { sessionStatus: "RUNNING", metadata: { subjectId: "x" } });
  });
});

const HOSTILE = [
  "..%2f..",
  "%2e%2e",
  "%2E",
  "x#frag",
  "x?y=1",
  "a/b",
  "../../flows",
  "a b\tc",
  "back\\slash",
  "semi;colon",
  "ü",
  "...",
  ".x",
  "%",
  "&=+",
];

/** The raw target: the prefix, then exactly `count` segments, no query, no fragment; the last decodes to `value`. */
function expectOneSegment(target: string | undefined, prefix: string, value: string): void {
  expect(target?.startsWith(prefix)).toBe(true);
  const rest = (target ?? "").slice(prefix.length);
  expect(rest).not.toMatch(/[/?#\\\s]/);
  expect(rest).not.toMatch(/^\.{1,2}$/);
  expect(decodeURIComponent(rest)).toBe(value);
}

describe.each(HOSTILE)("the value %j", (value) => {
  test("as sessionId of getSession, getDataBlocks and getStep", async () => {
    await client.getSession(value);
    await client.getDataBlocks(value);
    await client.getStep(value);
    const [session, blocks, step] = service.apiRequests.map((r) => r.url);
    expectOneSegment(session, "/gw/api/v1/staging/sessions/", value);
    expectOneSegment(blocks?.replace(/\/datablocks$/, ""), "/gw/api/v1/staging/sessions/", value);
    expectOneSegment(step?.replace(/\/step$/, ""), "/gw/api/v1/staging/sessions/", value);
  });

  test("as vaultEntryId of getFile", async () => {
    const file = await client.getFile(value);
    await file.body.cancel();
    expectOneSegment(service.apiRequests[0]?.url, "/gw/api/v1/staging/files/", value);
  });

  test("as a flow id: the session is created at that flow's path", async () => {
    const spec: FlowSpec<"staging"> = {
      id: value,
      version: 1,
      environment: "staging",
      // What a spec says its path is does not matter: the runtime builds it from id and environment.
      path: `/api/v1/flows/${value}/staging/sessions`,
      bodyForm: "json",
      locales: ["en"],
      request: true,
      response: true,
    };
    await createSessionFor(client, spec, acceptAll, { metadata: { subjectId: "s" } });
    const target = service.apiRequests[0]?.url ?? "";
    expect(target.endsWith("/staging/sessions")).toBe(true);
    expectOneSegment(target.replace(/\/staging\/sessions$/, ""), "/gw/api/v1/flows/", value);
  });
});

test.each([".", ".."])("%j cannot be a segment at all: INVALID_ARGUMENT, nothing sent", async (value) => {
  for (const call of [() => client.getSession(value), () => client.getFile(value), () => client.waitForStep(value)]) {
    await expect(call()).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("cannot be a path segment") as unknown,
    });
  }
  expect(service.apiRequests).toHaveLength(0);
});

test.each([
  ["an empty id", "", "must be a non-empty string"],
  ["a lone surrogate", "a\ud800", "not well-formed Unicode"],
])("%s is INVALID_ARGUMENT", async (_name, value, message) => {
  await expect(client.getSession(value)).rejects.toMatchObject({
    code: "INVALID_ARGUMENT",
    message: expect.stringContaining(message) as unknown,
  });
  expect(service.apiRequests).toHaveLength(0);
});

function subjectIdOf(body: Buffer): string | undefined {
  return (JSON.parse(body.toString() || "{}") as { metadata?: { subjectId?: string } }).metadata?.subjectId;
}

test("a spec object changed after its first use is sent to its new path", async () => {
  const spec: { -readonly [K in keyof FlowSpec<"staging">]: FlowSpec<"staging">[K] } = {
    id: "first",
    version: 1,
    environment: "staging",
    path: "/api/v1/flows/first/staging/sessions",
    bodyForm: "json",
    locales: ["en"],
    request: true,
    response: true,
  };
  await createSessionFor(client, spec, acceptAll, { metadata: { subjectId: "s" } });
  spec.id = "second one";
  await createSessionFor(client, spec, acceptAll, { metadata: { subjectId: "s" } });
  expect(service.apiRequests.map((r) => r.url)).toEqual([
    "/gw/api/v1/flows/first/staging/sessions",
    "/gw/api/v1/flows/second%20one/staging/sessions",
  ]);
});
