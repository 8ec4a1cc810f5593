/**
 * The runtime on Bun (the `bun` condition): as on the other Web platforms
 * (web-platform.ts), requests go through Bun's fetch, which reads
 * HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the process itself, so
 * `proxy: "env"` is what it does anyway. Bun has a disk and Node's fs
 * module, so fileFromPath reads from disk as on Node.
 */
import type { Platform } from "./platform.js";
import { webPlatform } from "./web-platform.js";

export const platform: Platform = {
  ...webPlatform({ name: "bun", readsProxyEnv: true }),
  fileFromPath: async (path, options) => (await import("./disk-file.js")).fileFromPath(path, options),
};
