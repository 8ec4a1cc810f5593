/**
 * The known word a mistyped one is a slip of: a config key (`outDir`), a
 * command (`codgen`), an option (`--chek`). One rule for every "did you mean".
 */

/**
 * The same but for case, its letters in order (`outDir`, `codgen`), or at
 * most two edits away (one for short words); undefined when none is close.
 */
export function closestOrUndefined(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const sameButCase = known.find((candidate) => candidate.toLowerCase() === lower);
  if (sameButCase !== undefined) return sameButCase;
  const shortened =
    word.length >= 3 ? known.find((candidate) => isSubsequence(lower, candidate.toLowerCase())) : undefined;
  if (shortened !== undefined) return shortened;
  const limit = word.length <= 4 ? 1 : 2;
  const scored = known.map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase()) }));
  const best = scored.filter((entry) => entry.distance <= limit).sort((a, b) => a.distance - b.distance)[0];
  return best?.candidate;
}

function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at]) at += 1;
  return at === short.length;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`sorce`, `soruce`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}
