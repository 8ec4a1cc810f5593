/**
 * The service's fixed values (docs/service.md sections 2.1, 2.2, 5 and 8),
 * written once, and nothing else: this module is also the
 * `@flowsmith/runtime/service-limits` entry, which loads no other module. The
 * generator's model, the emulator and the runtime import them from here
 * directly; the metadata rule that reads them is metadata-rule.ts.
 */
/** The service's two environments; an API client, a flow version and a session each belong to one. */
export type Environment = "staging" | "live";
/** Every Environment, in order. */
export const ENVIRONMENTS: readonly Environment[] = ["staging", "live"];

/** Locales the service knows (section 2.2). A flow may accept a subset. */
export const SERVICE_LOCALES = ["en", "de", "fr", "pl", "it", "es"] as const;
/** One of the service's locales: the player's language (`metadata.locale`). */
export type Locale = (typeof SERVICE_LOCALES)[number];

/** The keys metadata may have (section 2.1). */
export const METADATA_KEYS = ["subjectId", "locale"] as const;

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
