import { escapePointerToken, isRecord, pointerTokens } from "../../runtime/json.js";
import { valueAtTokens } from "../../runtime/json.js";

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

describe("valueAtTokens", () => {
  const document = { a: { "b/c": [10, { d: null }] }, list: ["x"] };
  test.each([
    ["the document itself", "", document],
    ["a nested key with a slash", "/a/b~1c/0", 10],
    ["through an array into an object", "/a/b~1c/1/d", null],
    ["a missing key", "/a/nope", undefined],
    ["an index past the end", "/list/1", undefined],
    ["an index that is not canonical", "/list/00", undefined],
    ["a key of an array", "/list/length", undefined],
    ["one of Object's members, not a key of the document", "/constructor", undefined],
    ["a key under a scalar", "/a/b~1c/0/x", undefined],
  ])("%s: %j", (_, pointer, expected) => {
    expect(valueAtTokens(document, pointerTokens(pointer))).toBe(expected);
  });
});
