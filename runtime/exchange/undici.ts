/**
 * undici, the package: what the runtime dispatches through, makes its Agent,
 * proxy agents and multipart forms with.
 *
 * Loaded by its file path, not as `undici`: Bun answers `require("undici")`
 * with a built-in stand-in whose Agent has no dispatch() or destroy() (the
 * first call failed with a TypeError, close() threw), whatever node_modules
 * holds. The package itself runs on Bun, on Deno and on Node, where both names
 * are the same module. undici has no "exports" map, so the path is part of
 * its published layout (the consumer test runs it on Bun and Deno, test/consumer/on-runtimes.js).
 */
import type * as Undici from "undici";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file path, so that Bun's built-in `undici` is not taken
export const undici = require("undici/index.js") as typeof Undici;
