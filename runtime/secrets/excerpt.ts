/**
 * The one way the runtime cuts text for a message: at most `maxChars`
 * characters and `…`, never through a `[redacted]` (it would read as
 * garbage) nor between the halves of a surrogate pair. Only scrubbed text is
 * cut (redaction.ts): a secret cut in half would no longer be found.
 */
export const REDACTED = "[redacted]";

export function excerptOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const marker = text.lastIndexOf(REDACTED, end - 1);
  if (marker !== -1 && marker + REDACTED.length > end) end = marker;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
