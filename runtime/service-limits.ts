/**
 * The service's fixed values (docs/service.md sections 2.2, 5 and 8), written
 * once, and its metadata rule (section 2.1), read once. The generator's model,
 * the emulator and the runtime import them from here directly.
 */
import { isRecord } from "./json.js";

export type Environment = "staging" | "live";
export const ENVIRONMENTS: readonly Environment[] = ["staging", "live"];

/** Locales the service knows (section 2.2). A flow may accept a subset. */
export const SERVICE_LOCALES = ["en", "de", "fr", "pl", "it", "es"] as const;
export type Locale = (typeof SERVICE_LOCALES)[number];

/** The keys metadata may have (section 2.1). */
export const METADATA_KEYS = ["subjectId", "locale"] as const;

/** How a request's metadata breaks the rule of section 2.1. */
export type MetadataProblem =
  | { readonly kind: "keys"; readonly keys: readonly string[] }
  | { readonly kind: "locale"; readonly locale: unknown };

/**
 * The metadata rule: only METADATA_KEYS, and a locale the flow offers. The
 * runtime (before sending) and the emulator (on receiving) both ask it, and
 * each words and codes the answers its own way. Every way `metadata` breaks
 * the rule, keys first; none when it keeps the rule, or is missing or not an
 * object (the request's validator reports that).
 */
export function metadataProblems(metadata: unknown, locales: readonly string[]): readonly MetadataProblem[] {
  if (!isRecord(metadata)) return NO_PROBLEMS;
  let problems: MetadataProblem[] | undefined;
  for (const key in metadata) {
    // Asked key by key, without building a list: the usual request has only the allowed keys.
    if (Object.hasOwn(metadata, key) && !isMetadataKey(key)) {
      problems = [{ kind: "keys", keys: Object.keys(metadata).filter((name) => !isMetadataKey(name)) }];
      break;
    }
  }
  const locale = metadata["locale"];
  if (locale !== undefined && !(locales as readonly unknown[]).includes(locale)) (problems ??= []).push({ kind: "locale", locale });
  return problems ?? NO_PROBLEMS;
}

/** One shared empty answer: the usual request, on the hot path, allocates nothing. */
const NO_PROBLEMS: readonly MetadataProblem[] = Object.freeze([]);

function isMetadataKey(key: string): boolean {
  return (METADATA_KEYS as readonly string[]).includes(key);
}

/** Per-file limit when a description gives no maxLength (section 8). "MB" in the spec is 2^20 bytes. */
export const DEFAULT_MAX_FILE_BYTES = 26_214_400;
/** Files in one create-session request (section 8). */
export const MAX_FILES_PER_REQUEST = 30;
/** Total create-session body (section 8): 50 MB. */
export const MAX_REQUEST_BYTES = 52_428_800;
/** Longest `state` (sections 2.1, 8). */
export const MAX_STATE_LENGTH = 2048;
/** Access token lifetime when the token response gives none (section 5). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 86_400;
/** Recommended interval between GET step polls (section 8): 2 to 3 s. */
export const RECOMMENDED_POLL_INTERVAL_MS = 2_500;

/**
 * Where a flow's description is fetched (docs/service.md 2.4 says it can be,
 * section 4 does not show the path): the emulator's path, the default of the
 * runtime's getFlowDescription and of the config's service.descriptionPath.
 */
export const DEFAULT_DESCRIPTION_PATH = "/api/v1/flows/{flowId}/{environment}/openapi";
