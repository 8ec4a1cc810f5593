/**
 * Where a call goes: the client's baseUrl split once into the origin undici
 * connects to and its path prefix, so a call does not parse a URL (undici's
 * `request(url)` would, and errors used to once more for the path they name).
 */

export interface RequestTarget {
  readonly origin: string;
  /** Path (and query, if any) as sent. */
  readonly path: string;
  /** What errors name: the path with the baseUrl's prefix, without host or query. */
  readonly displayPath: string;
}

/**
 * Paths the WHATWG URL parser leaves exactly as they are: only characters it
 * does not encode, and no segment that starts with `.` or `%2e` (dot segments
 * it would resolve). Everything else goes through `new URL`, as before.
 */
const PLAIN_PATH = /^(?:\/(?!\.|%2e)[A-Za-z0-9\-_~.!$&'()*+,;=:@%]*)+$/i;

export class BaseUrl {
  readonly origin: string;
  private readonly prefix: string;

  /** `href`: an absolute http(s) URL without trailing slash, query or fragment (client-options.ts). */
  constructor(private readonly href: string) {
    const url = new URL(href);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, "");
  }

  /** `path` starts with `/`; it is appended to the baseUrl. */
  resolve(path: string): RequestTarget {
    if (PLAIN_PATH.test(path)) {
      const full = this.prefix + path;
      return { origin: this.origin, path: full, displayPath: full };
    }
    const url = new URL(this.href + path);
    return { origin: url.origin, path: url.pathname + url.search, displayPath: url.pathname };
  }
}
