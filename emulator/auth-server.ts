/**
 * The {auth_url} host: POST /oidc/token, client credentials grant, with the
 * credentials in the form body (client_secret_post) or in Basic auth
 * (client_secret_basic). docs/service.md section 5.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ENVIRONMENTS, type Environment } from "@flowsmith/runtime";
import { ApiError, notFound } from "./errors.js";
import {
  guarded,
  mediaTypeOf,
  pathOf,
  readSmallBodyOrThrow,
  rejectUpload,
  requireUserAgentOrThrow,
  sendJson,
} from "./http-exchange.js";
import type { Credentials, ResolvedOptions } from "./options.js";
import type { TokenStore } from "./tokens.js";
import type { Traffic } from "./traffic.js";

const TOKEN_PATH = "/oidc/token";
const MAX_FORM_BYTES = 64 * 1024;

export function createAuthServer(options: ResolvedOptions, tokens: TokenStore, traffic: Traffic): Server {
  return createServer(
    traffic.observe(
      "auth",
      guarded(async (req, res) => {
        requireUserAgentOrThrow(req);
        if (pathOf(req) !== TOKEN_PATH)
          throw notFound(`no such endpoint on the auth host: ${req.method} ${pathOf(req)}`);
        if (req.method !== "POST") {
          throw new ApiError(405, "METHOD_NOT_ALLOWED", `${TOKEN_PATH} accepts POST only`, {
            headers: { allow: "POST" },
          });
        }
        await issueToken(req, res, options, tokens);
      }),
    ),
  );
}

async function issueToken(
  req: IncomingMessage,
  res: ServerResponse,
  options: ResolvedOptions,
  tokens: TokenStore,
): Promise<void> {
  if (mediaTypeOf(req) !== "application/x-www-form-urlencoded") {
    throw invalidRequest("the token request must be form-encoded (Content-Type: application/x-www-form-urlencoded)");
  }
  let form: URLSearchParams;
  try {
    form = new URLSearchParams((await readSmallBodyOrThrow(req, MAX_FORM_BYTES)).toString("utf8"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) {
      rejectUpload(req, res, error);
      return;
    }
    throw error;
  }
  // RFC 6749 3.2: a parameter sent twice is an invalid request, not "the first one wins".
  const repeated = ["grant_type", "client_id", "client_secret", "scope"].find((name) => form.getAll(name).length > 1);
  if (repeated !== undefined) throw invalidRequest(`${repeated} is sent more than once; send each parameter once`);
  const grantType = form.get("grant_type");
  if (grantType === null) throw invalidRequest("grant_type is required (grant_type=client_credentials)");
  if (grantType !== "client_credentials") {
    throw new ApiError(
      400,
      "UNSUPPORTED_GRANT_TYPE",
      `grant_type "${grantType}" is not supported; use client_credentials`,
    );
  }
  const presented = credentialsOfOrThrow(req.headers.authorization, form);
  const environment = environmentOfCredentialsOrThrow(presented, options.clients);
  sendJson(res, 200, tokens.issue(environment), { "cache-control": "no-store" });
}

function credentialsOfOrThrow(authorization: string | undefined, form: URLSearchParams): Credentials {
  const inBody = form.has("client_id") || form.has("client_secret");
  if (authorization !== undefined) {
    if (inBody) throw invalidRequest("send the client credentials either in Basic auth or in the body, not both");
    return basicCredentialsOrThrow(authorization);
  }
  const clientId = form.get("client_id");
  const clientSecret = form.get("client_secret");
  if (!clientId) throw invalidRequest("client_id is required in the body (or use Basic auth)");
  if (!clientSecret) throw invalidRequest("client_secret is required in the body (or use Basic auth)");
  return { clientId, clientSecret };
}

function basicCredentialsOrThrow(authorization: string): Credentials {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization)?.[1];
  const decoded = encoded === undefined ? "" : Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) throw invalidClient("the Authorization header must be Basic base64(client_id:client_secret)");
  // RFC 6749 2.3.1: both halves are form-encoded before base64.
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
}

function environmentOfCredentialsOrThrow(
  presented: Credentials,
  clients: Readonly<Record<Environment, Credentials>>,
): Environment {
  const environment = ENVIRONMENTS.find(
    (candidate) =>
      clients[candidate].clientId === presented.clientId && clients[candidate].clientSecret === presented.clientSecret,
  );
  if (!environment) throw invalidClient("unknown client or wrong client secret");
  return environment;
}

function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function invalidRequest(message: string): ApiError {
  return new ApiError(400, "INVALID_REQUEST", message);
}

function invalidClient(message: string): ApiError {
  return new ApiError(401, "INVALID_CLIENT", message, { headers: { "www-authenticate": `Basic realm="oidc"` } });
}
