/** A logger of pino's shape that keeps what it is given, for tests. */
import type { Logger } from "../../../runtime/index.js";

export interface LoggedEntry {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly fields: Record<string, unknown>;
  readonly message: string | undefined;
}

export function arrayLogger(options: { debug?: boolean } = {}): Logger & { readonly entries: LoggedEntry[] } {
  const entries: LoggedEntry[] = [];
  const at =
    (level: LoggedEntry["level"]) =>
    (fields: object, message?: string): void => {
      entries.push({ level, fields: { ...fields }, message });
    };
  return {
    entries,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    isLevelEnabled: (level) => level !== "debug" || options.debug === true,
  };
}
