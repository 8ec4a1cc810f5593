/**
 * Waiting for something another process or a queue's worker does: polled
 * every 20 ms, bounded (10 s unless told), failing with what it waited for.
 */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  limitMs = 10_000,
): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`waited ${limitMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
