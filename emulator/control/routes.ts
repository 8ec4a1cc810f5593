/**
 * The control API over HTTP, on the API host under /__emulator/ (a path the
 * service never uses). JSON in and out; the Host, the token and the browser
 * rules (control-access.ts) are checked before anything else, routing
 * included, so a caller without the token learns nothing. Not journaled,
 * and no fault applies to it. A body's shape is checked before it is parsed
 * (body-shape.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ControlMount } from "../api-server.js";
import { ApiError, badRequest, notFound } from "../errors.js";
import { pathOf, readSmallBodyOrThrow, rejectUpload, sendJson } from "../http-exchange.js";
import { checkControlHostOrThrow, checkControlTokenOrThrow, refuseBrowserOrThrow } from "../control-access.js";
import { EmulatorControlError, invalidField } from "../control-error.js";
import { checkBodyShapeInTurnsOrThrow } from "./body-shape.js";
import type { EmulatorControl } from "./controller.js";
import type { FaultInput } from "./fault-input.js";

const PREFIX = "/__emulator";
const MAX_FAULT_BYTES = 128 * 1024;
/** A flow description; the largest samples are tens of kilobytes, and the generator reads one in a single turn of the event loop. */
const MAX_DESCRIPTION_BYTES = 1024 * 1024;

/** What a route answers: a status and its JSON body, or undefined when the request was answered already (413). */
type ControlAnswer = readonly [status: number, body: unknown] | undefined;

interface ControlRoute {
  readonly method: "GET" | "POST" | "DELETE";
  readonly path: string;
  readonly answer: (
    req: IncomingMessage,
    res: ServerResponse,
    control: EmulatorControl,
  ) => ControlAnswer | Promise<ControlAnswer>;
}

const ROUTES: readonly ControlRoute[] = [
  {
    method: "POST",
    path: `${PREFIX}/faults`,
    answer: async (req, res, control) => {
      const body = await readBodyOrUndefined(req, res, MAX_FAULT_BYTES);
      return body && [201, control.addFault((await jsonInTurnsOrThrow(body)) as FaultInput)];
    },
  },
  { method: "GET", path: `${PREFIX}/faults`, answer: (_req, _res, control) => [200, { faults: control.faults() }] },
  { method: "DELETE", path: `${PREFIX}/faults`, answer: (_req, _res, control) => [200, control.clearFaults()] },
  {
    method: "GET",
    path: `${PREFIX}/requests`,
    answer: (req, _res, control) => [200, control.requests(sinceOrThrow(req))],
  },
  {
    method: "GET",
    path: `${PREFIX}/webhooks`,
    answer: (_req, _res, control) => [200, { webhooks: control.webhooks() }],
  },
  {
    method: "POST",
    path: `${PREFIX}/reset`,
    answer: (_req, _res, control) => {
      control.reset();
      return [200, { reset: true }];
    },
  },
  {
    method: "POST",
    path: `${PREFIX}/flows`,
    answer: async (req, res, control) => {
      const body = await readBodyOrUndefined(req, res, MAX_DESCRIPTION_BYTES);
      return body && [201, await control.publishFlowInTurns(body)];
    },
  },
];

/** Who may call: the token (if any) and the host the emulator was told to bind to. */
interface ControlAccessRules {
  readonly token: string | undefined;
  readonly host: string;
}

/** The control API as the API host mounts it. */
export function controlMount(control: EmulatorControl, access: ControlAccessRules): ControlMount {
  return { owns: isControlPath, handle: (req, res) => handleControl(req, res, control, access) };
}

function isControlPath(req: IncomingMessage): boolean {
  const path = pathOf(req);
  return path === PREFIX || path.startsWith(`${PREFIX}/`);
}

async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  control: EmulatorControl,
  access: ControlAccessRules,
): Promise<void> {
  checkControlHostOrThrow(req, access.host);
  checkControlTokenOrThrow(access.token, req.headers.authorization);
  refuseBrowserOrThrow(req.headers.origin);
  const path = pathOf(req);
  const matching = ROUTES.filter((route) => route.path === path);
  if (matching.length === 0)
    throw notFound(`no such control endpoint: ${req.method ?? ""} ${path} (see docs/emulator.md, "Control API")`);
  const route = matching.find((candidate) => candidate.method === req.method);
  if (!route) {
    const allow = matching.map((candidate) => candidate.method).join(", ");
    throw new ApiError(405, "METHOD_NOT_ALLOWED", `${path} accepts ${allow}, not ${req.method ?? ""}`, {
      headers: { allow },
    });
  }
  let answer: ControlAnswer;
  try {
    answer = await route.answer(req, res, control);
  } catch (error) {
    throw error instanceof EmulatorControlError ? error.toApiError() : error;
  }
  if (answer) sendJson(res, answer[0], answer[1]);
}

/** The body, or undefined when it was too large (then already answered 413). */
async function readBodyOrUndefined(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
): Promise<Buffer | undefined> {
  try {
    return await readSmallBodyOrThrow(req, maxBytes);
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) {
      rejectUpload(req, res, error);
      return undefined;
    }
    throw error;
  }
}

/** The body as JSON, its shape checked first (body-shape.ts). */
async function jsonInTurnsOrThrow(bytes: Buffer): Promise<unknown> {
  const text = bytes.toString("utf8");
  await checkBodyShapeInTurnsOrThrow(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest("MALFORMED_BODY", `the body is not valid JSON: ${(error as Error).message}`);
  }
}

function sinceOrThrow(req: IncomingMessage): number {
  const since = new URL(req.url ?? "/", "http://control.invalid").searchParams.get("since");
  if (since === null) return 0;
  if (!/^\d{1,15}$/.test(since))
    throw invalidField(
      "since",
      `must be a whole number >= 0 (the "next" of the previous read), got ${JSON.stringify(since.slice(0, 40))}`,
    );
  return Number(since);
}
