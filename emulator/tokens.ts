/**
 * Access tokens: opaque random strings, each bound to the environment of the
 * API client it was issued to, valid for the configured lifetime.
 */
import { randomBytes } from "node:crypto";
import type { Environment } from "@flowsmith/runtime";
import { ApiError } from "./errors.js";

interface IssuedToken {
  readonly environment: Environment;
  readonly expiresAt: number;
}

export interface TokenGrant {
  readonly access_token: string;
  readonly expires_in: number;
  readonly token_type: "Bearer";
}

export class TokenStore {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly ttlSeconds: number) {}

  issue(environment: Environment): TokenGrant {
    this.forgetExpired();
    const token = randomBytes(32).toString("base64url");
    this.tokens.set(token, { environment, expiresAt: Date.now() + this.ttlSeconds * 1000 });
    return { access_token: token, expires_in: this.ttlSeconds, token_type: "Bearer" };
  }

  /** The environment the request's bearer token belongs to; 401 when there is no valid token. */
  environmentOfBearerOrThrow(authorization: string | undefined): Environment {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) {
      throw unauthorized("TOKEN_MISSING", "missing bearer token: send Authorization: Bearer <access_token>");
    }
    const issued = this.tokens.get(match[1]!);
    if (!issued) throw unauthorized("TOKEN_INVALID", "the bearer token is not one this service issued");
    if (issued.expiresAt <= Date.now()) {
      throw unauthorized("TOKEN_EXPIRED", "the bearer token has expired; request a new one from the auth host");
    }
    return issued.environment;
  }

  private forgetExpired(): void {
    const now = Date.now();
    // Keep expired tokens for a while so they are reported as expired, not unknown.
    const graceMs = 3_600_000;
    for (const [token, issued] of this.tokens) if (issued.expiresAt + graceMs < now) this.tokens.delete(token);
  }
}

function unauthorized(code: "TOKEN_MISSING" | "TOKEN_INVALID" | "TOKEN_EXPIRED", message: string): ApiError {
  return new ApiError(401, code, message, { headers: { "www-authenticate": `Bearer error="invalid_token"` } });
}
