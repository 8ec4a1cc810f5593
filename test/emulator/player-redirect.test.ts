/**
 * The redirect allowlist, the return URL with `state`, and the player's one
 * escaping path, as tables (no server needed).
 */
import fc from "fast-check";
import { ApiError } from "../../emulator/errors.js";
import { escapeHtml, html } from "../../emulator/player/html.js";
import { checkRedirectUrlOrThrow, parseRedirectAllowlistOrThrow } from "../../emulator/redirect-allowlist.js";
import { formActionSourceOf, returnUrlOf } from "../../emulator/player/return-url.js";

const allowed = (entries: readonly string[], url: string): boolean => {
  try {
    checkRedirectUrlOrThrow(parseRedirectAllowlistOrThrow(entries), url);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "REDIRECT_URL_NOT_ALLOWED" });
    return false;
  }
};

describe("redirect allowlist", () => {
  test.each<[string, { entries: string[]; url: string; want: boolean }]>([
    [
      "loopback v4, any port and path",
      { entries: ["loopback"], url: "http://127.0.0.1:5173/return?x=1#f", want: true },
    ],
    ["loopback v6", { entries: ["loopback"], url: "http://[::1]:8080/cb", want: true }],
    ["loopback localhost over https", { entries: ["loopback"], url: "https://localhost/cb", want: true }],
    ["loopback host case-folded by the parser", { entries: ["loopback"], url: "http://LOCALHOST:3000/", want: true }],
    [
      "a subdomain trick on the loopback address",
      { entries: ["loopback"], url: "http://127.0.0.1.evil.test/cb", want: false },
    ],
    ["localhost as a subdomain", { entries: ["loopback"], url: "http://localhost.evil.test/", want: false }],
    ["loopback as userinfo", { entries: ["loopback"], url: "http://127.0.0.1@evil.test/", want: false }],
    ["loopback with userinfo", { entries: ["loopback"], url: "http://user:pw@127.0.0.1/", want: false }],
    ["loopback as userinfo with a port", { entries: ["loopback"], url: "http://127.0.0.1:80@evil.test/", want: false }],
    ["a fragment trick", { entries: ["loopback"], url: "http://evil.test#@127.0.0.1/", want: false }],
    ["a backslash trick", { entries: ["loopback"], url: "http://evil.test\\@127.0.0.1/", want: false }],
    ["another loopback address", { entries: ["loopback"], url: "http://127.0.0.2/", want: false }],
    ["not http", { entries: ["loopback"], url: "javascript:alert(1)//127.0.0.1", want: false }],
    ["file scheme", { entries: ["loopback"], url: "file://localhost/etc/passwd", want: false }],
    ["relative", { entries: ["loopback"], url: "/return", want: false }],
    [
      "origin entry, same origin",
      { entries: ["https://allowed.test"], url: "https://allowed.test/any/path?q=1", want: true },
    ],
    [
      "origin entry, default port written out",
      { entries: ["https://allowed.test"], url: "https://allowed.test:443/", want: true },
    ],
    ["origin entry, other port", { entries: ["https://allowed.test"], url: "https://allowed.test:8443/", want: false }],
    ["origin entry, other scheme", { entries: ["https://allowed.test"], url: "http://allowed.test/", want: false }],
    [
      "origin entry, suffix domain",
      { entries: ["https://allowed.test"], url: "https://allowed.test.evil/", want: false },
    ],
    ["origin entry, subdomain", { entries: ["https://allowed.test"], url: "https://a.allowed.test/", want: false }],
    [
      "origin entry does not imply loopback",
      { entries: ["https://allowed.test"], url: "http://127.0.0.1/", want: false },
    ],
    [
      "prefix, exact path",
      { entries: ["https://allowed.test/return"], url: "https://allowed.test/return", want: true },
    ],
    [
      "prefix, below it",
      { entries: ["https://allowed.test/return"], url: "https://allowed.test/return/ok?state=x", want: true },
    ],
    [
      "prefix, not on a segment boundary",
      { entries: ["https://allowed.test/return"], url: "https://allowed.test/return-evil", want: false },
    ],
    [
      "prefix, dot segments resolved first",
      { entries: ["https://allowed.test/return"], url: "https://allowed.test/return/../admin", want: false },
    ],
    [
      "prefix, encoded dot segments resolved first",
      { entries: ["https://allowed.test/return"], url: "https://allowed.test/return/%2e%2e/admin", want: false },
    ],
    [
      "prefix, encoded slash is not a segment",
      { entries: ["https://allowed.test/return"], url: "https://allowed.test/return%2F..%2Fadmin", want: false },
    ],
    [
      "prefix with trailing slash",
      { entries: ["https://allowed.test/return/"], url: "https://allowed.test/return/x", want: true },
    ],
    [
      "prefix with trailing slash, the bare path",
      { entries: ["https://allowed.test/return/"], url: "https://allowed.test/return", want: false },
    ],
    [
      "several entries, the second matches",
      { entries: ["https://a.test", "loopback"], url: "http://localhost:1/", want: true },
    ],
  ])("%s", (_name, { entries, url, want }) => {
    expect(allowed(entries, url)).toBe(want);
  });

  test("the refusal names the allowlist and the flag, not the query", () => {
    const list = parseRedirectAllowlistOrThrow(["https://app.test/return/", "loopback"]);
    const error = (() => {
      try {
        checkRedirectUrlOrThrow(list, "https://evil.test/cb?secret=s3cr3t");
      } catch (caught) {
        return caught as ApiError;
      }
      throw new Error("not refused");
    })();
    expect(error.message).toContain("https://evil.test/cb is not on the emulator's redirect allowlist");
    expect(error.message).toContain(
      "https://app.test/return/; loopback: http(s) on 127.0.0.1, [::1] or localhost, any port",
    );
    expect(error.message).toContain("--redirect-allowlist");
    expect(error.message).not.toContain("s3cr3t");
    expect(error.toBody()).toMatchObject({ errors: [{ path: "/redirectUrl" }] });
  });

  test.each([
    ["not a URL", "allowed.test", /is not an absolute URL/],
    ["another scheme", "ftp://allowed.test", /only http and https/],
    ["credentials", "https://u:p@allowed.test", /carries user credentials/],
    ["a query", "https://allowed.test/?a=1", /query or fragment/],
    ["a bare ?", "https://allowed.test/?", /query or fragment/],
    ["a fragment", "https://allowed.test/#x", /query or fragment/],
    ["a wildcard", "https://*.allowed.test", /wildcard/],
  ])("an entry with %s is refused at start", (_name, entry, message) => {
    expect(() => parseRedirectAllowlistOrThrow([entry])).toThrow(message);
  });

  test("an empty allowlist is refused", () => {
    expect(() => parseRedirectAllowlistOrThrow([])).toThrow(/at least one entry/);
  });
});

describe("return URL", () => {
  test.each<[string, { url: string; state: string | undefined; want: string }]>([
    ["no query", { url: "http://127.0.0.1:3000/return", state: "abc", want: "http://127.0.0.1:3000/return?state=abc" }],
    [
      "its own query kept as written",
      { url: "http://h.test/r?b=2&a=x%20y+z&flag", state: "s", want: "http://h.test/r?b=2&a=x%20y+z&flag&state=s" },
    ],
    ["a fragment stays last", { url: "http://h.test/r?x=1#top", state: "s", want: "http://h.test/r?x=1&state=s#top" }],
    ["a fragment without a query", { url: "http://h.test/r#top", state: "s", want: "http://h.test/r?state=s#top" }],
    [
      "an existing state replaced",
      { url: "http://h.test/r?state=old&x=1&st%61te=old2", state: "new", want: "http://h.test/r?x=1&state=new" },
    ],
    ["a lone ?", { url: "http://h.test/r?", state: "s", want: "http://h.test/r?state=s" }],
    [
      "state encoded",
      {
        url: "http://h.test/r",
        state: 'a b&c=d#e"<>/?é',
        want: "http://h.test/r?state=a%20b%26c%3Dd%23e%22%3C%3E%2F%3F%C3%A9",
      },
    ],
    ["an empty state is echoed", { url: "http://h.test/r", state: "", want: "http://h.test/r?state=" }],
    ["no state: untouched", { url: "http://h.test/r?x=1#f", state: undefined, want: "http://h.test/r?x=1#f" }],
  ])("%s", (_name, { url, state, want }) => {
    const result = returnUrlOf(url, state);
    expect(result.href).toBe(want);
    if (state !== undefined) expect(result.searchParams.getAll("state")).toEqual([state]);
  });

  test.each([
    ["http://127.0.0.1:3000/r?x", "http://127.0.0.1:3000"],
    ["https://app.example.test/r", "https://app.example.test"],
    ["http://[::1]:3000/r", "http:"],
  ])("form-action source of %s is %s", (url, want) => {
    expect(formActionSourceOf(new URL(url))).toBe(want);
  });
});

describe("the player's escaping path", () => {
  test("every interpolated value is text; fragments built by html are not escaped twice", () => {
    const value = `"><img src=x onerror=alert(1)><script>alert('x')</script>&amp;`;
    expect(html`<p title="${value}">${value}</p>`.text).toBe(
      '<p title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;">' +
        "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;</p>",
    );
    expect(html`<div>${html`<b>${"<i>"}</b>`}${[1, "<", false, undefined, null]}</div>`.text).toBe(
      "<div><b>&lt;i&gt;</b>1&lt;</div>",
    );
  });

  test("escapeHtml leaves no markup character and loses nothing (fuzzed)", () => {
    const unescape = (text: string): string =>
      text.replace(
        /&(amp|lt|gt|quot|#39);/g,
        (_all, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!,
      );
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(unescape(escaped)).toBe(text);
      }),
    );
  });
});
