/**
 * The runtime on Web-standard platforms: Cloudflare Workers (`workerd`),
 * Vercel Edge (`edge-light`) and any other (`default`). Requests go through
 * the platform's fetch; there is no disk and no proxy to set, so those
 * options are ConfigurationErrors that say so; the pattern engine is there
 * only when something imported `@flowsmith/runtime/patterns`.
 */
import { webPlatform } from "./web-platform.js";

export const platform = webPlatform({ name: "web", readsProxyEnv: false });
