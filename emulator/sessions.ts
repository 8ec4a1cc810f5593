/**
 * Sessions and their life. A session's phase follows from its age (CREATED
 * for createdMs, then START for stepMs, then the OTP step without a ticket for
 * stepMs, then the OTP step waiting with a ticket) until an action ends it.
 * Deriving the phase from the clock needs no timers, and keeps every session
 * independent of the others.
 *
 * The store is bounded by `maxSessions`: a new session past it evicts the
 * session that ended longest ago, or when none has ended, the oldest one.
 * Ended sessions go first because their outcome has been delivered; a
 * running session is only evicted when every kept session is still running,
 * since refusing new sessions would stop a long test run instead.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Decision, Environment } from "@flowsmith/runtime";
import type { FlowModel } from "../generator/index.js";
import type { EmulatorClock } from "./clock.js";
import { notFound } from "./errors.js";
import type { FileReference } from "./files.js";
import type { CreateRequest } from "./validate-request.js";

/** The runtime's type (the webhook event carries it); re-exported for the emulator's modules. */
export type { Decision };

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
  outcome: Outcome | undefined;
}

interface Outcome {
  readonly decision: Decision;
  readonly decidedAt: Date;
}

export type EndedSession = Session & { readonly outcome: Outcome };

export interface SessionPolicy {
  readonly createdMs: number;
  readonly stepMs: number;
  readonly maxSessions: number;
  readonly clock: EmulatorClock;
}

export interface SessionEvents {
  /** A session has just ended. */
  readonly onEnd: (session: EndedSession) => void;
  /** A session was dropped to stay within maxSessions; its files are to be deleted. */
  readonly onEvict: (session: Session) => void;
}

export class SessionStore {
  /** In creation order. */
  private readonly sessions = new Map<string, Session>();
  /** Ids of ended sessions, in the order they ended. */
  private readonly ended = new Set<string>();

  constructor(
    private readonly policy: SessionPolicy,
    private readonly events: SessionEvents,
  ) {}

  create(flow: FlowModel, request: CreateRequest, files: readonly FileReference[]): Session {
    while (this.sessions.size >= this.policy.maxSessions && this.evictOne());
    const session: Session = {
      id: randomUUID(),
      flow,
      createdAt: new Date(this.policy.clock.now()),
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
    if (!session || session.flow.environment !== environment) {
      throw notFound(`no session "${sessionId}" in ${environment} (never created, or evicted to stay within maxSessions of ${String(this.policy.maxSessions)})`);
    }
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
    const { createdMs, stepMs, clock } = this.policy;
    const age = clock.now() - session.createdAt.getTime();
    if (age < createdMs) return "CREATED";
    if (age < createdMs + stepMs) return "START";
    if (age < createdMs + 2 * stepMs) return "STEP_WAITING";
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
    const ended = Object.assign(session, { ticketId: null, outcome: { decision, decidedAt: new Date(this.policy.clock.now()) } });
    this.ended.add(session.id);
    this.events.onEnd(ended);
  }

  /** False when there was nothing to evict. */
  private evictOne(): boolean {
    const id = this.ended.values().next().value ?? this.sessions.keys().next().value;
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (id === undefined || session === undefined) return false;
    this.sessions.delete(id);
    this.ended.delete(id);
    this.events.onEvict(session);
    return true;
  }
}
