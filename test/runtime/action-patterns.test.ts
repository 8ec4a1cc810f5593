/**
 * Patterns in the action schemas a step offers (issue 20) are a server's
 * text: they run on the linear-time engine, so a hostile value is refused
 * at once (the client in a child process, which must finish within a
 * bound a backtracking run would exceed by many orders of magnitude). A
 * pattern the engine cannot run is not run on a backtracking engine either:
 * the client leaves that one check to the service (which checks the action
 * anyway), sends the action, and says so once through its logger, naming
 * where the pattern is.
 */
import "../../runtime/patterns/index.js"; // the linear-time engine, which an application imports off Node to have action patterns checked on the client
import type { Client, Logger } from "../../runtime/index.js";
import { scriptOutputOrThrow } from "../support/bounded-child.js";
import { NO_HANG_BOUND_MS } from "../support/bounded.js";
import { CLIENT_ID, CLIENT_SECRET, clientFor, USER_AGENT } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";

let service: FakeService;
let client: Client;

beforeEach(async () => {
  service = await startFakeService();
  client = clientFor(service);
});
afterEach(async () => {
  await client.close();
  await service.close();
});

/** The step offers one action, VERIFY, with this schema; an action that gets through is answered 200. */
function offering(schema: unknown): void {
  service.onApi((req, res) => {
    if (req.method === "GET")
      json(res, 200, { stepType: "OTP:v1", ticketId: "t", actions: [{ type: "VERIFY", schema }] });
    else json(res, 200, { accepted: true });
  });
}

const posts = () => service.apiRequests.filter((request) => request.method === "POST");

test(
  "a hostile value against a backtracking pattern is refused at once, nothing sent",
  async () => {
    offering({
      type: "object",
      required: ["type", "code", "name"],
      properties: {
        type: { const: "VERIFY" },
        code: { type: "string", pattern: "^(a+)+$" },
        name: { type: "string", pattern: "^([A-Za-z]+ ?)+$" },
      },
    });
    const options = {
      baseUrl: service.baseUrl,
      authUrl: service.authUrl,
      environment: "staging",
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      userAgent: USER_AGENT,
    };
    const script = `
    const { createClient } = require("@flowsmith/runtime");
    const client = createClient(${JSON.stringify(options)});
    (async () => {
      const results = [];
      for (const value of ${JSON.stringify([`${"a".repeat(27)}!`, `${"a".repeat(10_000)}!`])}) {
        try {
          await client.submitAction("s", "t", { type: "VERIFY", code: value, name: value });
          results.push("sent");
        } catch (error) {
          results.push({ name: error.name, code: error.code, issues: error.issues.map((issue) => issue.path + " " + issue.message) });
        }
      }
      await client.close();
      console.log(JSON.stringify(results));
    })();`;
    const results = await scriptOutputOrThrow(script);
    const refused = {
      name: "RequestValidationError",
      code: "INVALID_ACTION",
      issues: ['code must match pattern "^(a+)+$"', 'name must match pattern "^([A-Za-z]+ ?)+$"'],
    };
    expect(results).toEqual([refused, refused]);
    expect(posts()).toEqual([]);
  },
  NO_HANG_BOUND_MS * 2,
);

test("a value that matches is sent: the pattern runs, it is not skipped", async () => {
  offering({ type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } });
  await expect(client.submitAction("s", "t", { type: "VERIFY", code: "b" })).rejects.toMatchObject({
    code: "INVALID_ACTION",
  });
  await expect(client.submitAction("s", "t", { type: "VERIFY", code: "aaa" })).resolves.toEqual({ accepted: true });
  expect(posts()).toHaveLength(1);
});

describe("a pattern the engine cannot run is left to the service: the action is sent, and the logger says where, once", () => {
  const cases: [string, { schema: unknown; at: string; says: RegExp }][] = [
    [
      "a backreference in pattern",
      {
        schema: { type: "object", properties: { code: { type: "string", pattern: "^(\\d)\\1$" } } },
        at: "/properties/code/pattern",
        says: /a backreference/,
      },
    ],
    [
      "a lookahead in patternProperties",
      {
        schema: { type: "object", patternProperties: { "^(?!x)": { type: "string" } } },
        at: "/patternProperties/^(?!x)",
        says: /a lookahead/,
      },
    ],
    [
      "a pattern under items, beside data that holds the same text",
      {
        schema: {
          type: "object",
          default: { pattern: "(?<=a)b" },
          properties: { list: { type: "array", items: { type: "string", pattern: "(?<=a)b" } } },
        },
        at: "/properties/list/items/pattern",
        says: /a lookbehind/,
      },
    ],
  ];
  test.each(cases)("%s", async (_, { schema, at, says }) => {
    const warnings: { fields: object; message: string }[] = [];
    const ignore = () => undefined;
    const logger: Logger = {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (fields, message = "") => warnings.push({ fields, message }),
    };
    const logged = clientFor(service, { logger });
    try {
      offering(schema);
      // Twice: the schema is walked once, so it is said once.
      await expect(logged.submitAction("s", "t", { type: "VERIFY", code: "11", list: ["ab"] })).resolves.toEqual({
        accepted: true,
      });
      await expect(logged.submitAction("s", "t", { type: "VERIFY", code: "11", list: ["ab"] })).resolves.toEqual({
        accepted: true,
      });
      expect(posts()).toHaveLength(2);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.fields).toMatchObject({ actionType: "VERIFY", pointer: at });
      expect(warnings[0]?.message).toContain(`has a pattern at ${at} that is not checked on the client`);
      expect(warnings[0]?.message).toMatch(says);
    } finally {
      await logged.close();
    }
  });
});
