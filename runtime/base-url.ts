/**
 * Where a call goes: the client's baseUrl split once into the origin undici
 * connects to and its path prefix, so a call does not parse a URL (undici's
 * `request(url)` would, and errors used to once more for the path they name).
 */

export interface RequestTarget {
  readonly origin: string;
  /** Path as sent. */
  readonly path: string;
  /** What errors name: the path with the baseUrl's prefix, without host. */
  readonly displayPath: string;
  /** The path's template under the same prefix (paths.ts ROUTES), as logs and spans name it. */
  readonly route: string;
}

export class BaseUrl {
  readonly origin: string;
  private readonly prefix: string;

  /** `href`: an absolute http(s) URL without trailing slash, query or fragment (client-options.ts). */
  constructor(href: string) {
    const url = new URL(href);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, "");
  }

  /**
   * `path` (from paths.ts) starts with `/` and is made of encoded segments,
   * none of them a dot segment: it is appended as it is, never normalized,
   * so what is sent is exactly what paths.ts built.
   */
  resolve(path: string, route: string): RequestTarget {
    const full = this.prefix + path;
    return { origin: this.origin, path: full, displayPath: full, route: this.prefix + route };
  }
}
