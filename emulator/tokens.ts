/**
 * Access tokens: opaque random strings, each bound to the environment of the
 * API client it was issued to, valid for the configured lifetime. The store is
 * bounded: expired tokens are dropped, and past `maxTokens` unexpired ones the
 * oldest is dropped, so a client that asks for a token per call cannot grow it.
 */
import { randomBytes } from "node:crypto";
import type { Environment } from "@flowsmith/runtime";
import type { EmulatorClock } from "./clock.js";
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

export interface TokenPolicy {
  readonly tokenTtlSeconds: number;
  readonly maxTokens: number;
  readonly clock: EmulatorClock;
}

/** Expired tokens are kept this long, so they are reported as expired rather than unknown. */
const EXPIRED_GRACE_MS = 3_600_000;

export class TokenStore {
  /** In issue order, which is also expiry order: every token has the same lifetime. */
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly policy: TokenPolicy) {}

  issue(environment: Environment): TokenGrant {
    this.dropExpired();
    for (const oldest of this.tokens.keys()) {
      if (this.tokens.size < this.policy.maxTokens) break;
      this.tokens.delete(oldest);
    }
    const token = randomBytes(32).toString("base64url");
    const ttlSeconds = this.policy.tokenTtlSeconds;
    this.tokens.set(token, { environment, expiresAt: this.policy.clock.now() + ttlSeconds * 1000 });
    return { access_token: token, expires_in: ttlSeconds, token_type: "Bearer" };
  }

  /** Forgets every token (POST /__emulator/reset): they answer 401 TOKEN_INVALID from now on. */
  clear(): void {
    this.tokens.clear();
  }

  /** The environment the request's bearer token belongs to; 401 when there is no valid token. */
  environmentOfBearerOrThrow(authorization: string | undefined): Environment {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) {
      throw unauthorized("TOKEN_MISSING", "missing bearer token: send Authorization: Bearer <access_token>");
    }
    this.dropExpired();
    const issued = this.tokens.get(match[1] ?? "");
    if (!issued)
      throw unauthorized(
        "TOKEN_INVALID",
        "the bearer token is not one this service issued (or it expired long ago); request a new one from the auth host",
      );
    if (issued.expiresAt <= this.policy.clock.now()) {
      throw unauthorized("TOKEN_EXPIRED", "the bearer token has expired; request a new one from the auth host");
    }
    return issued.environment;
  }

  /** Drops tokens past their grace, oldest first; stops at the first one still kept (the rest are younger). */
  private dropExpired(): void {
    const cutoff = this.policy.clock.now() - EXPIRED_GRACE_MS;
    for (const [token, issued] of this.tokens) {
      if (issued.expiresAt > cutoff) return;
      this.tokens.delete(token);
    }
  }
}

function unauthorized(code: "TOKEN_MISSING" | "TOKEN_INVALID" | "TOKEN_EXPIRED", message: string): ApiError {
  return new ApiError(401, code, message, { headers: { "www-authenticate": `Bearer error="invalid_token"` } });
}
