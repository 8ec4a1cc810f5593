/**
 * POST /api/v1/flows/{flowId}/{environment}/sessions: read the body as JSON
 * or multipart (limits enforced while reading), validate it against the
 * flow, check redirectUrl against the allowlist (docs/service.md 2.1), store
 * the session and answer 201 with docs/service.md 2.3.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Environment } from "@flowsmith/runtime";
import { MAX_REQUEST_BYTES } from "@flowsmith/runtime/service-limits";
import { ApiError, badRequest } from "./errors.js";
import type { FileReference, FileVault } from "./files.js";
import type { CatalogFlow } from "./flow-catalog.js";
import { mediaTypeOf, rejectUpload, sendJson } from "./http-exchange.js";
import { readJsonBodyOrThrow } from "./json-body.js";
import { readMultipartOrThrow } from "./multipart.js";
import { checkRedirectUrlOrThrow, type RedirectAllowlist } from "./redirect-allowlist.js";
import type { Session, SessionStore } from "./sessions.js";
import { validateCreateRequestOrThrow, type CreateRequest } from "./validate-request.js";

export interface CreateSessionContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly flow: CatalogFlow;
  readonly environment: Environment;
  readonly vault: FileVault;
  readonly sessions: SessionStore;
  readonly redirectAllowlist: RedirectAllowlist;
  readonly baseUrl: string;
}

interface ReceivedBody {
  readonly body: unknown;
  readonly files: readonly FileReference[];
}

export async function createSession(context: CreateSessionContext): Promise<void> {
  const { req, res, flow } = context;
  let received: ReceivedBody;
  try {
    received = await receiveBodyOrThrow(context);
  } catch (error) {
    if (error instanceof ApiError) {
      rejectUpload(req, res, error);
      return;
    }
    throw error;
  }
  let request: CreateRequest;
  try {
    request = validateCreateRequestOrThrow(flow, received.body);
    if (request.redirectUrl !== undefined) checkRedirectUrlOrThrow(context.redirectAllowlist, request.redirectUrl);
  } catch (error) {
    await context.vault.discard(received.files);
    throw error;
  }
  const session = context.sessions.create(flow.model, request, received.files);
  sendJson(res, 201, creationResponse(session, context.baseUrl), {
    location: `/api/v1/${context.environment}/sessions/${session.id}`,
  });
}

async function receiveBodyOrThrow(context: CreateSessionContext): Promise<ReceivedBody> {
  const { req, flow } = context;
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_REQUEST_BYTES) {
    // Refused from the header alone: the body is only read to be discarded.
    throw new ApiError(
      413,
      "REQUEST_TOO_LARGE",
      `request body of ${declared} bytes is larger than ${MAX_REQUEST_BYTES} bytes (${MAX_REQUEST_BYTES / (1024 * 1024)} MB)`,
    );
  }
  const mediaType = mediaTypeOf(req);
  if (mediaType === "multipart/form-data") {
    const { body, files } = await readMultipartOrThrow(req, flow, context.vault, context.environment);
    return { body, files };
  }
  if (mediaType === "application/json") {
    if (flow.hasFiles) {
      throw badRequest(
        "UNSUPPORTED_CONTENT_TYPE",
        `flow "${flow.model.id}" takes files, so its sessions are created with multipart/form-data only`,
      );
    }
    return { body: await readJsonBodyOrThrow(req, flow.limits.values), files: [] };
  }
  throw badRequest(
    "UNSUPPORTED_CONTENT_TYPE",
    `Content-Type ${mediaType ? `"${mediaType}"` : "(missing)"} is not accepted: use application/json or multipart/form-data`,
  );
}

function creationResponse(session: Session, baseUrl: string): Record<string, unknown> {
  return {
    flowId: session.flow.id,
    environment: session.flow.environment,
    flowVersion: session.flow.version,
    playerUrl: playerUrl(session, baseUrl),
    sessionContext: { sessionId: session.id, sessionStatus: "CREATED", createdAt: session.createdAt.toISOString() },
    metadata: echoMetadata(session),
  };
}

export function echoMetadata(session: Session): Record<string, string> {
  const { subjectId, locale } = session.request.metadata;
  return locale === undefined ? { subjectId } : { subjectId, locale };
}

function playerUrl(session: Session, baseUrl: string): string {
  return `${baseUrl}/player/${session.id}?token=${session.playerToken}`;
}
