/**
 * A JSON create-session body, parsed while it arrives (@streamparser/json)
 * rather than gathered whole and given to JSON.parse: the bytes are never
 * kept, only the values, and the limits are enforced as the multipart form's
 * are, while reading: 50 MB in all, each string up to 1 MiB (a text part's
 * limit), no more values than the flow can use (emulator/request-limits.ts),
 * and every number finite. So a large body costs what its values cost, and a
 * body that breaks a limit is refused after at most about 1 MiB of it was
 * looked at.
 */
import type { IncomingMessage } from "node:http";
import { Tokenizer, TokenParser, TokenType, type ParsedElementInfo, type ParsedTokenInfo } from "@streamparser/json";
import { readablePath } from "@flowsmith/runtime/internal";
import { MAX_REQUEST_BYTES } from "@flowsmith/runtime/service-limits";
import { ApiError, badRequest } from "./errors.js";
import { MAX_TEXT_VALUE_BYTES } from "./request-limits.js";

/** Deeper than any flow's request; keeps a hostile body from building a deep chain. */
const MAX_DEPTH = 64;

/** Numbers are held as text until they end; a complete one is checked here (a partial one in onToken). */
class LimitedTokenizer extends Tokenizer {
  protected override parseNumber(text: string): number {
    if (text.length > MAX_TEXT_VALUE_BYTES) throw tooLong();
    return super.parseNumber(text);
  }
}

export function readJsonBodyOrThrow(req: IncomingMessage, maxValues: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const tokenizer = new LimitedTokenizer({ emitPartialTokens: true });
    const parser = new TokenParser();
    let received = 0;
    let values = 0;
    let depth = 0;
    let tokens = 0;
    let root: { value: unknown } | undefined;
    let settled = false;
    let ending = false;

    const finish = (error: ApiError | undefined): void => {
      if (settled) return;
      settled = true;
      req.off("data", onData);
      req.off("end", onEnd);
      if (error) reject(error);
      else if (root === undefined)
        reject(malformed(tokens === 0 ? "the body is empty" : "the body ends before its JSON value is complete"));
      else resolve(root.value);
    };
    const onFailure = (error: Error): void => {
      if (error instanceof ApiError) finish(error);
      else finish(malformed(ending ? "the body ends before its JSON value is complete" : error.message));
    };
    tokenizer.onError = onFailure;
    parser.onError = onFailure;

    tokenizer.onToken = (token: ParsedTokenInfo): void => {
      // The parser reports a refusal without throwing, and the tokenizer would go on through the chunk.
      if (settled) return;
      if (token.partial) {
        // A string or number cut at the end of a chunk: its bytes so far are all that arrived since it began.
        if (received - token.offset > MAX_TEXT_VALUE_BYTES) throw tooLong();
        return;
      }
      if (token.token === TokenType.STRING && (token.value as string).length > MAX_TEXT_VALUE_BYTES) throw tooLong();
      if (token.token === TokenType.LEFT_BRACE || token.token === TokenType.LEFT_BRACKET) {
        depth += 1;
        if (depth > MAX_DEPTH)
          throw badRequest("TOO_MANY_VALUES", `the JSON body nests deeper than ${String(MAX_DEPTH)} levels`);
      } else if (token.token === TokenType.RIGHT_BRACE || token.token === TokenType.RIGHT_BRACKET) {
        depth -= 1;
      }
      tokens += 1;
      parser.write(token);
    };
    parser.onValue = (element: ParsedElementInfo): void => {
      values += 1;
      if (values > maxValues) {
        throw badRequest(
          "TOO_MANY_VALUES",
          `the JSON body holds more than ${String(maxValues)} values: more than this flow can use (its declared fields, arrays counted by their maxItems)`,
        );
      }
      if (typeof element.value === "number" && !Number.isFinite(element.value)) {
        const path = readablePath([...element.stack.slice(1), element].map((entry) => entry.key ?? ""));
        throw badRequest("VALIDATION_FAILED", `invalid request: ${path} is out of range: numbers must be finite`, [
          { path, message: "is out of range: numbers must be finite" },
        ]);
      }
      if (element.stack.length === 0) root = { value: element.value };
    };

    function onData(chunk: Buffer): void {
      received += chunk.length;
      if (received > MAX_REQUEST_BYTES) {
        finish(
          new ApiError(
            413,
            "REQUEST_TOO_LARGE",
            `request body is larger than ${String(MAX_REQUEST_BYTES)} bytes (50 MB)`,
          ),
        );
        return;
      }
      tokenizer.write(chunk);
    }
    function onEnd(): void {
      ending = true;
      if (!tokenizer.isEnded) tokenizer.end();
      finish(undefined);
    }
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", () => {
      finish(malformed("the upload was aborted before the body ended"));
    });
  });
}

function malformed(detail: string): ApiError {
  return badRequest("MALFORMED_BODY", `the body is not valid JSON: ${detail}`);
}

function tooLong(): ApiError {
  return badRequest(
    "VALUE_TOO_LONG",
    `a string or number in the JSON body is longer than ${String(MAX_TEXT_VALUE_BYTES)} bytes (1 MiB, the limit of any text value)`,
  );
}
