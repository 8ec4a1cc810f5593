/**
 * The cryptography the runtime does, with the Web Crypto API every platform
 * has (Node 20, Workers, Vercel Edge, Deno, Bun): HMAC-SHA256 for webhook
 * signatures and redirect state, SHA-256 and HKDF for the shared token's
 * keys, AES-GCM to seal it, random values. Web Crypto is asynchronous, so
 * everything here returns a promise.
 */
import { utf8Bytes } from "./bytes.js";

const subtle = () => globalThis.crypto.subtle;

/** Web Crypto's key (named through the API, so Node's typings and the DOM's both fit). */
export type CryptoKeyOf = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** HMAC keys by their bytes' owner: a secret given once is imported once. */
const hmacKeys = new WeakMap<Uint8Array, Promise<CryptoKeyOf>>();

function hmacKeyOf(secret: Uint8Array): Promise<CryptoKeyOf> {
  const known = hmacKeys.get(secret);
  if (known) return known;
  const key = subtle().importKey("raw", secret as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  hmacKeys.set(secret, key);
  return key;
}

export async function hmacSha256(secret: Uint8Array, message: string): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign("HMAC", await hmacKeyOf(secret), utf8Bytes(message)));
}

export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest("SHA-256", utf8Bytes(text)));
}

/** An AES-256-GCM key from `secret` by HKDF-SHA256 (RFC 5869) with this salt and info. */
export async function aesKeyOf(secret: string, salt: string, info: string): Promise<CryptoKeyOf> {
  const material = await subtle().importKey("raw", utf8Bytes(secret), "HKDF", false, ["deriveKey"]);
  return subtle().deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: utf8Bytes(salt), info: utf8Bytes(info) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** AES-GCM: the ciphertext followed by its 16-byte tag. */
export async function aesGcmSeal(key: CryptoKeyOf, iv: Uint8Array, plain: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().encrypt({ name: "AES-GCM", iv: iv as Uint8Array<ArrayBuffer> }, key, plain));
}

/** The plain text of ciphertext-and-tag; rejects when the tag does not match. */
export async function aesGcmOpen(key: CryptoKeyOf, iv: Uint8Array, sealed: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().decrypt({ name: "AES-GCM", iv: iv as Uint8Array<ArrayBuffer> }, key, sealed));
}

export function randomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

export function randomId(): string {
  return globalThis.crypto.randomUUID();
}
