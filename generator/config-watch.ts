/**
 * Watching a codegen config and the descriptions (or snapshots) it names,
 * for `codegen --watch` and the emulator's --watch. Changes that come
 * together (an editor's save is several events, a checkout many) make one
 * run, after `debounceMs` of quiet; runs never overlap, and changes during a
 * run start one more after it. Before each run the config is read again for
 * the files it names (one that does not load keeps the last set), and the
 * watch is made to match, so a change made while the run reads the files is
 * seen and runs again.
 *
 * Files are watched through their folders (chokidar, one level deep), and so
 * are those folders' parents: chokidar lets go of a file or folder once it
 * is deleted (a checkout, `git stash`), and a save that replaces a file by a
 * rename is an event of its folder. A folder that is missing is waited for in
 * the nearest folder above it that exists; one removed and made again is
 * watched anew. The folder above the config's is not watched: the project
 * holding the config is not expected to go and come back, and its parent may
 * be a large folder of projects. Only the named files and the folders on the
 * way to them count; the rest of each folder is ignored.
 */
import path from "node:path";
import { watch, type FSWatcher } from "chokidar";
import { loadConfigOrThrow, type Env } from "./config/load-config.js";
import { isFolder } from "./file-checks.js";
import { isSameOrInside } from "./output/file-tree.js";

export interface ConfigWatchOptions {
  /** The config file, absolute. */
  readonly configPath: string;
  /** Where the config's service settings are read. Default process.env. */
  readonly env?: Env;
  /**
   * One run once changes have settled. `changed`: the files that changed,
   * absolute (empty for the run at start); `files`: every file watched now.
   * A run that throws is reported to onError.
   */
  readonly onChange: (run: {
    readonly changed: readonly string[];
    readonly files: ReadonlySet<string>;
  }) => Promise<void>;
  /** A watch that failed (a folder it may not read, the system's limit of watches); the files already watched still are. */
  readonly onError: (error: Error) => void;
  /** Run once as soon as the files are watched (codegen's first generation). Default false. */
  readonly runAtStart?: boolean;
  /** Quiet time after the last change before a run. Default 100 ms. */
  readonly debounceMs?: number;
}

export interface ConfigWatch {
  /** Stops watching; resolves once a run under way has finished (a codegen write is all or nothing). */
  close(): Promise<void>;
}

const WATCH_DEFAULTS = { debounceMs: 100 } as const;

/**
 * Without `runAtStart`, resolves once the files are watched: a change made
 * after that is seen. With it, resolves at once, the files not yet watched:
 * the run at start watches them before it reads them, so a change made in
 * the meantime is read by that run, and one made during it runs again.
 */
export async function watchConfig(options: ConfigWatchOptions): Promise<ConfigWatch> {
  const debounceMs = options.debounceMs ?? WATCH_DEFAULTS.debounceMs;
  const configFolder = path.dirname(options.configPath);
  let files = await namedFiles(options, new Set([options.configPath]));
  /** The named files and every folder on the way to them: what the watcher does not ignore. */
  let relevant = new Set<string>();
  let roots: string[] = [];
  let watcher: FSWatcher | undefined;
  /** A folder on the way to a file came or went: the watch is made anew before the next run. */
  let stale = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const changed = new Set<string>();

  const rewatch = async (): Promise<void> => {
    const nextRelevant = relevantPaths(files);
    const nextRoots = rootsOf(await nearestFolders(files), configFolder);
    if (!stale && watcher && sameSet(nextRelevant, relevant) && sameSet(new Set(nextRoots), new Set(roots))) return;
    stale = false;
    await watcher?.close();
    relevant = nextRelevant;
    roots = nextRoots;
    const made = watch(roots, {
      ignoreInitial: true,
      persistent: true,
      depth: 0,
      ignored: (entry) => !relevant.has(path.resolve(entry)),
    });
    made.on("all", onEvent);
    // An unheard "error" event would throw and end the process.
    made.on("error", (error: unknown) => {
      if (!closed) options.onError(error instanceof Error ? error : new Error(String(error)));
    });
    await new Promise<void>((resolve) => made.once("ready", resolve));
    watcher = made;
  };
  const runOnce = async (): Promise<void> => {
    const these = [...changed].sort();
    changed.clear();
    files = await namedFiles(options, files);
    await rewatch();
    if (closed) return;
    try {
      await options.onChange({ changed: these, files });
    } catch (error) {
      options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const start = (): void => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = runOnce().finally(() => {
      running = undefined;
      if (again && !closed) {
        again = false;
        schedule();
      }
    });
  };
  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(start, debounceMs);
  };
  function onEvent(event: string, entry: string): void {
    const absolute = path.resolve(entry);
    if (event === "addDir" || event === "unlinkDir") {
      // A folder made or removed on the way to a named file: its files may have come or gone with it.
      const inside = [...files].filter((file) => isSameOrInside(file, absolute));
      if (inside.length === 0) return;
      stale = true;
      for (const file of inside) changed.add(file);
    } else if (files.has(absolute)) {
      changed.add(absolute);
    } else {
      return;
    }
    schedule();
  }

  // The run at start watches the files first, as every run does.
  if (options.runAtStart) start();
  else await rewatch();
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      // A run under way finishes: a codegen write is all or nothing, and stopping must not leave a half-done one to recover.
      for (let run = running; run !== undefined; run = running) await run;
      await watcher?.close();
    },
  };
}

/** The config and each flow's description or snapshot, absolute; a config that does not load keeps the last set. */
async function namedFiles(options: ConfigWatchOptions, previous: ReadonlySet<string>): Promise<Set<string>> {
  try {
    const config = await loadConfigOrThrow(options.configPath, options.env);
    const sources = config.flows.map((flow) =>
      flow.source.kind === "file" ? flow.source.path : flow.source.snapshot.path,
    );
    return new Set([config.configPath, ...sources].map((file) => path.resolve(file)));
  } catch {
    return new Set([...previous, path.resolve(options.configPath)]);
  }
}

function relevantPaths(files: ReadonlySet<string>): Set<string> {
  const paths = new Set<string>();
  for (const file of files) {
    paths.add(file);
    for (let folder = path.dirname(file); !paths.has(folder); folder = path.dirname(folder)) {
      paths.add(folder);
      if (path.dirname(folder) === folder) break;
    }
  }
  return paths;
}

/** For each file, its folder, or the nearest folder above it that exists. */
async function nearestFolders(files: ReadonlySet<string>): Promise<Set<string>> {
  const folders = new Set<string>();
  for (const file of files) {
    let folder = path.dirname(file);
    while (!(await isFolder(folder)) && path.dirname(folder) !== folder) folder = path.dirname(folder);
    folders.add(folder);
  }
  return folders;
}

/** The folders and their parents (but the config folder's): a parent sees its folder deleted and come back. */
function rootsOf(folders: ReadonlySet<string>, configFolder: string): string[] {
  const roots = new Set<string>();
  for (const folder of folders) {
    roots.add(folder);
    if (folder !== configFolder && !isSameOrInside(configFolder, folder)) roots.add(path.dirname(folder));
  }
  return [...roots].sort();
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}
