/**
 * The runtime on Deno and Bun (their own conditions): as on the other Web
 * platforms (web-platform.ts), requests go through the platform's fetch,
 * which on these two reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the
 * process itself, so `proxy: "env"` is what it does anyway. Both have a
 * disk and Node's fs module, so fileFromPath reads from disk as on Node.
 */
import type { Platform } from "./platform.js";
import { webPlatform } from "./web-platform.js";

export const platform: Platform = {
  ...webPlatform({ readsProxyEnv: true }),
  fileFromPath: async (path, options) => (await import("./disk-file.js")).fileFromPath(path, options),
};
