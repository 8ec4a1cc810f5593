/**
 * No wrong success (issue 11): a 2xx body that is not what the service
 * documents is an InvalidResponseError naming where it is wrong, never a
 * result. For createSession the error says that the session was created.
 */
import "../../runtime/patterns/index.js"; // the engine a generated module with a pattern imports
import { InvalidResponseError, type Client } from "../../runtime/index.js";
import type { FlowSpec } from "../../runtime/flow-module.js";
import { clientFor } from "./support/clients.js";
import { createdSession, json, startFakeService, type FakeService } from "./support/fake-service.js";
import { AML_SPEC, amlValidator, createSessionFor } from "./support/specs.js";

let service: FakeService;
let client: Client<"live">;

beforeEach(async () => {
  service = await startFakeService();
  client = clientFor<"live">(service, { environment: "live", retry: { maxRetries: 2, baseDelayMs: 1 } });
});
afterEach(async () => {
  await client.close();
  await service.close();
});

const REQUEST = {
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace" } },
  metadata: { subjectId: "cust-42" },
};
const VALID = createdSession(AML_SPEC.path, "cust-42");

function answering(status: number, body: unknown): void {
  service.onApi((_req, res) => {
    if (body === undefined) return void res.writeHead(status).end();
    if (typeof body === "string") return void res.writeHead(status, { "content-type": "text/plain" }).end(body);
    json(res, status, body);
  });
}

/** The valid body as a test changes it: the two nested objects typed as records. */
interface Created {
  [field: string]: unknown;
  sessionContext: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

const patched = (change: (body: Created) => void): Record<string, unknown> => {
  const copy = structuredClone(VALID) as Created;
  change(copy);
  return copy;
};

describe("createSession: a 201 that is not a created session", () => {
  test.each<[string, unknown, string]>([
    ["an unrelated object", { hello: "world" }, "flowId is required"],
    ["an array", [1, 2, 3], "(root) must be an object, got an array"],
    ["null", null, "(root) must be an object, got null"],
    ["a number", 5, "(root) must be an object, got number"],
    ["text", "created!", "(root) is not JSON"],
    ["an empty body", undefined, "(root) is required"],
    ["no sessionId", patched((b) => delete b.sessionContext.sessionId), "sessionContext.sessionId is required"],
    [
      "an empty sessionId",
      patched((b) => (b.sessionContext.sessionId = "")),
      "sessionContext.sessionId must not be empty",
    ],
    [
      "sessionStatus RUNNING",
      patched((b) => (b.sessionContext.sessionStatus = "RUNNING")),
      "sessionContext.sessionStatus must be one of CREATED",
    ],
    ["flowVersion as text", patched((b) => (b.flowVersion = "1")), "flowVersion must be a number, got string"],
    ["no playerUrl", patched((b) => delete b.playerUrl), "playerUrl is required"],
    [
      "createdAt not a string",
      patched((b) => (b.sessionContext.createdAt = 17)),
      "sessionContext.createdAt must be a string, got number",
    ],
    ["no metadata", patched((b) => Reflect.deleteProperty(b, "metadata")), "metadata is required"],
    [
      "a locale the service does not have",
      patched((b) => (b.metadata.locale = "xx")),
      "metadata.locale must be one of en, de, fr, pl, it, es",
    ],
    ["an unknown environment", patched((b) => (b.environment = "prod")), "environment must be one of staging, live"],
    [
      "another flow's session",
      patched((b) => (b.flowId = "other-flow")),
      'flowId must be "aml-flow", the flow the session was created for',
    ],
    [
      "the other environment",
      patched((b) => (b.environment = "staging")),
      "environment must be live, the flow's environment",
    ],
    [
      "another subject's session",
      patched((b) => (b.metadata.subjectId = "cust-43")),
      "metadata.subjectId must echo the subjectId that was sent",
    ],
  ])("%s", async (_name, body, issue) => {
    answering(201, body);
    const error = await createSessionFor(client, AML_SPEC, amlValidator, REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    const invalid = error as InvalidResponseError;
    expect(invalid).toMatchObject({
      code: "INVALID_RESPONSE",
      method: "POST",
      path: AML_SPEC.path,
      status: 201,
      tookEffect: true,
    });
    expect(invalid.issues.map((i) => `${i.path} ${i.message}`)).toContain(issue);
    expect(invalid.message).toContain(
      issue === "(root) is not JSON"
        ? "the body is not JSON"
        : issue === "(root) is required"
          ? "the body is empty"
          : issue,
    );
    expect(invalid.message).toContain("The session WAS created");
    expect(invalid.message).toMatch(/retrying would create a second one/);
    expect(invalid.body).toEqual(body);
    // Session creation is never sent twice, whatever came back.
    expect(service.apiRequests).toHaveLength(1);
  });

  test("the documented body is returned as it came, extra fields included", async () => {
    answering(201, { ...VALID, extra: { kept: true } });
    await expect(createSessionFor(client, AML_SPEC, amlValidator, REQUEST)).resolves.toEqual({
      ...VALID,
      extra: { kept: true },
    });
  });

  test("the flow's own 201 schema, in its spec, is checked after the fields of 2.3 (its patterns on the engine the module loaded)", async () => {
    const spec: FlowSpec<"live"> = {
      ...AML_SPEC,
      response: {
        type: "object",
        required: ["sessionContext"],
        properties: {
          sessionContext: {
            type: "object",
            required: ["createdAt"],
            properties: { createdAt: { type: "string", pattern: "^\\d{4}-" } },
          },
        },
      },
    };
    answering(
      201,
      patched((b) => (b.sessionContext.createdAt = "yesterday")),
    );
    const error = await createSessionFor(client, spec, amlValidator, REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual([
      // The pattern JSON-quoted, as every message shows a pattern (a quote or a line break in it stays readable).
      { path: "sessionContext.createdAt", message: `must match pattern ${JSON.stringify("^\\d{4}-")}` },
    ]);

    answering(201, VALID);
    await expect(createSessionFor(client, spec, amlValidator, REQUEST)).resolves.toEqual(VALID);
  });
});

describe("the other calls: the fields their types promise", () => {
  test.each<[string, (c: Client<"live">) => Promise<unknown>, unknown, string]>([
    [
      "getSession without sessionStatus",
      (c) => c.getSession("s"),
      { metadata: { subjectId: "x" } },
      "sessionStatus is required",
    ],
    ["getSession without metadata", (c) => c.getSession("s"), { sessionStatus: "RUNNING" }, "metadata is required"],
    [
      "getSession with a numeric subjectId",
      (c) => c.getSession("s"),
      { sessionStatus: "RUNNING", metadata: { subjectId: 7 } },
      "metadata.subjectId must be a string, got number",
    ],
    ["getStep without stepType", (c) => c.getStep("s"), { ticketId: null }, "stepType is required"],
    [
      "getStep with a numeric ticketId",
      (c) => c.getStep("s"),
      { stepType: "OTP:v1", ticketId: 42 },
      "ticketId must be a string or null, got number",
    ],
    [
      "getStep with actions that are not a list",
      (c) => c.getStep("s"),
      { stepType: "OTP:v1", ticketId: "t", actions: {} },
      "actions must be an array, got an object",
    ],
    [
      "getStep with an action without type",
      (c) => c.getStep("s"),
      { stepType: "OTP:v1", ticketId: "t", actions: [{ schema: {} }] },
      "actions[0].type is required",
    ],
    ["getDataBlocks as a number", (c) => c.getDataBlocks("s"), 5, "(root) must be an object or an array, got number"],
    [
      "listFlows as an object without a list",
      (c) => c.listFlows(),
      { hello: "world" },
      "(root) must be a list of flows (or an object holding one), got an object",
    ],
    ["listFlows with an entry without id", (c) => c.listFlows(), [{ id: "a" }, { name: "b" }], "[1].id is required"],
    [
      "listFlows wrapped, an id that is not a string",
      (c) => c.listFlows(),
      { flows: [{ id: 3 }] },
      "flows[0].id must be a string, got number",
    ],
    ["a body that is not JSON", (c) => c.getSession("s"), "<html>ok</html>", "(root) is not JSON"],
  ])("%s", async (_name, call, body, issue) => {
    answering(200, body);
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ code: "INVALID_RESPONSE", method: "GET", status: 200, tookEffect: false, body });
    expect((error as InvalidResponseError).issues.map((i) => `${i.path} ${i.message}`)).toContain(issue);
    expect((error as Error).message).not.toContain("WAS");
    // A wrong body is not a transient failure: it is not retried.
    expect(service.apiRequests).toHaveLength(1);
  });

  test("submitAction: a 2xx that is not JSON says the action was sent", async () => {
    service.onApi((req, res) => {
      if (req.method === "GET") {
        json(res, 200, { stepType: "OTP:v1", ticketId: "t", actions: [{ type: "RESEND", schema: {} }] });
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("done");
    });
    const error = await client.submitAction("s", "t", { type: "RESEND" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ method: "POST", tookEffect: true, body: "done" });
    expect((error as Error).message).toContain("The action WAS sent and accepted");
  });

  test("submitAction: any JSON, or an empty body, is its answer", async () => {
    let answer: string | undefined = '{"accepted":true}';
    service.onApi((req, res) => {
      if (req.method === "GET") {
        json(res, 200, { stepType: "OTP:v1", ticketId: "t", actions: [{ type: "RESEND", schema: {} }] });
        return;
      }
      res.writeHead(answer === undefined ? 204 : 200).end(answer);
    });
    await expect(client.submitAction("s", "t", { type: "RESEND" })).resolves.toEqual({ accepted: true });
    answer = undefined;
    await expect(client.submitAction("s", "t", { type: "RESEND" })).resolves.toBeUndefined();
  });
});
