/**
 * `codegen --watch`: runs codegen, then again each time the config or a
 * flow's description (or snapshot) changes. Each run is the ordinary codegen
 * run (pipeline.ts through the CLI's own printing), so a run writes all or
 * nothing and a description that breaks leaves the last good output in
 * place; the run says why. Changes are gathered for `debounceMs` after the
 * last one (an editor's save is several events), one run at a time: changes
 * during a run start one more run after it. Stopping waits for a run under
 * way. The files are watched through their folders (chokidar, one level
 * deep), so a save that replaces a file by a rename is seen too, and a
 * folder removed and made again is watched again.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { watch, type FSWatcher } from "chokidar";
import { loadConfigOrThrow, type Env } from "./config/load-config.js";
import { isSameOrInside } from "./output/file-tree.js";

export interface WatchOptions {
  /** The config file, absolute. */
  readonly configPath: string;
  readonly env?: Env;
  /** One codegen run that prints its outcome; resolves with its exit code. */
  readonly runOnce: () => Promise<number>;
  /** Called with a line to print: what changed, what is watched. */
  readonly say: (line: string) => void;
  /** Resolves when the watch should end (SIGINT, SIGTERM). */
  readonly stopped: Promise<void>;
  /** Quiet time after the last change before a run. Default 100 ms. */
  readonly debounceMs?: number;
}

const WATCH_DEFAULTS = { debounceMs: 100 } as const;

/** Resolves once `stopped` has resolved and no run is under way. */
export async function watchCodegen(options: WatchOptions): Promise<void> {
  const debounceMs = options.debounceMs ?? WATCH_DEFAULTS.debounceMs;
  let files = await watchedFiles(options, new Set([options.configPath]));
  let folders: string[] = [];
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  /** Changes not yet generated; read through functions, as closures change them while a run awaits. */
  let pending = 0;
  let stopping = false;
  const isStopping = () => stopping;
  const current = (): Promise<void> | undefined => running;
  const changed = new Set<string>();

  /**
   * Watched through the nearest folder of each file that exists: a folder
   * removed and made again (a branch checked out) is watched anew, and a
   * folder not made yet is waited for in the one above it.
   */
  const rewatch = async (): Promise<void> => {
    const next = await watchedFolders(files);
    if (watcher && sameSet(new Set(next), new Set(folders))) return;
    await watcher?.close();
    folders = next;
    const made = watch(folders, { ignoreInitial: true, depth: 0, persistent: true });
    made.on("all", onEvent);
    // An unheard "error" event would throw and end the watch (a folder it may not read, the system's limit of watches).
    made.on("error", (error: unknown) => {
      options.say(`flowsmith: cannot watch for changes (${error instanceof Error ? error.message : String(error)}); the files already watched still are`);
    });
    await new Promise<void>((resolve) => made.once("ready", resolve));
    watcher = made;
  };
  // Before each run, so a change made while it runs is seen and runs again.
  const runNow = async (): Promise<void> => {
    const names = [...changed].map((file) => display(file)).sort();
    changed.clear();
    if (names.length > 0) options.say(`\n${names.join(", ")} changed; generating again`);
    files = await watchedFiles(options, files);
    await rewatch();
    await options.runOnce();
    if (!isStopping()) options.say(watchingLine(files));
  };
  const schedule = () => {
    pending += 1;
    if (stopping || running) return;
    running = (async () => {
      while (pending > 0 && !isStopping()) {
        pending = 0;
        await runNow();
      }
    })().finally(() => {
      running = undefined;
    });
  };
  function onEvent(event: string, file: string): void {
    const absolute = path.resolve(file);
    const folderEvent = event === "addDir" || event === "unlinkDir";
    // A folder made or removed on the way to a watched file: its files may have come or gone with it.
    const touched = folderEvent ? [...files].filter((each) => isSameOrInside(each, absolute)) : files.has(absolute) ? [absolute] : [];
    if (touched.length === 0) return;
    if (folderEvent) folders = [];
    for (const each of touched) changed.add(each);
    clearTimeout(timer);
    timer = setTimeout(schedule, debounceMs);
  }

  running = (async () => {
    await rewatch();
    await options.runOnce();
    if (!isStopping()) options.say(watchingLine(files));
  })().finally(() => {
    running = undefined;
  });
  await options.stopped;
  stopping = true;
  clearTimeout(timer);
  // A run under way finishes: its write is all or nothing, and stopping must not leave a half-done one to recover.
  for (let run = current(); run !== undefined; run = current()) await run;
  await watcher?.close();
}

/** For each file, its folder, or the nearest folder above it that exists. */
async function watchedFolders(files: ReadonlySet<string>): Promise<string[]> {
  const folders = new Set<string>();
  for (const file of files) {
    let folder = path.dirname(file);
    while (!(await isFolder(folder)) && path.dirname(folder) !== folder) folder = path.dirname(folder);
    folders.add(folder);
  }
  return [...folders].sort();
}

async function isFolder(folder: string): Promise<boolean> {
  return stat(folder).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

/** The config, and each flow's description or snapshot; a config that does not load keeps the last set. */
async function watchedFiles(options: WatchOptions, previous: ReadonlySet<string>): Promise<Set<string>> {
  try {
    const config = await loadConfigOrThrow(options.configPath, options.env);
    const sources = config.flows.map((flow) => (flow.source.kind === "file" ? flow.source.path : flow.source.snapshot.path));
    return new Set([config.configPath, ...sources]);
  } catch {
    return new Set([...previous, options.configPath]);
  }
}

function watchingLine(files: ReadonlySet<string>): string {
  return `Watching ${files.size} file(s) for changes (the config and each flow's description); Ctrl-C stops.`;
}

function display(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return (relative && !relative.startsWith("..") ? relative : file).split(path.sep).join("/");
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}
