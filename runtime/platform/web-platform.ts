/**
 * What every platform but Node shares: the platform's fetch as transport
 * (exchange/fetch-transport.ts), and clear refusals for what only Node has.
 */
import { ConfigurationError } from "../errors.js";
import { FetchTransport } from "../exchange/fetch-transport.js";
import type { Platform } from "./platform.js";

export function webPlatform({ readsProxyEnv }: { readonly readsProxyEnv: boolean }): Platform {
  return {
    name: readsProxyEnv ? "deno-bun" : "web",
    transportOrThrow({ dispatcher, proxy }) {
      if (dispatcher !== undefined) {
        throw new ConfigurationError(
          "dispatcher is an undici Dispatcher, which only the runtime on Node uses; here requests go through the platform's fetch: leave dispatcher out",
        );
      }
      if (proxy !== undefined && !(readsProxyEnv && proxy === "env")) {
        throw new ConfigurationError(
          readsProxyEnv
            ? 'proxy: on Deno and Bun, fetch takes its proxy from the process\'s HTTP_PROXY, HTTPS_PROXY and NO_PROXY: set those and pass proxy: "env" (or leave it out)'
            : "proxy: this platform's fetch cannot be sent through a proxy by the runtime (Cloudflare Workers and Vercel Edge have none): leave proxy out",
        );
      }
      return new FetchTransport();
    },
    patternEngine: () => undefined,
    formData: () => new FormData(),
    fileFromPath: () =>
      Promise.reject(
        new ConfigurationError(
          "fileFromPath reads a file from disk, which only the runtime on Node does: pass the file as a Blob, File, Uint8Array or ReadableStream (with its size)",
        ),
      ),
  };
}
