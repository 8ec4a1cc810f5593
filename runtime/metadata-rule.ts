/**
 * The service's metadata rule (docs/service.md section 2.1), read once. On
 * `@flowsmith/runtime/internal` for the emulator, not on the public index.
 */
import { isRecord } from "./json.js";
import { METADATA_KEYS } from "./service-limits.js";

/** How a request's metadata breaks the rule of section 2.1. */
export type MetadataProblem =
  { readonly kind: "keys"; readonly keys: readonly string[] } | { readonly kind: "locale"; readonly locale: unknown };

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
  if (locale !== undefined && !(locales as readonly unknown[]).includes(locale))
    (problems ??= []).push({ kind: "locale", locale });
  return problems ?? NO_PROBLEMS;
}

/** One shared empty answer: the usual request, on the hot path, allocates nothing. */
const NO_PROBLEMS: readonly MetadataProblem[] = Object.freeze([]);

function isMetadataKey(key: string): boolean {
  return (METADATA_KEYS as readonly string[]).includes(key);
}
