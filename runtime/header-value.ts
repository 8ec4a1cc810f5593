/**
 * Whether a value from a server (an access token, a ticketId) can be sent
 * back in an HTTP header as it is. undici refuses such a header only when the
 * request is made, with its own error; checking on receipt names the value.
 */

/**
 * Why `value` cannot be a header value, or undefined when it can: control
 * characters (CR, LF, NUL...) would split or end the header, characters above
 * U+00FF have no single byte, and spaces at either end would be trimmed away.
 */
export function headerValueProblem(value: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
  const bad = /[\u0000-\u001f\u007f]|[^\u0000-\u00ff]/.exec(value);
  if (bad)
    return `contains U+${(bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")} at index ${String(bad.index)}`;
  if (value.trim() !== value) return "starts or ends with whitespace";
  return undefined;
}
