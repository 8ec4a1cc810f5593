/**
 * Redaction in time linear in the text, whatever a server sends (issue 31):
 * texts made to be hard (every window a piece of a secret that repeats
 * itself; escapes whose decoding makes the next escape, so that every view
 * there is gets made; a hundred kilobyte tokens), scrubbed at two sizes 16
 * times apart. The measure is the Redactor's own count of characters read
 * and table slots probed (`work`), not a clock: per character of text it is
 * bounded, and the same at both sizes.
 */
import { randomBytes } from "node:crypto";
import { Redactor } from "../../runtime/secrets/redaction.js";

const SMALL = 8 * 1024;
const LARGE = 16 * SMALL;

/** Characters read and slots probed per character of text, for one scrub, at most (a bound on views times piece lengths times probes). */
const MOST_PER_CHARACTER = 200;

type Case = { readonly secrets: readonly string[]; readonly text: (length: number) => string };

const repeat = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const CASES: readonly [string, Case][] = [
  [
    "a secret that repeats itself, in a text of it: every window a piece",
    { secrets: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], text: (n) => repeat("a", n) },
  ],
  ["the same, percent-escaped", { secrets: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], text: (n) => repeat("%61", n) }],
  [
    "a short secret (whole, under 8 characters) in a text of it",
    { secrets: ["abcab"], text: (n) => repeat("abcab", n) },
  ],
  ["& with no ; (an HTML reference never closed)", { secrets: ["s3cr3t-value-0123"], text: (n) => repeat("&", n) }],
  [
    "escapes whose decoding makes the next one (%25, &amp;, \\\\)",
    { secrets: ["s3cr3t-value-0123"], text: (n) => repeat("%2525&amp;amp;\\\\\\\\%5C%26", n) },
  ],
  [
    "broken escapes of every kind",
    { secrets: ["s3cr3t-value-0123"], text: (n) => repeat("%%2\\u00&#x&#12&am%zz\\", n) },
  ],
  [
    "a hundred tokens of a kilobyte, and text that shares their alphabet",
    {
      secrets: Array.from({ length: 100 }, () => randomBytes(768).toString("base64url")),
      text: (n) => randomBytes(n).toString("base64url").slice(0, n),
    },
  ],
];

test.each(CASES)("%s: bounded work per character, the same at 8 and 128 KiB", (_name, { secrets, text }) => {
  const perCharacter = [SMALL, LARGE].map((length) => {
    const redactor = new Redactor({ clientId: "cid-linear", clientSecret: secrets[0] as string });
    for (const token of secrets.slice(1)) redactor.rememberToken(token);
    redactor.text("warm up: the search is built here");
    const before = redactor.work;
    redactor.text(text(length), { truncated: true });
    return (redactor.work - before) / length;
  });
  const [small, large] = perCharacter as [number, number];
  expect(small).toBeGreaterThanOrEqual(1);
  expect(large).toBeLessThanOrEqual(MOST_PER_CHARACTER);
  expect(large / small).toBeLessThan(1.25);
});
