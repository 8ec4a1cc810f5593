/**
 * The runtime on Deno (the `deno` condition): as on the other Web platforms
 * (web-platform.ts), requests go through Deno's fetch, which reads
 * HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the process itself, so
 * `proxy: "env"` is what it does anyway; and fileFromPath reads from disk
 * through Node's fs module, which Deno has.
 *
 * One difference from the others: Deno's fetch sends a request again, by
 * itself, when the pooled connection it went out on closes before the answer
 * (test/consumer: a POST the service acted on, then a reset, arrived twice).
 * A POST must never go out twice (a second session, a second action), so
 * POSTs go through a client of the client's own that keeps no connection
 * for reuse, and close() closes it. GETs, which may be repeated, keep Deno's
 * pool.
 */
import type { Fetcher } from "../exchange/fetch-transport.js";
import type { Platform } from "./platform.js";
import { webPlatform } from "./web-platform.js";

/** What the runtime uses of Deno's API (the runtime's types do not include Deno's). */
interface DenoApi {
  createHttpClient(options: { readonly poolMaxIdlePerHost: number }): { close(): void };
}

export const platform: Platform = {
  ...webPlatform({ name: "deno", readsProxyEnv: true, fetcher: unpooledPosts }),
  fileFromPath: async (path, options) => (await import("./disk-file.js")).fileFromPath(path, options),
};

function unpooledPosts(): Fetcher {
  let posts: { close(): void } | undefined;
  return {
    fetch: (input, init) => {
      if (init?.method !== "POST") return fetch(input, init);
      const deno = (globalThis as { readonly Deno?: DenoApi }).Deno as DenoApi;
      posts ??= deno.createHttpClient({ poolMaxIdlePerHost: 0 });
      return fetch(input, { ...init, client: posts } as RequestInit);
    },
    close: () => posts?.close(),
  };
}
