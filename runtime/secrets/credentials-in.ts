/**
 * For tools built on a client (flowsmith's CLI stores and prints what the
 * service returns): the runtime scrubs its own errors, but a successful body
 * is handed back as the server sent it, and an echoing server can put the
 * client secret or the access token in it (docs/service.md 5). These let the
 * tool refuse or scrub such text without ever seeing a token.
 */
import { clientContextOrThrow } from "../client-context.js";

/** Whether `text` holds the client's secret, or an access token it was given, raw or encoded (base64, percent, JSON). */
export function clientCredentialsIn(client: object, text: string): boolean {
  return clientContextOrThrow(client).redactor.holdsKnown(text);
}

/** `text` with the client's secret and its access tokens, in any of their forms, replaced by `[redacted]`. */
export function withoutClientCredentials(client: object, text: string): string {
  return clientContextOrThrow(client).redactor.withoutKnown(text);
}
