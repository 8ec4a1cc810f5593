/**
 * A call's own headers (RequestOptions.headers: a request id, a tenant):
 * checked once before anything is sent. The headers the runtime sets itself
 * are refused by name, so a caller cannot replace the token, the User-Agent
 * the service's firewall wants, the body's type and length, or the ticket.
 */
import { ConfigurationError } from "./errors.js";
import { headerValueProblem } from "./header-value.js";

/** Lower-case name → why the runtime owns it. */
const OWNED: Readonly<Record<string, string>> = {
  authorization: "the runtime sends the access token in it",
  "user-agent": "it is the client's userAgent option",
  "content-type": "the runtime sets it for the body it sends",
  "content-length": "the runtime's HTTP stack sets it for the body it sends",
  host: "it is the baseUrl's host",
  "x-ticket-id": "submitAction sends the step's ticket in it",
  connection: "the HTTP stack manages the connection",
  "transfer-encoding": "the HTTP stack manages the body's framing",
  "keep-alive": "the HTTP stack manages the connection",
  upgrade: "the HTTP stack manages the connection",
  expect: "the HTTP stack does not support it",
};

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The caller's headers with lower-case names; a ConfigurationError naming the first header that cannot be sent. */
export function callHeadersOrThrow(headers: unknown): Readonly<Record<string, string>> {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw new ConfigurationError("headers must be an object of header names to string values");
  }
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name))
      throw new ConfigurationError(
        `headers: ${JSON.stringify(name)} is not a header name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
      );
    const owned = OWNED[lower];
    if (owned !== undefined) throw new ConfigurationError(`headers: "${lower}" cannot be set per call: ${owned}`);
    if (typeof value !== "string")
      throw new ConfigurationError(`headers: the value of "${lower}" must be a string; got ${typeof value}`);
    const problem = headerValueProblem(value);
    if (problem) throw new ConfigurationError(`headers: the value of "${lower}" ${problem}, so it cannot be sent`);
    checked[lower] = value;
  }
  return checked;
}
