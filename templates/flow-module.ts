/**
 * Template of a generated flow module (generated/<flow>/index.ts).
 *
 * The emitter (generator/emit/emit-flow.ts) loads this file with ts-morph and
 * fills it in from the flow's model: it replaces this comment with the
 * generated-file header, points the runtime import at the configured
 * `runtimeImport`, fills `flow` and `spec`, replaces the four placeholder
 * type declarations below with the flow's own, and sets the environment of
 * `createSession`'s client. Everything else is copied as written here, so the
 * logic of a generated module is plain TypeScript that tsc checks.
 */
import { createSessionWith } from "@flowsmith/runtime";
import type { Client, FileInput, FlowSpec, RequestOptions } from "@flowsmith/runtime";
import { validate } from "./validate.js";

/** The flow this module was generated for. */
export const flow = {
  id: "00000000-0000-0000-0000-000000000000",
  version: 1,
  environment: "staging",
  title: "Template",
  path: "/api/v1/flows/00000000-0000-0000-0000-000000000000/staging/sessions",
} as const;

/** What the runtime needs to send a request of this flow: body form, locales, part names, file limits. */
export const spec: FlowSpec<"staging"> = {
  id: "00000000-0000-0000-0000-000000000000",
  version: 1,
  environment: "staging",
  path: "/api/v1/flows/00000000-0000-0000-0000-000000000000/staging/sessions",
  bodyForm: "json",
  locales: ["en"],
};

/** Placeholder: the emitter replaces it (and the three below) with the flow's own types. */
export interface CreateSessionRequest {
  input?: { readonly [block: string]: unknown };
  metadata: Metadata;
  redirectUrl?: string;
  state?: string;
  file?: FileInput;
}

/** Placeholder. */
export interface Metadata {
  subjectId: string;
  locale?: Locale;
}

/** Placeholder. */
export type Locale = "en";

/** Placeholder. */
export interface CreateSessionResponse {
  flowId: string;
}

/**
 * Creates a session of this flow. The request is checked against the flow's
 * schema (and file limits) before anything is sent; the response is the
 * created session with its `playerUrl`.
 */
export function createSession(
  client: Client<"staging">,
  request: CreateSessionRequest,
  options?: RequestOptions,
): Promise<CreateSessionResponse> {
  // Not the generic createSessionFor: this signature already ties client and spec to one
  // environment, and inferring its type arguments again in every module costs users' tsc time.
  return createSessionWith<CreateSessionResponse>(client, spec, validate, request, options);
}
