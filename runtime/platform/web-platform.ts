/**
 * What every platform but Node shares: the platform's fetch as transport
 * (exchange/fetch-transport.ts), and clear refusals for what only Node has.
 */
import { ConfigurationError } from "../errors.js";
import { FetchTransport, type Fetcher } from "../exchange/fetch-transport.js";
import type { Platform } from "./platform.js";

export interface WebPlatformTraits {
  readonly name: Platform["name"];
  /** Its fetch reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY itself (Deno's, Bun's), so `proxy: "env"` is what it does anyway. */
  readonly readsProxyEnv: boolean;
  /** A client's own way to send (default: the platform's fetch as it is). */
  readonly fetcher?: () => Fetcher;
}

export function webPlatform({ name, readsProxyEnv, fetcher }: WebPlatformTraits): Platform {
  return {
    name,
    transportOrThrow({ dispatcher, proxy }) {
      if (dispatcher !== undefined) {
        throw new ConfigurationError(
          "dispatcher is an undici Dispatcher, which only the runtime on Node uses; here requests go through the platform's fetch: leave dispatcher out",
        );
      }
      if (proxy !== undefined && !(readsProxyEnv && proxy === "env")) {
        throw new ConfigurationError(
          readsProxyEnv
            ? `proxy: on ${name === "deno" ? "Deno" : "Bun"}, fetch takes its proxy from the process's HTTP_PROXY, HTTPS_PROXY and NO_PROXY: set those and pass proxy: "env" (or leave it out)`
            : "proxy: this platform's fetch cannot be sent through a proxy by the runtime (Cloudflare Workers and Vercel Edge have none): leave proxy out",
        );
      }
      return new FetchTransport(fetcher?.());
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
