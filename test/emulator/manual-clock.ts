/**
 * A clock the test moves by hand: the emulator's session phases, token
 * expiry and webhook retries follow it, so no test sleeps or races the wall
 * clock. Timers run when `advance` passes their time, in time order.
 */
import type { EmulatorClock } from "../../emulator/index.js";

interface Timer {
  readonly at: number;
  readonly callback: () => void;
}

export class ManualClock implements EmulatorClock {
  private time: number;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();
  private waiters: (() => void)[] = [];

  /** Starts at the real time, so timestamps it produces pass checks against the real clock (Standard Webhooks' 5 minutes). */
  constructor(start = Date.now()) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, callback });
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves time on by `ms`, running every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, timer]) => timer.at <= target)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].callback();
    }
    this.time = target;
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Resolves once a timer is pending (at once if one is); jest's timeout bounds the wait. */
  timerScheduled(): Promise<void> {
    if (this.timers.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
