/**
 * The redaction fuzz suite (issue 20): random secrets, echoed in random
 * encodings at random offsets among random words (test/fuzz/secret-echo.ts),
 * then scrubbed whole, scrubbed then cut (`excerpt`), and cut first at a
 * random character or byte and scrubbed as cut (`truncated`). No 8 characters
 * in a row of what only the secret decides may survive any of them, whether
 * the secret is the client secret or an access token the client was given.
 *
 * A fixed seed in `npm test`; REDACTION_FUZZ_RUNS and REDACTION_FUZZ_SEED (a
 * number, or `random`) run more; a failure prints its seed and path for
 * fast-check to replay it.
 */
import fc from "fast-check";
import { Redactor } from "../../runtime/redaction.js";
import { echoCases, type EchoCase } from "../fuzz/secret-echo.js";

const RUNS = Number(process.env["REDACTION_FUZZ_RUNS"] ?? 500);
const SEED = process.env["REDACTION_FUZZ_SEED"] === "random" ? Date.now() % 2 ** 31 : Number(process.env["REDACTION_FUZZ_SEED"] ?? 20_260_120);
const FRAGMENT = 8;

function redactorFor({ echo, isClientSecret }: EchoCase): Redactor {
  if (isClientSecret) return new Redactor({ clientId: "fuzz-client", clientSecret: echo.secret });
  const redactor = new Redactor({ clientId: "fuzz-client", clientSecret: "another-client-secret" });
  redactor.rememberToken(echo.secret);
  return redactor;
}

/**
 * The pieces of FRAGMENT characters of the echo that only the secret decides,
 * found in `text`; but not a piece that the words around the secret hold too
 * (random words can repeat a piece of the secret, in the same encoding).
 */
function survivors({ echo }: EchoCase, text: string): string[] {
  const own = echo.text.slice(...echo.own);
  const around = `${echo.text.slice(0, echo.own[0] + FRAGMENT - 1)}\u0000${echo.text.slice(echo.own[1] - FRAGMENT + 1)}`;
  const found: string[] = [];
  for (let start = 0; start + FRAGMENT <= own.length; start++) {
    const piece = own.slice(start, start + FRAGMENT);
    if (text.includes(piece) && !around.includes(piece)) found.push(piece);
  }
  return found;
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
