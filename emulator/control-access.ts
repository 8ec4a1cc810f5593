/**
 * Who may use the control API. It can inject faults, read the journal and
 * wipe the emulator's state, so it is never open to a network without a
 * token: bound to a non-loopback host it needs `controlToken` (or is off),
 * and once a token is set every control call must carry it, compared in
 * constant time. Web pages are refused too: any site the developer visits
 * could otherwise POST to a loopback port (a form, fetch in no-cors mode,
 * DNS rebinding), and a browser marks such calls with an Origin header,
 * which tests, curl and the handle never send.
 */
import { createHash, timingSafeEqual } from "node:crypto";
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
    throw new RangeError(`${names.token} must be at least ${String(MIN_TOKEN_LENGTH)} characters without spaces (for example \`openssl rand -hex 16\`)`);
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

/** 401 unless the request carries the token; nothing to check when none is set. */
export function checkControlTokenOrThrow(expected: string | undefined, authorization: string | undefined): void {
  if (expected === undefined) return;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  // Hashed first, so the comparison takes the same time whatever the lengths.
  if (given === undefined || !timingSafeEqual(digest(given), digest(expected))) {
    throw new ApiError(401, "CONTROL_TOKEN_REQUIRED", "the control API needs its token: send Authorization: Bearer <control token>", {
      headers: { "www-authenticate": `Bearer realm="flowsmith-emulator-control"` },
    });
  }
}

/** 403 for a call a web page made (it carries Origin); the control API is for tests, curl and the handle. */
export function refuseBrowserOrThrow(origin: string | undefined): void {
  if (origin === undefined) return;
  throw new ApiError(403, "CONTROL_FROM_BROWSER", "the control API does not answer web pages (the request has an Origin header): call it from tests, curl or the startEmulator() handle");
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
