/**
 * `--watch`: the config and the descriptions it names are watched (the
 * generator's config-watch.ts, as `codegen --watch` watches them), and a
 * change reloads them: changed flows are published as new versions, flows
 * gone from the config are withdrawn (flow-catalog.ts). A set that does not
 * load (a broken description, a config error) changes nothing: the emulator
 * keeps serving what it served, and says why.
 */
import { watchConfig, type ConfigWatch } from "../generator/index.js";
import { readConfiguredFlowsOrThrow, type FlowCatalog } from "./flow-catalog.js";
import type { Reload } from "./options.js";

export type { ConfigWatch };

interface WatchSetup {
  /** Absolute. */
  readonly configPath: string;
  readonly catalog: FlowCatalog;
  readonly onReload: (reload: Reload) => void;
}

/** Resolves once the files are watched: a change made after that is seen. */
export function watchAndReload(setup: WatchSetup): Promise<ConfigWatch> {
  return watchConfig({
    configPath: setup.configPath,
    onChange: async () => {
      setup.onReload(await reloadOf(setup));
    },
    // Not a reload: the watcher failed (a folder it may not list, the system's limit of watches); what is served stays.
    onError: (error) => {
      setup.onReload({ ok: false, failed: "watch", error });
    },
  });
}

async function reloadOf(setup: WatchSetup): Promise<Reload> {
  try {
    return {
      ok: true,
      changes: setup.catalog.loadConfiguredOrThrow(await readConfiguredFlowsOrThrow(setup.configPath)),
    };
  } catch (error) {
    return { ok: false, failed: "reload", error: error instanceof Error ? error : new Error(String(error)) };
  }
}
