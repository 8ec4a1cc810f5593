/**
 * The redirect `state` helpers: a state verifies for its subject until it
 * expires, and every other state is refused with its own code. Time is an
 * injected clock.
 */
import { expect } from "@jest/globals";
import { randomBytes } from "node:crypto";
import {
  ConfigurationError,
  createRedirectState,
  MAX_STATE_LENGTH,
  RedirectStateError,
  stateFromReturnUrl,
  verifyRedirectState,
  type RedirectStateErrorCode,
} from "../../runtime/index.js";

const SECRET = "a-redirect-secret-of-at-least-32-bytes!";
const OTHER_SECRET = randomBytes(32);
const T0 = Date.parse("2030-01-01T00:00:00Z");
const TTL = 15 * 60_000;
const at = (ms: number) => () => ms;

const made = (extra: { data?: string; subjectId?: string } = {}) =>
  createRedirectState({
    secret: SECRET,
    subjectId: extra.subjectId ?? "cust-42",
    ttlMs: TTL,
    now: at(T0),
    ...(extra.data !== undefined ? { data: extra.data } : {}),
  });

/** The RedirectStateError `run` throws or rejects with. */
async function refusal(
  run: () => unknown,
): Promise<{ code: RedirectStateErrorCode; message: string; expiredAt?: Date }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RedirectStateError) return error;
    throw error;
  }
  throw new Error("expected a RedirectStateError");
}

describe("createRedirectState and verifyRedirectState", () => {
  test("a state verifies for its subject before it expires, with its data and a nonce", async () => {
    const state = await made({ data: "/checkout/42?step=2" });
    expect(state.length).toBeLessThanOrEqual(MAX_STATE_LENGTH);
    expect(state).toMatch(/^v1\.[0-9A-Za-z._-]+$/);
    expect(state).not.toContain("cust-42");
    const verified = await verifyRedirectState({ secret: SECRET, subjectId: "cust-42", state, now: at(T0 + TTL - 1) });
    expect(verified).toEqual({
      expiresAt: new Date(T0 + TTL),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      data: "/checkout/42?step=2",
    });
    expect(
      (await verifyRedirectState({ secret: SECRET, subjectId: "cust-42", state: await made(), now: at(T0) })).data,
    ).toBeUndefined();
  });

  test("two states of one subject differ (fresh nonce, unlinkable subject tag)", async () => {
    const [a, b] = [await made(), await made()];
    expect(a).not.toBe(b);
    expect(a.split(".")[3]).not.toBe(b.split(".")[3]);
  });

  test("during a secret rotation either secret verifies", async () => {
    const state = await made();
    await expect(
      verifyRedirectState({ secret: [OTHER_SECRET, SECRET], subjectId: "cust-42", state, now: at(T0) }),
    ).resolves.toMatchObject({ data: undefined });
  });

  test("a state made before the runtime moved to Web Crypto still verifies (the same HMACs)", async () => {
    const { createHmac } = await import("node:crypto");
    const expiresAt = T0 + TTL;
    const nonce = Buffer.alloc(16, 7).toString("base64url");
    const tag = createHmac("sha256", SECRET)
      .update(`flowsmith.redirect-subject.${nonce}.cust-42`)
      .digest()
      .subarray(0, 16)
      .toString("base64url");
    const data = Buffer.from("/old").toString("base64url");
    const signed = ["v1", String(expiresAt), nonce, tag, data].join(".");
    const old = `${signed}.${createHmac("sha256", SECRET).update(`flowsmith.redirect-state.${signed}`).digest("base64url")}`;
    await expect(
      verifyRedirectState({ secret: SECRET, subjectId: "cust-42", state: old, now: at(T0) }),
    ).resolves.toMatchObject({ data: "/old", nonce });
  });

  const flip = (text: string, index: number) =>
    text.slice(0, index) + (text[index] === "A" ? "B" : "A") + text.slice(index + 1);
  let state = "";
  let expiry = "";
  beforeAll(async () => {
    state = await made({ data: "/back" });
    expiry = state.split(".")[1] ?? "";
  });

  test.each<
    [
      string,
      () => { state: string; subjectId?: string; secret?: string | Buffer; now?: number },
      RedirectStateErrorCode,
    ]
  >([
    ["tampered MAC", () => ({ state: flip(state, state.length - 3) }), "STATE_TAMPERED"],
    [
      "tampered data",
      () => ({
        state: state.replace(
          /\.([^.]*)\.([^.]+)$/,
          (_m, _d, mac: string) => `.${Buffer.from("/evil").toString("base64url")}.${mac}`,
        ),
      }),
      "STATE_TAMPERED",
    ],
    [
      "expiry pushed later",
      () => ({ state: state.replace(`.${expiry}.`, `.${Number(expiry) + 86_400_000}.`) }),
      "STATE_TAMPERED",
    ],
    ["another secret", () => ({ state, secret: OTHER_SECRET }), "STATE_TAMPERED"],
    ["another subject", () => ({ state, subjectId: "cust-43" }), "STATE_SUBJECT_MISMATCH"],
    ["expired", () => ({ state, now: T0 + TTL }), "STATE_EXPIRED"],
    ["empty", () => ({ state: "" }), "STATE_MALFORMED"],
    ["not ours", () => ({ state: "csrf-token" }), "STATE_MALFORMED"],
    ["wrong version", () => ({ state: state.replace(/^v1/, "v2") }), "STATE_MALFORMED"],
    ["a part cut short", () => ({ state: state.slice(0, -1) }), "STATE_MALFORMED"],
    ["over the service's limit", () => ({ state: `${state}${"A".repeat(MAX_STATE_LENGTH)}` }), "STATE_MALFORMED"],
  ])("%s", async (_name, givenNow, code) => {
    const given = givenNow();
    const error = await refusal(() =>
      verifyRedirectState({
        secret: given.secret ?? SECRET,
        subjectId: given.subjectId ?? "cust-42",
        state: given.state,
        now: at(given.now ?? T0),
      }),
    );
    expect(error.code).toBe(code);
    expect(error.message).not.toContain(SECRET);
  });

  test("an expired state says when it expired", async () => {
    const error = await refusal(() =>
      verifyRedirectState({ secret: SECRET, subjectId: "cust-42", state, now: at(T0 + TTL + 5) }),
    );
    expect(error.expiredAt).toEqual(new Date(T0 + TTL));
    expect(error.message).toContain("2030-01-01T00:15:00.000Z");
  });

  test("a state that would pass the service's 2048 characters is refused at creation", async () => {
    expect((await made({ data: "x".repeat(1400) })).length).toBeLessThanOrEqual(MAX_STATE_LENGTH);
    const error = await refusal(() => made({ data: "x".repeat(1500) }));
    expect(error.code).toBe("STATE_TOO_LONG");
    expect(error.message).toMatch(/2048/);
  });

  test.each<[string, () => unknown]>([
    ["a short secret", () => createRedirectState({ secret: "short", subjectId: "s", ttlMs: TTL })],
    ["an empty subjectId", () => createRedirectState({ secret: SECRET, subjectId: "", ttlMs: TTL })],
    ["a zero ttl", () => createRedirectState({ secret: SECRET, subjectId: "s", ttlMs: 0 })],
    [
      "a clock that is not one",
      () => createRedirectState({ secret: SECRET, subjectId: "s", ttlMs: TTL, now: () => NaN }),
    ],
    ["no secret at verify", () => verifyRedirectState({ secret: [], subjectId: "s", state: "v1.x" })],
  ])("%s is a ConfigurationError", async (_name, run) => {
    await expect(run()).rejects.toThrow(ConfigurationError);
  });
});

describe("stateFromReturnUrl", () => {
  test.each<[string, string | URL, string]>([
    ["absolute", "https://app.example/return?state=abc.def", "abc.def"],
    ["relative, as req.url", "/return?order=7&state=abc", "abc"],
    ["a URL object", new URL("https://app.example/r?state=x%2By"), "x+y"],
    ["the appended one wins over the URL's own", "/return?state=mine&state=appended", "appended"],
  ])("%s", (_name, url, want) => {
    expect(stateFromReturnUrl(url)).toBe(want);
  });

  test.each<[string, string, RedirectStateErrorCode]>([
    ["no state", "/return?order=7", "STATE_MISSING"],
    ["an empty state", "https://app.example/return?state=", "STATE_MISSING"],
    ["not a URL", "http://[::1", "RETURN_URL_INVALID"],
  ])("%s: %s", async (_name, url, code) => {
    expect((await refusal(() => stateFromReturnUrl(url))).code).toBe(code);
  });

  test("round trip: the state survives the return URL and verifies", async () => {
    const returnUrl = new URL("https://app.example/return?order=7");
    returnUrl.searchParams.append("state", await made());
    const verified = await verifyRedirectState({
      secret: SECRET,
      subjectId: "cust-42",
      state: stateFromReturnUrl(returnUrl.href),
      now: at(T0),
    });
    expect(verified.expiresAt).toEqual(new Date(T0 + TTL));
  });
});
