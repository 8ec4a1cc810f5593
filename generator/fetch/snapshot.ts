/**
 * Snapshots: the fetched description of an api flow, kept in the repository
 * (default flows/<name>.json) in the normalised form of
 * output/description-json.ts, so codegen and `codegen --check` read a file,
 * never the network. The same rules as outputDir: flowsmith replaces only
 * what it wrote. A file at a snapshot path that is not a description in
 * snapshot form (hand-written, reformatted, another file) is never
 * overwritten. A snapshot never carries a secret.
 */
import { lstat, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ConfigPath } from "../config/config-types.js";
import { CodegenError, type CodegenErrorContext } from "../errors.js";
import { descriptionJson } from "../output/description-json.js";

export type SnapshotOnDisk =
  | { readonly kind: "absent" }
  /** A flow description exactly as flowsmith writes snapshots. */
  | { readonly kind: "snapshot"; readonly text: string }
  /** Something flowsmith would not have written there. */
  | { readonly kind: "other"; readonly why: string };

export async function inspectSnapshot(file: ConfigPath): Promise<SnapshotOnDisk> {
  let stat;
  try {
    stat = await lstat(file.path);
  } catch (error) {
    // ENOTDIR: a folder on the way is a file; found now, before any output is written, not when the snapshot is.
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR")
      return { kind: "other", why: "a folder on its path is a file" };
    return { kind: "absent" };
  }
  if (stat.isSymbolicLink()) return { kind: "other", why: "it is a symbolic link" };
  if (!stat.isFile()) return { kind: "other", why: "it is not a file" };
  // CRLF as LF: the snapshot as a Windows checkout (git autocrlf) has it is still flowsmith's.
  const text = (await readFile(file.path, "utf8").catch(() => undefined))?.replace(/\r\n/g, "\n");
  if (text === undefined) return { kind: "other", why: "it cannot be read" };
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { kind: "other", why: "it is not JSON" };
  }
  const info = (document as { info?: Record<string, unknown> } | null)?.info;
  if (typeof info?.["x-flow-id"] !== "string") return { kind: "other", why: "it is not a flow description" };
  if (descriptionJson(document) !== text)
    return { kind: "other", why: "it is not in the form flowsmith writes snapshots (edited by hand?)" };
  return { kind: "snapshot", text };
}

export function refuseOtherFileOrThrow(
  file: ConfigPath,
  onDisk: { readonly why: string },
  where: CodegenErrorContext,
): never {
  throw new CodegenError(
    "SNAPSHOT_CONFLICT",
    `${file.display} is in the way of this flow's snapshot and flowsmith did not write it (${onDisk.why}), so it is not replaced. ` +
      `Move it away, or set "source.api.snapshot" to another path`,
    where,
  );
}

/** Checked before anything is written: a description that holds the client secret or an access token (in any form) is refused. */
export function refuseSecretsOrThrow(
  text: string,
  clients: { holdCredentials(text: string): boolean },
  where: CodegenErrorContext,
): void {
  if (!clients.holdCredentials(text)) return;
  throw new CodegenError(
    "SECRET_IN_DESCRIPTION",
    "the description the service returned contains the API client's secret or its access token, so it is not stored anywhere; nothing was written. Report this to the service",
    where,
  );
}

/** A new file beside the snapshot, then renamed over it: a reader never sees half a snapshot. */
export async function writeSnapshotOrThrow(file: ConfigPath, text: string, where: CodegenErrorContext): Promise<void> {
  const partial = `${file.path}.flowsmith-${process.pid}.partial`;
  try {
    await mkdir(path.dirname(file.path), { recursive: true });
    await writeFile(partial, text);
    await rename(partial, file.path);
  } catch (error) {
    // force ignores a missing file, not ENOTDIR: the cleanup must not hide the error being reported.
    await rm(partial, { force: true }).catch(() => undefined);
    throw new CodegenError(
      "WRITE_FAILED",
      `could not write the snapshot ${file.display}: ${(error as Error).message}`,
      where,
      { cause: error },
    );
  }
}
