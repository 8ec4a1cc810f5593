/**
 * The one seam between the runtime and the platform it runs on. Which
 * implementation a program gets is chosen by the package's `imports`
 * conditions (`#platform` in runtime/package.json), never by an option or a
 * check at run time: `node` gets node.ts (undici, files on disk, the pattern
 * engine on demand); `deno` and `bun` get deno.ts and bun.ts; `workerd`,
 * `edge-light` and anything else get web.ts (fetch, nothing Node has).
 */
import type { Transport } from "../exchange/transport.js";
import type { NamedFile } from "../file-input.js";
import type { PatternEngine } from "../validation/pattern-engine.js";

export interface TransportChoice {
  /** createClient's `dispatcher` option, as given. */
  readonly dispatcher: unknown;
  /** createClient's `proxy` option, as given. */
  readonly proxy: unknown;
}

/** fileFromPath's options: what the file is sent as. */
export interface FileFromPathOptions {
  /** The part's filename. Default: the path's last segment. */
  readonly filename?: string;
  /** The media type. Default: from the filename's extension (for JPEG and PNG flows the first bytes decide). */
  readonly contentType?: string;
}

export interface Platform {
  readonly name: "node" | "deno" | "bun" | "web";
  /** The client's network side; a ConfigurationError for what this platform cannot do (a proxy, a dispatcher). */
  transportOrThrow(choice: TransportChoice): Transport;
  /** The linear-time pattern engine when this platform loads it by itself (action schemas); undefined elsewhere. */
  patternEngine(): PatternEngine | undefined;
  /** An empty FormData the transport can send (on Node, undici's own: it encodes only its own class). */
  formData(): FormData;
  /** fileFromPath: a file on disk as an upload, read while it is sent (Node only). */
  fileFromPath(path: string, options: FileFromPathOptions): Promise<NamedFile>;
}
