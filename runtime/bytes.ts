/**
 * Text and bytes with the Web platform's own primitives (TextEncoder,
 * TextDecoder, btoa, atob), so the runtime runs where Node's Buffer does
 * not (Cloudflare Workers without nodejs_compat, Vercel Edge).
 */

const encoder = new TextEncoder();
/** `ignoreBOM: false`: as undici's body.text(), a UTF-8 byte order mark is not part of the text. */
const decoder = new TextDecoder("utf-8");

export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** UTF-8 text of the bytes (malformed sequences as U+FFFD), a leading byte order mark dropped. */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The UTF-8 length of `text` without encoding it (a lone surrogate counts as U+FFFD's 3 bytes, as TextEncoder writes it). */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}

/** The chunks as one array (no copy for one chunk). */
export function concatBytes(
  chunks: readonly Uint8Array[],
  size = chunks.reduce((sum, chunk) => sum + chunk.length, 0),
): Uint8Array {
  if (chunks.length === 1 && (chunks[0] as Uint8Array).length === size) return chunks[0] as Uint8Array;
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk.subarray(0, size - offset), offset);
    offset += chunk.length;
    if (offset >= size) break;
  }
  return joined;
}

export function base64Of(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function base64UrlOf(bytes: Uint8Array): string {
  return base64Of(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of base64 or base64url text (padding optional); undefined when it is neither. */
export function bytesOfBase64(text: string): Uint8Array | undefined {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) return undefined;
  try {
    const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/** Equal bytes, in time that depends only on the length (for MACs). */
export function timingSafeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}
