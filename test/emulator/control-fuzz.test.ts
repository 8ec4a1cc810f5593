/**
 * No input to the control API stops the emulator. Against the emulator as
 * users start it (`flowsmith emulator`, a process of its own, the built
 * dist/), fast-check sends faults of every shape (plausible fields beside
 * arbitrary JSON, headers node refuses, wrong types) and, for each fault it
 * accepts, a request the fault matches; and descriptions of every shape
 * (arbitrary text and JSON, deep nesting). After each, the emulator must
 * still answer; at the end it must stop on SIGTERM with exit code 0 (a
 * crash has none). The handle's methods are fuzzed in this process too:
 * they throw only EmulatorControlError. A fixed seed in `npm test`;
 * CONTROL_FUZZ_RUNS and CONTROL_FUZZ_SEED (a number, or `random`) run more.
 */
import { expect } from "@jest/globals";
import fc from "fast-check";
import { request } from "undici";
import { EmulatorControlError, startEmulator } from "../../emulator/index.js";
import { startChildEmulator, type ChildEmulator } from "./child-emulator.js";
import { call, type Answer } from "./fixtures.js";

const RUNS = Number(process.env["CONTROL_FUZZ_RUNS"] ?? 120);
const SEED =
  process.env["CONTROL_FUZZ_SEED"] === "random"
    ? Date.now() % 2 ** 31
    : Number(process.env["CONTROL_FUZZ_SEED"] ?? 20_261_127);
/** How long one faulted request may take before the test stops waiting (a fault may delay it; reset ends the delay). */
const FAULTED_REQUEST_MS = 1000;

const anything = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 30 }), fc.constant(undefined));
/** Mostly a plausible value (so most faults are accepted and applied), sometimes anything at all. */
const mostly = <T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 6, arbitrary: plausible }, { weight: 1, arbitrary: anything });
const headerName = fc.oneof(
  fc.constantFrom(
    "trailer",
    "content-length",
    "transfer-encoding",
    "connection",
    "te",
    "upgrade",
    "keep-alive",
    "expect",
    "date",
    "retry-after",
    "set-cookie",
    "content-type",
    "x-a",
  ),
  fc.string({ maxLength: 12 }),
);
const headerValue = fc.oneof(
  fc.constantFrom("x-foo", "chunked", "close", "5", "a\r\nx-b: c", "5 €"),
  fc.string({ maxLength: 20, unit: "binary" }),
  anything,
);
const where = {
  host: mostly(fc.constantFrom("api", "auth")),
  method: mostly(fc.constantFrom("GET", "POST", "delete")),
  path: mostly(fc.constantFrom("/fuzz/*", "/fuzz/a", "/oidc/token", "/api/v1/flows/staging")),
};
const optional = { requiredKeys: ["path"] as "path"[] };
/** A fault that answers, drops or delays, mostly as a test would write it; sometimes with a field of another kind, or one no fault has. */
const fault = fc
  .oneof(
    fc.record(
      {
        ...where,
        times: mostly(fc.integer({ min: 0, max: 3 })),
        status: mostly(fc.integer({ min: 199, max: 600 })),
        headers: mostly(fc.dictionary(headerName, headerValue, { maxKeys: 3 })),
        body: anything,
      },
      optional,
    ),
    fc.record(
      { ...where, reset: mostly(fc.constantFrom("before", "after")), delayMs: mostly(fc.constantFrom(0, 1, 5)) },
      optional,
    ),
    fc.record({ ...where, delayMs: mostly(fc.constantFrom(0, 1, 5)) }, optional),
  )
  .chain((value) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant<Record<string, unknown>>(value) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom("status", "reset", "headers", "body", "extra"), anything)
          .map(([name, extra]) => ({ ...value, [name]: extra })),
      },
    ),
  );
/** What a fault's POST body may be: a fault as JSON, any JSON, or text that is not JSON. */
const faultBody = fc.oneof(
  { weight: 4, arbitrary: fault.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);
const description = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ maxLength: 200, unit: "binary" }),
  fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
  fc
    .jsonValue({ maxDepth: 4 })
    .map((value) =>
      JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1", "x-flow-id": "f" }, paths: value }),
    ),
  fc
    .tuple(fc.constantFrom("[", '{"a":', "- ", "? ", "a: ", "[a: "), fc.integer({ min: 300, max: 5000 }))
    .map(([open, depth]) => open.repeat(depth)),
  fc
    .array(
      fc.constantFrom(
        "openapi: 3.0.3\n",
        "info:\n",
        "  title: x\n",
        "paths: {}\n",
        "- ",
        "? ",
        ": ",
        "[",
        "]",
        "{",
        "}",
        "'",
        '"',
        "#",
        "|\n",
        "&a ",
        "*a ",
        "!t ",
        "\t",
        "\n",
        "  ",
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join("")),
);

let child: ChildEmulator;

beforeAll(async () => {
  child = await startChildEmulator([]);
});
afterAll(async () => {
  await child.stop();
});

const control = (
  route: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> =>
  call(`${child.baseUrl}/__emulator/${route}`, {
    method: init.method ?? "GET",
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.body !== undefined ? { body: init.body } : {}),
  });

/** Still answering: the control API lists its faults. */
async function expectAnswering(): Promise<void> {
  expect((await control("faults")).status).toBe(200);
}

/** A request the accepted fault matches (its `*` segments filled in), whatever comes of it: an answer, a reset, or a wait cut short. */
async function requestMatching(accepted: { host: string; method: string | null; path: string }): Promise<void> {
  const base = accepted.host === "auth" ? child.authUrl : child.baseUrl;
  const path = accepted.path.replace(/\/\*(?=\/|$)/g, "/x");
  try {
    const response = await request(`${base}${path}`, {
      method: (accepted.method ?? "GET") as "GET",
      headers: { "user-agent": "control-fuzz/1.0" },
      headersTimeout: FAULTED_REQUEST_MS,
      bodyTimeout: FAULTED_REQUEST_MS,
    });
    await response.body.dump();
  } catch {
    // A reset, a method undici will not send, or a delay longer than the wait: the emulator's answer is not the point.
  }
}

test("no fault, and no request a fault matches, stops the emulator", async () => {
  const applied = { faults: 0, withHeaders: 0 };
  await fc.assert(
    fc.asyncProperty(faultBody, async (body) => {
      const answer = await control("faults", { method: "POST", headers: { "content-type": "application/json" }, body });
      expect([201, 400, 409]).toContain(answer.status);
      if (answer.status === 201) {
        const [accepted] = (await control("faults")).json.faults;
        if (accepted) await requestMatching(accepted);
        applied.faults += 1;
        if (Object.keys(accepted?.headers ?? {}).length > 0) applied.withHeaders += 1;
      }
      // Ends any delay still under way and clears the faults.
      expect((await control("reset", { method: "POST" })).status).toBe(200);
      await expectAnswering();
    }),
    { numRuns: RUNS, seed: SEED },
  );
  // The runs reached the request handlers, not only the checks.
  expect(applied.faults).toBeGreaterThan(RUNS / 10);
  expect(applied.withHeaders).toBeGreaterThan(0);
});

test("no description stops the emulator", async () => {
  await fc.assert(
    fc.asyncProperty(description, async (body) => {
      const answer = await control("flows", { method: "POST", body });
      expect([201, 400, 409]).toContain(answer.status);
      if (answer.status === 400) expect(answer.json.code).toMatch(/^(INVALID_FLOW|BODY_TOO_DEEP|BODY_KEY_NOT_A_NAME)$/);
      await expectAnswering();
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

test("deep descriptions one after another are refused, and the emulator answers and stops cleanly", async () => {
  for (const open of ["[", "- ", '{"a":']) {
    const answer = await control("flows", {
      method: "POST",
      body: open.repeat(Math.floor((1024 * 1024) / open.length)),
    });
    expect([answer.status, answer.json.code]).toEqual([400, "BODY_TOO_DEEP"]);
    await expectAnswering();
  }
});

test("the handle's addFault and publishFlow throw EmulatorControlError and nothing else", async () => {
  const emulator = await startEmulator({ flows: [] });
  try {
    const thrown = (act: () => unknown): unknown => {
      try {
        act();
        return undefined;
      } catch (error) {
        return error;
      }
    };
    fc.assert(
      fc.property(fault, fc.oneof(description, fc.jsonValue()), (input, published) => {
        for (const error of [
          thrown(() => emulator.addFault(input as never)),
          thrown(() => emulator.publishFlow(published as never)),
        ]) {
          if (error !== undefined) expect(error).toBeInstanceOf(EmulatorControlError);
        }
        emulator.clearFaults();
      }),
      { numRuns: RUNS, seed: SEED },
    );
  } finally {
    await emulator.close();
  }
});

test("the emulator, fuzzed, stops on SIGTERM with exit code 0", async () => {
  await expectAnswering();
  expect(await child.stop()).toBe(0);
});
