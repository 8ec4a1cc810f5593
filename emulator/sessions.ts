/**
 * Sessions and their life. A session's phase follows from its age (CREATED
 * for createdMs, then START for stepMs, then the OTP step without a ticket for
 * stepMs, then the OTP step waiting with a ticket) until an action ends it.
 * Deriving the phase from the clock keeps every session independent of the
 * others. A session whose scenario (scenarios.ts) ends it on its own, at the
 * time the OTP step would issue its ticket, also gets one timer for that
 * moment, so its webhook goes out even when nobody polls; whichever comes
 * first, the timer or a read of the session, ends it, at that very time.
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
import { scenarioOf, type Scenario } from "./scenarios.js";
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
  /** Chosen by metadata.subjectId. */
  readonly scenario: Scenario;
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
  /** The end timers of sessions whose scenario ends them on their own, by session id. */
  private readonly endTimers = new Map<string, unknown>();

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
      scenario: scenarioOf(request.metadata.subjectId),
      playerToken: randomBytes(24).toString("base64url"),
      ticketId: null,
      wrongCodes: 0,
      outcome: undefined,
    };
    this.sessions.set(session.id, session);
    const { life } = session.scenario;
    const endsAt = this.endTimeOf(session);
    if (life.kind === "ends" && endsAt !== undefined) {
      const { clock } = this.policy;
      const end = (): void => {
        this.end(session, life.decision, endsAt);
      };
      this.endTimers.set(session.id, clock.setTimeout(end, endsAt - clock.now()));
    }
    return session;
  }

  /** Sessions of another environment are not found, as the service keeps environments apart. */
  findOrThrow(sessionId: string, environment: Environment): Session {
    const session = this.find(sessionId);
    if (!session || session.flow.environment !== environment) {
      throw notFound(
        `no session "${sessionId}" in ${environment} (never created, or evicted to stay within maxSessions of ${String(this.policy.maxSessions)})`,
      );
    }
    return session;
  }

  /** Brought up to date first: a session whose scenario has ended it by now is ended. */
  find(sessionId: string): Session | undefined {
    const session = this.sessions.get(sessionId);
    if (session) this.phaseOf(session);
    return session;
  }

  /** Sessions of every version of the flow: a version published since (POST /__emulator/flows) keeps the older sessions. */
  ofFlow(flow: FlowModel): Session[] {
    return [...this.sessions.values()].filter(
      (session) => session.flow.id === flow.id && session.flow.environment === flow.environment,
    );
  }

  phaseOf(session: Session): Phase {
    if (session.outcome) return "END";
    const { createdMs, stepMs, clock } = this.policy;
    const age = clock.now() - session.createdAt.getTime();
    if (age < createdMs) return "CREATED";
    const { life } = session.scenario;
    if (life.kind === "never-ends" || age < createdMs + stepMs) return "START";
    if (age < createdMs + 2 * stepMs) return "STEP_WAITING";
    if (life.kind === "ends") {
      this.end(session, life.decision, this.endTimeOf(session));
      return "END";
    }
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

  /** `at`: when it ended, for a session its scenario ended (the scheduled time, however late it is noticed); default now. */
  end(session: Session, decision: Decision, at = this.policy.clock.now()): void {
    if (session.outcome) return;
    this.stopEndTimer(session.id);
    const ended = Object.assign(session, { ticketId: null, outcome: { decision, decidedAt: new Date(at) } });
    this.ended.add(session.id);
    this.events.onEnd(ended);
  }

  /** Drops every session (their files through onEvict) and stops their timers: POST /__emulator/reset, and close. */
  clear(): void {
    for (const id of [...this.endTimers.keys()]) this.stopEndTimer(id);
    const dropped = [...this.sessions.values()];
    this.sessions.clear();
    this.ended.clear();
    for (const session of dropped) this.events.onEvict(session);
  }

  /** When a session its scenario ends on its own ends: as the OTP step would issue its ticket. */
  private endTimeOf(session: Session): number | undefined {
    if (session.scenario.life.kind !== "ends") return undefined;
    return session.createdAt.getTime() + this.policy.createdMs + 2 * this.policy.stepMs;
  }

  private stopEndTimer(sessionId: string): void {
    const timer = this.endTimers.get(sessionId);
    if (timer === undefined) return;
    this.endTimers.delete(sessionId);
    this.policy.clock.clearTimeout(timer);
  }

  /** False when there was nothing to evict. */
  private evictOne(): boolean {
    const id = this.ended.values().next().value ?? this.sessions.keys().next().value;
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (id === undefined || session === undefined) return false;
    this.sessions.delete(id);
    this.ended.delete(id);
    this.stopEndTimer(id);
    this.events.onEvict(session);
    return true;
  }
}
