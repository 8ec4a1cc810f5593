/**
 * `--watch`: the config and the descriptions it names are watched
 * (chokidar), and a change reloads them: changed flows are published as new
 * versions, flows gone from the config are withdrawn (flow-catalog.ts). A
 * set that does not load (a broken description, a config error) changes
 * nothing: the emulator keeps serving what it served, and says why. Changes
 * that come together (an editor's save, a checkout) make one reload.
 *
 * The folders holding the files are watched, not the files, and so are
 * their parents: chokidar lets go of a watched file, or folder, once it is
 * deleted (a checkout, `git stash`), so the file written again, and every
 * later edit, would go unseen. A folder that comes back is watched again.
 * Only the files the config names (and their folders) count; the rest of
 * each folder is ignored.
 */
import path from "node:path";
import { watch, type FSWatcher } from "chokidar";
import { readConfiguredFlowsOrThrow, type FlowCatalog } from "./flow-catalog.js";
import type { Reload } from "./options.js";

/** Changes closer together than this are one reload. Real time: the files are on a real disk. */
const SETTLE_MS = 100;

export interface ConfigWatch {
  close(): Promise<void>;
}

interface WatchSetup {
  readonly configPath: string;
  /** The files of the last load, the config first. */
  readonly files: readonly string[];
  readonly catalog: FlowCatalog;
  readonly onReload: (reload: Reload) => void;
}

/** Resolves once the watcher is ready: a change made after that is seen. */
export async function watchConfig(setup: WatchSetup): Promise<ConfigWatch> {
  let watched = new Set(setup.files.map((file) => path.resolve(file)));
  let folders = foldersOf(watched);
  // The project holding the config is not expected to go and come back: its parent (a folder of projects) is not watched.
  const configFolder = path.dirname(path.resolve(setup.configPath));
  let roots = rootsOf(folders, configFolder);
  const watcher: FSWatcher = watch([...roots], {
    ignoreInitial: true,
    persistent: true,
    depth: 0,
    ignored: (entry) => !roots.has(entry) && !watched.has(entry),
  });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const reload = async (): Promise<void> => {
    let result: Reload;
    try {
      const configured = await readConfiguredFlowsOrThrow(setup.configPath);
      if (closed) return;
      const changes = setup.catalog.loadConfiguredOrThrow(configured.flows);
      // The new sets first: chokidar asks `ignored` about what it finds in a folder added now.
      const previous = roots;
      watched = new Set(configured.files.map((file) => path.resolve(file)));
      folders = foldersOf(watched);
      roots = rootsOf(folders, configFolder);
      rewatch(watcher, previous, roots);
      result = { ok: true, changes };
    } catch (error) {
      result = { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
    if (!closed) setup.onReload(result);
  };
  const run = (): void => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = reload().finally(() => {
      running = undefined;
      if (again && !closed) {
        again = false;
        schedule();
      }
    });
  };
  const schedule = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, SETTLE_MS);
  };

  watcher.on("all", (event, entry) => {
    const changed = path.resolve(entry);
    if (event === "addDir" && folders.has(changed)) {
      // Back after it was deleted: chokidar watches it again only when asked to; what it holds now is new.
      watcher.add(changed);
      schedule();
    }
    if (watched.has(changed)) schedule();
  });
  // An unheard "error" event would throw; a watcher that fails is reported as a reload that did not happen.
  watcher.on("error", (error: unknown) => {
    if (!closed) setup.onReload({ ok: false, error: error instanceof Error ? error : new Error(String(error)) });
  });
  await new Promise<void>((resolve) => watcher.once("ready", resolve));
  return {
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}

function foldersOf(files: ReadonlySet<string>): Set<string> {
  return new Set([...files].map((file) => path.dirname(file)));
}

/** The folders and their parents (but the config's): a parent sees its folder deleted and come back. */
function rootsOf(folders: ReadonlySet<string>, configFolder: string): Set<string> {
  return new Set([...folders].flatMap((folder) => (folder === configFolder ? [folder] : [folder, path.dirname(folder)])));
}

/**
 * Watches the roots of the files the config names now; one that no longer holds any is let go. A
 * folder chokidar no longer watches (deleted, with its parent, while the config named it) is
 * watched again.
 */
function rewatch(watcher: FSWatcher, watched: ReadonlySet<string>, next: ReadonlySet<string>): void {
  const live = watcher.getWatched();
  const added = [...next].filter((root) => !watched.has(root) || !(root in live));
  const gone = [...watched].filter((root) => !next.has(root));
  if (added.length > 0) watcher.add(added);
  if (gone.length > 0) watcher.unwatch(gone);
}
