/**
 * The flow-specific OpenAPI description of a published flow (docs/service.md
 * 2.4: it "can be fetched through an API endpoint"; section 4 does not show
 * the path). The path is therefore the caller's to give, as a template; the
 * default is the one flowsmith's emulator serves.
 */
import type { ClientContext } from "./client-context.js";
import { segmentOrThrow } from "./paths.js";
import { isRecord } from "./json.js";
import type { RequestOptions } from "./resources.js";
import { DEFAULT_DESCRIPTION_PATH } from "./service-limits.js";

export interface FlowDescriptionOptions extends RequestOptions {
  /**
   * Path of the description under baseUrl, with `{flowId}` (sent encoded as
   * one path segment) and `{environment}` (the client's) filled in.
   * Default "/api/v1/flows/{flowId}/{environment}/openapi".
   */
  readonly path?: string;
}

/** The parsed JSON document; anything but a JSON object is an InvalidResponseError. */
export async function getFlowDescription(
  ctx: ClientContext,
  flowId: string,
  options: FlowDescriptionOptions = {},
): Promise<unknown> {
  const { path: template = DEFAULT_DESCRIPTION_PATH, ...request } = options;
  const path = template
    .split("{flowId}")
    .join(segmentOrThrow(flowId, "flowId"))
    .split("{environment}")
    .join(segmentOrThrow(ctx.options.environment, "environment"));
  return ctx.api.json<unknown>({ ...request, method: "GET", path, route: template }, { issuesOf: descriptionIssues });
}

function descriptionIssues(body: unknown): { path: string; message: string }[] {
  return isRecord(body) ? [] : [{ path: "(root)", message: "must be a flow description (a JSON object)" }];
}
