/**
 * The staging folder a write fills beside outputDir (interrupted-write.ts
 * names it and says how a run that dies with one is recovered). Files go in
 * as each flow is generated, so a run holds no flow's text after it is
 * emitted; the swap into outputDir comes only once the whole set and its
 * manifest are there (write-output.ts).
 */
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { chmod, copyFile, lstat, mkdir, readlink, symlink } from "node:fs/promises";
import path from "node:path";
import { crashPoint } from "./crash-points.js";
import { stagingDirOf } from "./interrupted-write.js";

/** A staged file written in pieces as they come (output/description-copies.ts). */
export interface StagedFile {
  append(text: string): void;
  close(): void;
}

export class StagingFolder {
  readonly dir: string;
  private readonly made = new Set<string>();
  /** Descriptors of files open for appending, closed before the folder is swapped in or removed. */
  private readonly open = new Set<number>();
  private state: "empty" | "filling" | "swapped" = "empty";
  private staged = 0;

  constructor(outputDir: string) {
    this.dir = stagingDirOf(outputDir);
  }

  /**
   * Synchronously: small files each awaited in turn left the thread waiting
   * on the disk, and all at once (a promise each) were slower still than a
   * loop (bench/analysis.md, "No idle end"). One mkdir per folder.
   */
  write(file: string, content: string): void {
    const target = path.join(this.startOrThrow(), file);
    const folder = path.dirname(target);
    if (!this.made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.made.add(folder);
    }
    writeFileSync(target, content);
    this.counted();
  }

  /** A file at the top of the folder, opened now, written by appending, and closed by its writer (or by discard()). */
  openFile(file: string): StagedFile {
    const fd = openSync(path.join(this.startOrThrow(), file), "w");
    this.open.add(fd);
    this.counted();
    return {
      append: (text) => {
        const bytes = Buffer.from(text);
        for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
      },
      close: () => {
        if (this.open.delete(fd)) closeSync(fd);
      },
    };
  }

  /**
   * An entry of outputDir carried over as it is: files keep their bytes and
   * mode, links their target, empty folders stay folders; nothing else can be.
   */
  async carryOrThrow(from: string, file: string): Promise<void> {
    const stat = await lstat(from).catch(() => undefined);
    if (!stat) return; // A kept flow's file the user deleted: nothing to carry over.
    const to = path.join(this.startOrThrow(), file);
    await mkdir(path.dirname(to), { recursive: true });
    if (stat.isSymbolicLink()) await symlink(await readlink(from), to);
    else if (stat.isDirectory()) await mkdir(to, { recursive: true });
    else if (stat.isFile()) {
      await copyFile(from, to);
      await chmod(to, stat.mode);
    } else
      throw new Error(`${from} is not a file, link or folder, so it cannot be carried over; move it out of outputDir`);
    this.counted();
  }

  private counted(): void {
    if ((this.staged += 1) === 1) crashPoint("staging-partial");
  }

  /** The folder, made (after removing one of this process's left from an earlier run in it) on first use. */
  startOrThrow(): string {
    if (this.state === "empty") {
      rmSync(this.dir, { recursive: true, force: true });
      mkdirSync(this.dir, { recursive: true });
      this.made.add(this.dir);
      this.state = "filling";
    }
    return this.dir;
  }

  /** True once anything was staged. */
  get isFilling(): boolean {
    return this.state === "filling";
  }

  /** It is outputDir now: nothing to remove. */
  swapped(): void {
    this.state = "swapped";
  }

  /** Removes what was staged, unless it became outputDir; safe to call twice. */
  discard(): void {
    for (const fd of this.open) closeSync(fd);
    this.open.clear();
    if (this.state !== "filling") return;
    rmSync(this.dir, { recursive: true, force: true });
    this.state = "empty";
    this.made.clear();
  }
}
