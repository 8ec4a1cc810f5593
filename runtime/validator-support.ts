/**
 * What generated validators (ajv standalone code, generated/<flow>/validate.ts)
 * need at run time. They import it from the runtime rather than `require`
 * ajv's files themselves, so generated code works as CommonJS and as an ES
 * module, and a project needs only flowsmith installed.
 */
import equal from "ajv/dist/runtime/equal";
import ucs2length from "ajv/dist/runtime/ucs2length";
import { fullFormats } from "ajv-formats/dist/formats";
import { linearRegExp } from "./linear-pattern.js";

/** The format checks of ajv-formats ("full" mode), by format name. */
export const validatorFormats = fullFormats;

/**
 * ajv's run-time helpers, by the name of their module under ajv/dist/runtime,
 * and the engine its code compiles patterns with (`pattern`, linear-pattern.ts).
 */
export const validatorRuntime = { equal, ucs2length, pattern: linearRegExp } as const;
