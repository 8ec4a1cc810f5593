/**
 * Who may use the control API. It can inject faults, read the journal and
 * wipe the emulator's state, so it is never open to a network without a
 * token: bound to a non-loopback host it needs `controlToken` (or is off),
 * and once a token is set every control call must carry it, compared in
 * constant time. Web pages are refused twice over. A page on another site
 * could POST to a loopback port (a form, fetch in no-cors mode), and a
 * browser marks such calls with an Origin header, which tests, curl and the
 * handle never send. A page whose own name was rebound to 127.0.0.1 (DNS
 * rebinding) is same-origin with the port and sends no Origin on a GET; but
 * its requests name its own host, so a call must be addressed to the
 * emulator itself (the Host rule below).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import { ApiError } from "./errors.js";

/** A token an attacker on the network could guess is no token. */
const MIN_TOKEN_LENGTH = 16;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

export interface ControlAccess {
  readonly control: boolean;
  readonly controlToken: string | undefined;
}

/** `names`: how the message names the two settings (the CLI's flags, or startEmulator's options). */
export function controlAccessOrThrow(
  options: { readonly host?: string; readonly control?: boolean; readonly controlToken?: string },
  names = { token: "emulator option controlToken (--control-token)", off: "control: false (--no-control)" },
): ControlAccess {
  const control = options.control ?? true;
  const token = options.controlToken;
  if (token !== undefined && (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))) {
    // The token itself is never echoed.
    throw new RangeError(
      `${names.token} must be at least ${String(MIN_TOKEN_LENGTH)} characters without spaces (for example \`openssl rand -hex 16\`)`,
    );
  }
  const host = options.host ?? "127.0.0.1";
  if (control && token === undefined && !isLoopbackHost(host)) {
    throw new RangeError(
      `the control API (/__emulator/) would be open to the network on host ${host}: set ${names.token}, or turn it off with ${names.off}`,
    );
  }
  return { control, controlToken: token };
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`; any other name may resolve anywhere. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (bare.toLowerCase() === "localhost") return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 6 ? "ipv6" : "ipv4");
}

/**
 * 403 unless the request's Host is the emulator itself, with the port the request came in on:
 * a loopback name or address (localhost, 127.0.0.0/8, [::1]), the configured host, or the
 * address the request came in on (a caller on the network that addressed the emulator by
 * its IP). A rebound page's Host is its own name, never one of these.
 */
export function checkControlHostOrThrow(req: IncomingMessage, configuredHost: string): void {
  const given = req.headers.host;
  const addressed = hostAndPortOrUndefined(given);
  const port = req.socket.localPort;
  const ours = (name: string): boolean =>
    isLoopbackHost(name) ||
    name === hostAndPortOrUndefined(bracketed(configuredHost))?.name ||
    bareAddress(name) === bareAddress(req.socket.localAddress ?? "");
  if (addressed !== undefined && addressed.port === port && ours(addressed.name)) return;
  const shown =
    given === undefined
      ? "no Host header"
      : `Host ${JSON.stringify(given.length > 100 ? `${given.slice(0, 100)}…` : given)}`;
  const expected = [`localhost:${String(port)}`, `127.0.0.1:${String(port)}`, `[::1]:${String(port)}`];
  if (!isLoopbackHost(configuredHost)) expected.push(`${bracketed(configuredHost)}:${String(port)}`);
  throw new ApiError(
    403,
    "CONTROL_HOST_NOT_ALLOWED",
    `the control API answers only calls addressed to the emulator itself (Host ${expected.join(", ")}, or the address the call came in on), not ${shown}: a web page whose own name was rebound to this address sends that name`,
  );
}

/** A Host header's name (lower case, IPv6 in brackets, as the URL parser writes it) and port; undefined when it is not a host[:port]. */
function hostAndPortOrUndefined(host: string | undefined): { name: string; port: number } | undefined {
  if (host === undefined || !/^[^\s/?#@\\]+$/.test(host) || !URL.canParse(`http://${host}`)) return undefined;
  const url = new URL(`http://${host}`);
  return { name: url.hostname, port: url.port === "" ? 80 : Number(url.port) };
}

function bracketed(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** An IP address without brackets or an IPv4-mapped prefix (`::ffff:127.0.0.1` is how a dual-stack socket names 127.0.0.1). */
function bareAddress(address: string): string {
  return address.replace(/^\[(.*)\]$/, "$1").replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
}

/** 401 unless the request carries the token; nothing to check when none is set. */
export function checkControlTokenOrThrow(expected: string | undefined, authorization: string | undefined): void {
  if (expected === undefined) return;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  // Hashed first, so the comparison takes the same time whatever the lengths.
  if (given === undefined || !timingSafeEqual(digest(given), digest(expected))) {
    throw new ApiError(
      401,
      "CONTROL_TOKEN_REQUIRED",
      "the control API needs its token: send Authorization: Bearer <control token>",
      {
        headers: { "www-authenticate": `Bearer realm="flowsmith-emulator-control"` },
      },
    );
  }
}

/** 403 for a call a web page made (it carries Origin); the control API is for tests, curl and the handle. */
export function refuseBrowserOrThrow(origin: string | undefined): void {
  if (origin === undefined) return;
  throw new ApiError(
    403,
    "CONTROL_FROM_BROWSER",
    "the control API does not answer web pages (the request has an Origin header): call it from tests, curl or the startEmulator() handle",
  );
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
