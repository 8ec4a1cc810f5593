/**
 * Template of a generated flow module (generated/<flow>/index.ts).
 *
 * The emitter (generator/emit/flow-module.ts) reads this file once per process
 * and builds each module from the statements below: the imports (pointed at
 * the configured `runtimeImport`, `FileInput` only when a type uses it; a flow
 * whose schemas have a pattern also imports `@flowsmith/runtime/patterns`),
 * the `spec` declaration with the flow's own value, and `createSession`,
 * copied whole. The declarations marked "Flow-specific" stand in for the
 * flow's own, which the emitter writes from the flow's model. So the logic of
 * a generated module is plain TypeScript that tsc checks here, and
 * test/generator/emit-template.test.ts checks every emitted module against it.
 */
import { createFlowSession } from "@flowsmith/runtime/flow-module";
import type { Client, FileInput, FlowSpec, RequestOptions } from "@flowsmith/runtime/flow-module";

/** Flow-specific: the flow's title, version, environment and description (JSON typed by `Flow`). */
export const flow: Flow = {
  id: "00000000-0000-0000-0000-000000000000",
  version: 1,
  environment: "staging",
  title: "Template",
  path: "/api/v1/flows/00000000-0000-0000-0000-000000000000/staging/sessions",
};

/** What the runtime needs to send and check a request of this flow: body form, locales, part names, file limits, schemas. */
export const spec: FlowSpec<Flow["environment"]> = {
  id: "00000000-0000-0000-0000-000000000000",
  version: 1,
  environment: "staging",
  path: "/api/v1/flows/00000000-0000-0000-0000-000000000000/staging/sessions",
  bodyForm: "json",
  locales: ["en"],
  request: { type: "object" },
  response: { type: "object" },
};

/** Flow-specific: `flow`'s values as literal types. */
export interface Flow {
  readonly id: "00000000-0000-0000-0000-000000000000";
  readonly version: 1;
  readonly environment: "staging";
  readonly title: "Template";
  readonly path: "/api/v1/flows/00000000-0000-0000-0000-000000000000/staging/sessions";
}

/** Flow-specific, like the three below: the request, with one interface per data block. */
export interface CreateSessionRequest {
  input?: { readonly [block: string]: unknown };
  metadata: Metadata;
  redirectUrl?: string;
  state?: string;
  file?: FileInput;
}

/** Flow-specific. */
export interface Metadata {
  subjectId: string;
  locale?: Locale;
}

/** Flow-specific. */
export type Locale = "en";

/** Flow-specific. */
export interface CreateSessionResponse {
  flowId: string;
}

/**
 * Creates a session of this flow and returns it with its `playerUrl`. The
 * request is checked against the flow's schema (and file limits) before
 * anything is sent; the response is checked against the flow's 201 schema.
 */
export function createSession(
  client: Client<Flow["environment"]>,
  request: CreateSessionRequest,
  options?: RequestOptions,
): Promise<CreateSessionResponse> {
  return createFlowSession<CreateSessionResponse>(client, spec, request, options);
}
