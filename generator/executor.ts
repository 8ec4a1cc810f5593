/**
 * How the pipeline spreads the per-flow work (read → model → emit). The
 * pipeline hands every flow to `map` and gets the results back in config
 * order, so output, progress and the error reported are the same however
 * the work was spread.
 *
 * One executor ships: this thread, one flow after another. Worker threads
 * were measured and removed (bench/analysis.md, "Codegen on threads"): each
 * worker loads and warms up ts-morph, prettier and ajv itself, and on the
 * 2-core machine the runs were slower with workers than without
 * (100 flows: 2.99 s in this thread, 3.21 s with two workers, 3.50 s with one).
 * A machine with more cores was not available to show that they pay there.
 */
export interface Executor {
  /** `work` on every item; the results in the items' order. The first failure (in order) is thrown. */
  map<Item, Result>(items: readonly Item[], work: (item: Item) => Promise<Result>): Promise<Result[]>;
}

/** One at a time: a failing flow stops the run before later flows are read. */
export const inThisThread: Executor = {
  async map(items, work) {
    const results = [];
    for (const item of items) results.push(await work(item));
    return results;
  },
};
