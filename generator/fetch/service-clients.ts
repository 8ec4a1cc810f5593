/**
 * The service as the CLI reaches it: one @flowsmith/runtime client per
 * environment (the service's rule: an API client reaches only its own
 * environment, docs/service.md 1 and 5), made on first use, so a run that
 * fetches nothing needs neither an address nor credentials. Credentials come
 * only from the environment. Every failure becomes a CodegenError that names
 * the full URL and what to change; no message carries a secret.
 */
import type * as Runtime from "@flowsmith/runtime";
import type { Client, Environment, FlowRecord, FlowsmithError } from "@flowsmith/runtime";
import { ENVIRONMENTS } from "@flowsmith/runtime/service-limits";
import { ENV, type ResolvedServiceConfig, type Sourced } from "../config/config-types.js";
import type { Env } from "../config/load-config.js";
import { CodegenError, type CodegenErrorContext } from "../errors.js";
import { flowsmithVersion } from "../versions.js";

/**
 * The runtime's client, loaded when the first one is made: a codegen run
 * that fetches nothing does not load its HTTP stack (undici).
 */
function runtime(): typeof Runtime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("@flowsmith/runtime") as typeof Runtime;
}

/** The environments whose API client id is set: those a command lists flows of when none is named. */
export function environmentsWithClientId(env: Env): Environment[] {
  return ENVIRONMENTS.filter((environment) => (env[ENV.clientId[environment]] ?? "").trim() !== "");
}

/** No environment has an API client (environmentsWithClientId is empty): `flows` and `init --from-api` have nothing to list with. */
export function noApiClientError(): CodegenError {
  return new CodegenError(
    "CREDENTIALS_MISSING",
    `no API client is set: set ${ENV.clientId.staging} and ${ENV.clientSecret.staging} (or ${ENV.clientId.live} and ${ENV.clientSecret.live}) in the environment, ` +
      `with ${ENV.baseUrl} and ${ENV.authUrl} (or "service" in the config) saying where the service is`,
  );
}

/** What a flow or command asks for, for messages. */
export interface FetchContext extends CodegenErrorContext {
  /** `the description of flow 6f1c… (staging)`, `the flows of staging`. */
  readonly what: string;
}

export class ServiceClients {
  private readonly clients = new Map<Environment, Client>();

  constructor(
    private readonly service: ResolvedServiceConfig,
    private readonly env: Env,
    private readonly configFile: string,
  ) {}

  /** The flow's description as the service returns it (parsed JSON). */
  async fetchDescriptionOrThrow(flowId: string, environment: Environment, where: FetchContext): Promise<unknown> {
    const path = this.service.descriptionPath.value;
    const url = this.urlOf(
      path.split("{flowId}").join(encodeURIComponent(flowId)).split("{environment}").join(environment),
    );
    const client = this.clientOrThrow(environment, where);
    try {
      return await client.getFlowDescription(flowId, { path });
    } catch (error) {
      throw this.failure(error, url, environment, client, where);
    }
  }

  async listFlowsOrThrow(environment: Environment, where: FetchContext): Promise<readonly FlowRecord[]> {
    const url = this.urlOf(`/api/v1/flows/${environment}`);
    const client = this.clientOrThrow(environment, where);
    try {
      return await client.listFlows();
    } catch (error) {
      throw this.failure(error, url, environment, client, where);
    }
  }

  /**
   * Whether text the service returned holds a client secret or an access token
   * of any client made here, raw or encoded: an echoing service can put the
   * token it was sent into a description, and that text would be stored.
   */
  holdCredentials(text: string): boolean {
    return [...this.clients.values()].some((client) => runtime().clientCredentialsIn(client, text));
  }

  /** Text the service returned, for printing: every client's secret and tokens replaced, in any form. */
  withoutCredentials(text: string): string {
    return [...this.clients.values()].reduce((out, client) => runtime().withoutClientCredentials(client, out), text);
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
    this.clients.clear();
  }

  private clientOrThrow(environment: Environment, where: FetchContext): Client {
    const known = this.clients.get(environment);
    if (known) return known;
    const baseUrl = this.urlOrThrow(this.service.baseUrl, "baseUrl", ENV.baseUrl, where);
    const authUrl = this.urlOrThrow(this.service.authUrl, "authUrl", ENV.authUrl, where);
    const { clientId, clientSecret } = this.credentialsOrThrow(environment, where);
    const client = runtime().createClient({
      baseUrl,
      authUrl,
      environment,
      clientId,
      clientSecret,
      userAgent: `flowsmith-cli/${flowsmithVersion()}`,
      proxy: this.proxy(),
    });
    this.clients.set(environment, client);
    return client;
  }

  /**
   * HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the CLI's environment, as npm
   * and curl read them (the lower-case form first); none set: no proxy.
   */
  private proxy(): { httpProxy?: string; httpsProxy?: string; noProxy?: string } {
    const variable = (name: string) => this.env[name.toLowerCase()] ?? this.env[name];
    const [httpProxy, httpsProxy, noProxy] = ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"].map(variable);
    return {
      ...(httpProxy ? { httpProxy } : {}),
      ...(httpsProxy ? { httpsProxy } : {}),
      ...(noProxy !== undefined ? { noProxy } : {}),
    };
  }

  /** Both variables of the environment's API client; a missing one is named, and nothing has been sent. */
  private credentialsOrThrow(
    environment: Environment,
    where: FetchContext,
  ): { clientId: string; clientSecret: string } {
    const idVariable = ENV.clientId[environment];
    const secretVariable = ENV.clientSecret[environment];
    const clientId = this.env[idVariable]?.trim() ?? "";
    const clientSecret = this.env[secretVariable] ?? "";
    const missing = [...(clientId === "" ? [idVariable] : []), ...(clientSecret.trim() === "" ? [secretVariable] : [])];
    if (missing.length === 0) return { clientId, clientSecret };
    throw new CodegenError(
      "CREDENTIALS_MISSING",
      `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set: fetching ${where.what} needs the ${environment} API client ` +
        `(created in the dashboard for ${environment}). Set ${idVariable} and ${secretVariable} in the environment; credentials are never read from the config`,
      contextOf(where),
    );
  }

  private urlOrThrow(
    setting: Sourced<string> | undefined,
    key: "baseUrl" | "authUrl",
    variable: string,
    where: FetchContext,
  ): string {
    const host = key === "baseUrl" ? "{base_url}, the API host" : "{auth_url}, the token host";
    if (setting === undefined) {
      throw new CodegenError(
        "SERVICE_NOT_CONFIGURED",
        `fetching ${where.what} needs ${host}: set ${variable} or "service": { "${key}": "https://..." } in ${this.configFile}`,
        contextOf(where),
      );
    }
    let url: URL | undefined;
    try {
      url = new URL(setting.value);
    } catch {
      url = undefined;
    }
    if (
      !url ||
      (url.protocol !== "http:" && url.protocol !== "https:") ||
      url.search ||
      url.hash ||
      url.username ||
      url.password
    ) {
      throw new CodegenError(
        "SERVICE_NOT_CONFIGURED",
        `${key} from ${setting.from} must be an http(s) URL without query, fragment or credentials; got ${JSON.stringify(setting.value)}`,
        contextOf(where),
      );
    }
    return url.href.replace(/\/+$/, "");
  }

  private urlOf(path: string): string {
    return `${(this.service.baseUrl?.value ?? "").replace(/\/+$/, "")}${path}`;
  }

  private failure(error: unknown, url: string, environment: Environment, client: Client, where: FetchContext): unknown {
    if (!(error instanceof runtime().FlowsmithError)) return error;
    // The client scrubbed its error already (runtime/secrets/redaction.ts); scrubbed by the same path again as it is printed.
    const message = runtime().withoutClientCredentials(client, error.message);
    const detail = `cannot fetch ${where.what} from ${url}: ${message}. ${hintFor(error, environment, this.service, where)}`;
    return new CodegenError("FETCH_FAILED", detail, contextOf(where));
  }
}

/** What to check, by what went wrong. */
function hintFor(
  error: FlowsmithError,
  environment: Environment,
  service: ResolvedServiceConfig,
  where: FetchContext,
): string {
  const status = (error as { status?: unknown }).status;
  const credentials = `${ENV.clientId[environment]} and ${ENV.clientSecret[environment]}`;
  switch (error.code) {
    case "AUTH_FAILED":
      if (typeof status !== "number")
        return `Is the auth host up? authUrl comes from ${service.authUrl?.from ?? "nowhere"}`;
      if (status === 404) return authUrlNotFound(service);
      // A 5xx is the auth host failing, not a verdict on the credentials.
      return status >= 500
        ? "The auth host failed: try again later; nothing was written"
        : `The auth host refused the ${environment} API client: check ${credentials}`;
    case "NETWORK_ERROR":
    case "TIMEOUT":
      return `Is the service up? baseUrl comes from ${service.baseUrl?.from ?? "nowhere"}`;
    case "NOT_FOUND":
      return where.what.startsWith("the flows of")
        ? `Check baseUrl (${service.baseUrl?.from ?? "nowhere"}): it must be the API host, with its path prefix if it has one`
        : `Check the flow id and environment (\`npx flowsmith flows --environment ${environment}\` lists the flows) and ${describePath(service)}`;
    case "UNAUTHORIZED":
    case "FORBIDDEN":
      return `Check ${credentials}: the API client must belong to ${environment}`;
    case "INVALID_RESPONSE":
      return where.what.startsWith("the flows of")
        ? `Check baseUrl (${service.baseUrl?.from ?? "nowhere"})`
        : `Check baseUrl (${service.baseUrl?.from ?? "nowhere"}) and ${describePath(service)}`;
    default:
      return "Try again later; nothing was written";
  }
}

/** docs/service.md 5.2: a token request sent to {base_url} returns 404, so the auth host's address is what to fix. */
function authUrlNotFound(service: ResolvedServiceConfig): string {
  const same =
    service.authUrl !== undefined &&
    service.baseUrl !== undefined &&
    sameUrl(service.authUrl.value, service.baseUrl.value);
  return (
    `The token URL was not found, so the credentials were not even checked: ${ENV.authUrl} (or "service": { "authUrl" }) must be {auth_url}, ` +
    `the token host, not {base_url}, the API host${same ? ` (it is the same as baseUrl)` : ""}. authUrl comes from ${service.authUrl?.from ?? "nowhere"}`
  );
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

/** `descriptionPath "/api/v1/…/openapi" (the default)`, or where the config sets it. */
function describePath(service: ResolvedServiceConfig): string {
  const { value, from } = service.descriptionPath;
  return `descriptionPath ${JSON.stringify(value)} (${from === "the default descriptionPath" ? "the default" : from})`;
}

function contextOf(where: FetchContext): CodegenErrorContext {
  return {
    ...(where.flow !== undefined ? { flow: where.flow } : {}),
    ...(where.file !== undefined ? { file: where.file } : {}),
    ...(where.pointer !== undefined ? { pointer: where.pointer } : {}),
  };
}
