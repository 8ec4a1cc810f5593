/**
 * The flow-specific OpenAPI description of a published flow (docs/service.md
 * 2.4: it "can be fetched through an API endpoint"; section 4 does not show
 * the path). The path is therefore the caller's to give, as a template; the
 * default is the one flowsmith's emulator serves.
 */
import type { ClientContext } from "./client-context.js";
import { InvalidResponseError } from "./errors.js";
import type { RequestOptions } from "./resources.js";
import { DEFAULT_DESCRIPTION_PATH } from "./service-limits.js";
import { segment } from "./session-calls.js";

export interface FlowDescriptionOptions extends RequestOptions {
  /**
   * Path of the description under baseUrl, with `{flowId}` (sent encoded as
   * one path segment) and `{environment}` (the client's) filled in.
   * Default "/api/v1/flows/{flowId}/{environment}/openapi".
   */
  readonly path?: string;
}

/** The parsed JSON document; anything but a JSON object is an InvalidResponseError. */
export async function getFlowDescription(ctx: ClientContext, flowId: string, options: FlowDescriptionOptions = {}): Promise<unknown> {
  const { path: template = DEFAULT_DESCRIPTION_PATH, ...request } = options;
  const path = template.split("{flowId}").join(segment(flowId, "flowId")).split("{environment}").join(ctx.options.environment);
  const body = await ctx.api.json<unknown>({ method: "GET", path, ...request });
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidResponseError("GET", ctx.api.displayPath({ path }), "expected a flow description (a JSON object)");
  }
  return body;
}
