import "../../runtime/patterns/index.js"; // the linear-time engine, which an application imports off Node to have action patterns checked on the client
import { createHash } from "node:crypto";
import {
  AbortError,
  InvalidResponseError,
  NotFoundError,
  RequestValidationError,
  TimeoutError,
  type Client,
} from "../../runtime/index.js";
import { actionSchemaCount } from "../../runtime/action-schemas.js";
import { clientFor, USER_AGENT } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";
import { VirtualClock } from "./support/virtual-clock.js";

let service: FakeService;
let client: Client<"staging">;

beforeEach(async () => {
  service = await startFakeService("/gw");
  client = clientFor(service);
});
afterEach(async () => {
  await client.close();
  await service.close();
});

const OTP_ACTIONS = [
  {
    type: "VALIDATE_OTP",
    schema: {
      type: "object",
      required: ["type", "code"],
      additionalProperties: false,
      properties: { type: { const: "VALIDATE_OTP" }, code: { type: "string", pattern: "^[0-9]{6}$" } },
    },
  },
  {
    type: "RESEND_OTP",
    schema: {
      type: "object",
      required: ["type"],
      additionalProperties: false,
      properties: { type: { const: "RESEND_OTP" } },
    },
  },
];

/** Answers GET step by poll count: 400 (CREATED) twice, START, a named step without ticket, then a ticket. */
function scriptedSteps(script: readonly ((res: Parameters<typeof json>[0]) => void)[]) {
  let polls = 0;
  return (res: Parameters<typeof json>[0]) => {
    (script[Math.min(polls++, script.length - 1)] as (r: typeof res) => void)(res);
  };
}
const created = (res: Parameters<typeof json>[0]) => {
  json(res, 400, { status: 400, code: "SESSION_CREATED" });
};
const start = (res: Parameters<typeof json>[0]) => {
  json(res, 200, { stepType: "START", ticketId: null });
};
const noTicket = (res: Parameters<typeof json>[0]) => {
  json(res, 200, { stepType: "OTP_VERIFICATION:v1", ticketId: null });
};
const ticket = (res: Parameters<typeof json>[0]) => {
  json(res, 200, { stepType: "OTP_VERIFICATION:v1", ticketId: "ticket-1", actions: OTP_ACTIONS });
};
const end = (res: Parameters<typeof json>[0]) => {
  json(res, 200, { stepType: "END", ticketId: null });
};

describe("reading", () => {
  test("listFlows, getSession and getDataBlocks GET the environment's paths under the base path", async () => {
    service.onApi((req, res) => {
      if (req.url === "/gw/api/v1/flows/staging") {
        json(res, 200, { flows: [{ id: "f-1", name: "Signing" }] });
        return;
      }
      if (req.url === "/gw/api/v1/staging/sessions/s-1") {
        json(res, 200, { sessionStatus: "RUNNING", outcome: null, metadata: { subjectId: "cust-42" } });
        return;
      }
      if (req.url === "/gw/api/v1/staging/sessions/s-1/datablocks") {
        json(res, 200, { UserReference: { subjectId: "cust-42" } });
        return;
      }
      json(res, 404, {});
    });
    await expect(client.listFlows()).resolves.toEqual([{ id: "f-1", name: "Signing" }]);
    await expect(client.getSession("s-1")).resolves.toEqual({
      sessionStatus: "RUNNING",
      outcome: null,
      metadata: { subjectId: "cust-42" },
    });
    await expect(client.getDataBlocks("s-1")).resolves.toEqual({ UserReference: { subjectId: "cust-42" } });
    for (const request of service.apiRequests) {
      expect(request.method).toBe("GET");
      expect(request.headers["user-agent"]).toBe(USER_AGENT);
      expect(request.headers.authorization).toMatch(/^Bearer /);
    }
  });

  test("a response of the wrong shape is an InvalidResponseError", async () => {
    service.onApi((_req, res) => {
      json(res, 200, { nothing: "here" });
    });
    await expect(client.getSession("s")).rejects.toBeInstanceOf(InvalidResponseError);
    service.onApi((_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end("{not json"));
    await expect(client.listFlows()).rejects.toMatchObject({ code: "INVALID_RESPONSE" });
  });

  test("getFile streams: it resolves before the server has sent the whole file", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const chunks = 8;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    service.onApi(async (req, res) => {
      expect(req.url).toBe("/gw/api/v1/staging/files/vault%201");
      res.writeHead(200, { "content-type": "application/pdf", "content-length": chunk.length * chunks });
      res.write(chunk);
      await released; // the rest only after the client holds the stream
      for (let i = 1; i < chunks; i++) res.write(chunk);
      res.end();
    });
    const file = await client.getFile("vault 1");
    expect(file.contentType).toBe("application/pdf");
    expect(file.contentLength).toBe(chunk.length * chunks);
    release();
    const hash = createHash("sha256");
    let size = 0;
    for await (const part of file.body) {
      hash.update(part as Buffer);
      size += (part as Buffer).length;
    }
    expect(size).toBe(chunk.length * chunks);
    expect(hash.digest("hex")).toBe(
      createHash("sha256")
        .update(Buffer.alloc(chunk.length * chunks, 7))
        .digest("hex"),
    );
  });

  test("an unknown file is a NotFoundError", async () => {
    service.onApi((_req, res) => {
      json(res, 404, { status: 404, code: "FILE_NOT_FOUND" });
    });
    await expect(client.getFile("nope")).rejects.toBeInstanceOf(NotFoundError);
  });

  test("a call's own timeoutMs must be a positive finite number: refused before a token or a request is sent", async () => {
    service.onApi((_req, res) => {
      json(res, 200, { sessionStatus: "RUNNING", outcome: null });
    });
    for (const [call, got] of [
      [() => client.getSession("s-1", { timeoutMs: Number.POSITIVE_INFINITY }), "Infinity"],
      [() => client.getFile("f-1", { timeoutMs: Number.NaN }), "NaN"],
      [() => client.getSession("s-1", { timeoutMs: -5 }), "-5"],
    ] as const) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: "ConfigurationError",
        code: "INVALID_OPTIONS",
        message: `the call's timeoutMs must be a positive number; got ${got}`,
      });
    }
    expect(service.authRequests).toHaveLength(0);
    expect(service.apiRequests).toHaveLength(0);
  });
});

describe("waitForStep", () => {
  let clock: VirtualClock;
  beforeEach(async () => {
    await client.close();
    clock = new VirtualClock();
    client = clientFor(service, { clock });
  });

  test("polls through 400 (CREATED), START and a step without ticket, and resolves with the ticket", async () => {
    const steps = scriptedSteps([created, created, start, noTicket, ticket]);
    service.onApi((_req, res) => {
      steps(res);
    });
    const step = await client.waitForStep("s-1");
    expect(step).toMatchObject({ stepType: "OTP_VERIFICATION:v1", ticketId: "ticket-1" });
    expect(step.actions?.map((a) => a.type)).toEqual(["VALIDATE_OTP", "RESEND_OTP"]);
    expect(service.apiRequests.map((r) => r.url)).toEqual(Array(5).fill("/gw/api/v1/staging/sessions/s-1/step"));
    // The client's pollIntervalMs (the service's recommended 2.5 s) between polls, on its clock.
    expect(clock.sleeps).toEqual([2500, 2500, 2500, 2500]);
  });

  test("resolves with END", async () => {
    const steps = scriptedSteps([start, end]);
    service.onApi((_req, res) => {
      steps(res);
    });
    await expect(client.waitForStep("s-1", { intervalMs: 10 })).resolves.toEqual({ stepType: "END", ticketId: null });
    expect(clock.sleeps).toEqual([10]);
  });

  test("gives up after timeoutMs with a TimeoutError, its last sleep cut to the time left", async () => {
    service.onApi((_req, res) => {
      start(res);
    });
    // Seconds, not milliseconds: the last poll runs with the time left as its real request
    // timeout (5 s here), which a loopback answer on a loaded machine must never miss.
    const error = await client.waitForStep("s-1", { intervalMs: 10_000, timeoutMs: 75_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: "TIMEOUT", timeoutMs: 75_000, path: "/gw/api/v1/staging/sessions/s-1/step" });
    // Polls at 0, 10 s, ..., 70 s on the virtual clock; then 5 s to the deadline and no poll after it.
    expect(service.apiRequests).toHaveLength(8);
    expect(clock.sleeps).toEqual([10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 5_000]);
  });

  test("the default wait ends after waitTimeoutMs (10 minutes) without a real wait", async () => {
    service.onApi((_req, res) => {
      noTicket(res);
    });
    const error = await client.waitForStep("s-1").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TIMEOUT", timeoutMs: 600_000 });
    expect(service.apiRequests).toHaveLength(240);
  });

  test("stops when the signal fires during the wait between polls", async () => {
    const controller = new AbortController();
    // The first poll is answered; the signal fires once the client sleeps before the next one.
    const held = new VirtualClock({
      hold: true,
      onSleep: () => {
        controller.abort(new Error("user left"));
      },
    });
    await client.close();
    client = clientFor(service, { clock: held });
    service.onApi((_req, res) => {
      noTicket(res);
    });
    const error = await client.waitForStep("s-1", { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(held.sleeps).toEqual([2500]);
    expect(service.apiRequests).toHaveLength(1);
  });

  test("other errors end the wait", async () => {
    service.onApi((_req, res) => {
      json(res, 404, { code: "SESSION_NOT_FOUND" });
    });
    await expect(client.waitForStep("gone", { intervalMs: 10 })).rejects.toBeInstanceOf(NotFoundError);
    expect(clock.sleeps).toEqual([]);
  });

  test.each([
    [
      "waitForStep",
      { timeoutMs: Number.POSITIVE_INFINITY },
      /waitForStep's timeoutMs must be a positive number; got Infinity/,
    ],
    ["waitForStep", { timeoutMs: Number.NaN }, /waitForStep's timeoutMs must be a positive number; got NaN/],
    ["waitForStep", { timeoutMs: 0 }, /waitForStep's timeoutMs must be a positive number; got 0/],
    ["waitForStep", { intervalMs: -1 }, /waitForStep's intervalMs must be a number >= 0; got -1/],
    [
      "waitForOutcome",
      { timeoutMs: Number.POSITIVE_INFINITY },
      /waitForOutcome's timeoutMs must be a positive number; got Infinity/,
    ],
    ["waitForOutcome", { intervalMs: Number.NaN }, /waitForOutcome's intervalMs must be a number >= 0; got NaN/],
  ] as const)("%s refuses %o before polling: a wait is always bounded", async (wait, options, message) => {
    service.onApi((_req, res) => {
      start(res);
    });
    const error = await client[wait]("s-1", options).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ConfigurationError", code: "INVALID_OPTIONS" });
    expect((error as Error).message).toMatch(message);
    expect(service.apiRequests).toHaveLength(0);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("submitAction", () => {
  const actionRequests = () => service.apiRequests.filter((r) => r.method === "POST");

  beforeEach(() => {
    service.onApi((req, res) => {
      if (req.method === "POST") {
        json(res, 200, { accepted: true });
        return;
      }
      ticket(res);
    });
  });

  test("sends the body as it is, with x-ticket-id, as JSON", async () => {
    const step = await client.waitForStep("s-1", { intervalMs: 10 });
    const result = await client.submitAction("s-1", step.ticketId ?? "", { type: "VALIDATE_OTP", code: "123456" });
    expect(result).toEqual({ accepted: true });
    const [sent] = actionRequests();
    expect(sent?.url).toBe("/gw/api/v1/staging/sessions/s-1/actions");
    expect(sent?.headers["x-ticket-id"]).toBe("ticket-1");
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers["user-agent"]).toBe(USER_AGENT);
    expect(sent?.body.toString()).toBe('{"type":"VALIDATE_OTP","code":"123456"}');
  });

  test.each([
    ["a body that breaks the action's schema", { type: "VALIDATE_OTP", code: "12" }, "INVALID_ACTION", "code"],
    ["an extra field", { type: "RESEND_OTP", channel: "sms" }, "INVALID_ACTION", "channel"],
    ["an action the step does not offer", { type: "SKIP_STEP" }, "UNKNOWN_ACTION", "type"],
    ["a body without type", { code: "123456" }, "INVALID_ACTION", "type"],
  ])("%s is refused before sending", async (_name, body, code, path) => {
    await client.getStep("s-1");
    const error = await client.submitAction("s-1", "ticket-1", body as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ code });
    expect((error as RequestValidationError).issues.map((i) => i.path)).toContain(path);
    expect(actionRequests()).toHaveLength(0);
  });

  test("UNKNOWN_ACTION names the actions the step offers", async () => {
    await client.getStep("s-1");
    await expect(client.submitAction("s-1", "ticket-1", { type: "SKIP" })).rejects.toThrow(
      /SKIP is not offered by step OTP_VERIFICATION:v1 of session s-1; it offers VALIDATE_OTP, RESEND_OTP/,
    );
  });

  test("without a step read before, the step is read first", async () => {
    await client.submitAction("s-2", "ticket-1", { type: "RESEND_OTP" });
    expect(service.apiRequests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /gw/api/v1/staging/sessions/s-2/step",
      "POST /gw/api/v1/staging/sessions/s-2/actions",
    ]);
  });

  test("each schema is compiled once, whatever the key order it arrives in", async () => {
    // Schemas this test alone uses, so the count below is exact.
    const fresh = OTP_ACTIONS.map((a) => ({ type: a.type, schema: { ...a.schema, description: "compile-once test" } }));
    let round = 0;
    service.onApi((req, res) => {
      if (req.method === "POST") {
        json(res, 200, {});
        return;
      }
      // Every other step response sends the same schemas with keys in another order.
      const actions = round++ % 2 === 0 ? fresh : fresh.map((a) => ({ schema: reverseKeys(a.schema), type: a.type }));
      json(res, 200, { ticketId: "ticket-2", actions, stepType: "OTP_VERIFICATION:v1" });
    });
    const before = actionSchemaCount();
    for (let i = 0; i < 4; i++) {
      await client.getStep("s-1");
      await client.submitAction("s-1", "ticket-2", { type: "RESEND_OTP" });
      await client.submitAction("s-1", "ticket-2", { type: "VALIDATE_OTP", code: "000000" });
    }
    expect(actionSchemaCount() - before).toBe(2);
    expect(actionRequests()).toHaveLength(8);
  });

  test("a missing ticketId is refused", async () => {
    await client.getStep("s-1");
    await expect(client.submitAction("s-1", "", { type: "RESEND_OTP" })).rejects.toMatchObject({
      code: "INVALID_ACTION",
    });
    expect(actionRequests()).toHaveLength(0);
  });
});

function reverseKeys(value: object): object {
  return Object.fromEntries(Object.entries(value).reverse());
}
