import { escapePointerToken, isRecord, pointerTokens } from "../../runtime/index.js";

describe("JSON pointer tokens (RFC 6901)", () => {
  test.each([
    ["plain", "a", "a"],
    ["slash", "a/b", "a~1b"],
    ["tilde", "a~b", "a~0b"],
    ["tilde then 1 is not a slash", "~1", "~01"],
    ["empty key", "", ""],
    ["bracket part name", "input[docs][documents][][source]", "input[docs][documents][][source]"],
  ])("%s: %j ↔ %j", (_, key, token) => {
    expect(escapePointerToken(key)).toBe(token);
    expect(pointerTokens(`/${token}`)).toEqual([key]);
  });

  test("a whole pointer", () => {
    expect(pointerTokens("")).toEqual([]);
    expect(pointerTokens("/input/documents/0/a~1b")).toEqual(["input", "documents", "0", "a/b"]);
  });
});

describe("isRecord", () => {
  test.each([
    [{}, true],
    [Object.create(null), true],
    [[], false],
    [null, false],
    ["{}", false],
    [1, false],
  ])("%j → %s", (value, expected) => {
    expect(isRecord(value)).toBe(expected);
  });
});
