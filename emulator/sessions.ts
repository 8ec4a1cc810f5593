/**
 * Sessions and their life. A session's phase follows from its age (CREATED
 * for createdMs, then START for stepMs, then the OTP step without a ticket for
 * stepMs, then the OTP step waiting with a ticket) until an action ends it.
 * Deriving the phase from the clock needs no timers, and keeps every session
 * independent of the others.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Environment } from "@flowsmith/runtime";
import type { FlowModel } from "../generator/index.js";
import { notFound } from "./errors.js";
import type { FileReference } from "./files.js";
import type { CreateRequest } from "./validate-request.js";

export type Decision = "ACCEPTED" | "REJECTED";

export type Phase = "CREATED" | "START" | "STEP_WAITING" | "STEP_TICKET" | "END";

export interface Session {
  readonly id: string;
  readonly flow: FlowModel;
  readonly createdAt: Date;
  readonly request: CreateRequest;
  readonly files: readonly FileReference[];
  /** The token in playerUrl. */
  readonly playerToken: string;
  /** The ticket the step waits on; replaced on every answer. */
  ticketId: string | null;
  wrongCodes: number;
  outcome: { readonly decision: Decision; readonly decidedAt: Date } | undefined;
}

export interface SessionTiming {
  readonly createdMs: number;
  readonly stepMs: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly timing: SessionTiming,
    private readonly onEnd: (session: Session) => void,
  ) {}

  create(flow: FlowModel, request: CreateRequest, files: readonly FileReference[]): Session {
    const session: Session = {
      id: randomUUID(),
      flow,
      createdAt: new Date(),
      request,
      files,
      playerToken: randomBytes(24).toString("base64url"),
      ticketId: null,
      wrongCodes: 0,
      outcome: undefined,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /** Sessions of another environment are not found, as the service keeps environments apart. */
  findOrThrow(sessionId: string, environment: Environment): Session {
    const session = this.find(sessionId);
    if (!session || session.flow.environment !== environment) throw notFound(`no session "${sessionId}" in ${environment}`);
    return session;
  }

  find(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  ofFlow(flow: FlowModel): Session[] {
    return [...this.sessions.values()].filter((session) => session.flow === flow);
  }

  phaseOf(session: Session): Phase {
    if (session.outcome) return "END";
    const age = Date.now() - session.createdAt.getTime();
    if (age < this.timing.createdMs) return "CREATED";
    if (age < this.timing.createdMs + this.timing.stepMs) return "START";
    if (age < this.timing.createdMs + 2 * this.timing.stepMs) return "STEP_WAITING";
    if (session.ticketId === null) this.issueTicket(session);
    return "STEP_TICKET";
  }

  statusOf(session: Session): "CREATED" | "RUNNING" | "COMPLETED" {
    const phase = this.phaseOf(session);
    return phase === "CREATED" ? "CREATED" : phase === "END" ? "COMPLETED" : "RUNNING";
  }

  issueTicket(session: Session): string {
    session.ticketId = randomUUID();
    return session.ticketId;
  }

  end(session: Session, decision: Decision): void {
    if (session.outcome) return;
    session.ticketId = null;
    session.outcome = { decision, decidedAt: new Date() };
    this.onEnd(session);
  }
}
