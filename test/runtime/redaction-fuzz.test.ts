/**
 * The redaction fuzz suite (issues 20 and 31): random secrets, echoed whole
 * or in a random piece of 8 characters or more (from the start, the middle or
 * the end) in random encodings, among random words (test/fuzz/secret-echo.ts),
 * then scrubbed whole, scrubbed then cut (`excerpt`), and cut first at a
 * random character or byte and scrubbed as cut (`truncated`). No 8 characters
 * in a row of the secret may survive any of them (in base64 and hex, no 8
 * characters in a row of what only its bytes decide), whether the secret is
 * the client secret or an access token the client was given.
 *
 * A fixed seed in `npm test`; REDACTION_FUZZ_RUNS and REDACTION_FUZZ_SEED (a
 * number, or `random`) run more; a failure prints its seed and path for
 * fast-check to replay it.
 */
import fc from "fast-check";
import { Redactor } from "../../runtime/secrets/redaction.js";
import { echoCases, type EchoCase } from "../fuzz/secret-echo.js";

const RUNS = Number(process.env["REDACTION_FUZZ_RUNS"] ?? 500);
const SEED =
  process.env["REDACTION_FUZZ_SEED"] === "random"
    ? Date.now() % 2 ** 31
    : Number(process.env["REDACTION_FUZZ_SEED"] ?? 20_260_120);
const FRAGMENT = 8;

function redactorFor({ echo, isClientSecret }: EchoCase): Redactor {
  if (isClientSecret) return new Redactor({ clientId: "fuzz-client", clientSecret: echo.secret });
  const redactor = new Redactor({ clientId: "fuzz-client", clientSecret: "another-client-secret" });
  redactor.rememberToken(echo.secret);
  return redactor;
}

/**
 * What of the echoed secret survives in `text`: each run of FRAGMENT units of
 * it (its characters; in base64 and hex, the characters that only its bytes
 * decide), as the echo wrote them, found in `text`; but not one that the
 * words around the echo hold too (random words can repeat a piece of the
 * secret, in the same encoding).
 */
function survivors({ echo }: EchoCase, text: string): string[] {
  const { units } = echo;
  const runs = units
    .slice(0, Math.max(units.length - FRAGMENT + 1, 0))
    .map(([start], k) => echo.text.slice(start, (units[k + FRAGMENT - 1] as readonly [number, number])[1]));
  return runs.filter((run) => text.includes(run) && !around(echo, run.length).includes(run));
}

/** The echo's text without its own part, but for the `length - 1` characters at each end of it. */
function around(echo: EchoCase["echo"], length: number): string {
  return `${echo.text.slice(0, echo.own[0] + length - 1)}\u0000${echo.text.slice(echo.own[1] - length + 1)}`;
}

const parameters = { seed: SEED, numRuns: RUNS } as const;

test(`${String(RUNS)} echoes (seed ${String(SEED)}): found whole, and scrubbed whole`, () => {
  fc.assert(
    fc.property(echoCases, (echoCase) => {
      const redactor = redactorFor(echoCase);
      expect(redactor.holdsKnown(echoCase.echo.text)).toBe(true);
      expect(survivors(echoCase, redactor.text(echoCase.echo.text))).toEqual([]);
      expect(survivors(echoCase, redactor.withoutKnown(echoCase.echo.text))).toEqual([]);
    }),
    parameters,
  );
});

test(`${String(RUNS)} echoes (seed ${String(SEED)}): scrubbed, then cut at any character`, () => {
  fc.assert(
    fc.property(echoCases, fc.nat(), (echoCase, at) => {
      const cut = at % (echoCase.echo.text.length + 1);
      const excerpt = redactorFor(echoCase).excerpt(echoCase.echo.text, Math.max(cut, 1));
      expect(survivors(echoCase, excerpt)).toEqual([]);
    }),
    parameters,
  );
});

test(`${String(RUNS)} echoes (seed ${String(SEED)}): cut at any character, then scrubbed as cut`, () => {
  fc.assert(
    fc.property(echoCases, fc.nat(), (echoCase, at) => {
      const cut = echoCase.echo.text.slice(0, at % (echoCase.echo.text.length + 1));
      expect(survivors(echoCase, redactorFor(echoCase).text(cut, { truncated: true }))).toEqual([]);
    }),
    parameters,
  );
});

test(`${String(RUNS)} echoes (seed ${String(SEED)}): cut at any UTF-8 byte (as a body read up to a limit), then scrubbed as cut`, () => {
  fc.assert(
    fc.property(echoCases, fc.nat(), (echoCase, at) => {
      const bytes = Buffer.from(echoCase.echo.text, "utf8");
      const cut = bytes.subarray(0, at % (bytes.length + 1)).toString("utf8");
      expect(survivors(echoCase, redactorFor(echoCase).text(cut, { truncated: true }))).toEqual([]);
    }),
    parameters,
  );
});
