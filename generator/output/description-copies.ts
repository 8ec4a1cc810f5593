/**
 * <outputDir>/descriptions.json: per flow, the description its current
 * output was generated from, normalised (description-json.ts), under the
 * flow's name; the entries in config order, laid out as JSON.stringify lays
 * out an object with an indent of two. When a run's description differs from the
 * recorded one (a refresh, an edited or replaced file, a pinned version
 * moved), the run reports what changed for the code that calls the flow,
 * computed from the two flow models (generator/changes/).
 *
 * One file for every flow, not one beside each flow's module: a file a flow
 * was a third of the files a run creates, and creating files is most of what
 * a large run spends in the kernel (bench/analysis.md, "One file of
 * descriptions"). A cold run never holds it whole: a write streams it into
 * the staging folder as the flows come, --check only hashes it. The manifest
 * records its sha256, and each flow's entry the sha256 of its description's
 * normalised text. A later run reads the file the first time a flow needs its
 * earlier copy (a report, a reused flow, a flow --flow leaves out): it then
 * holds what it has not taken yet, as a run that reuses flows holds the text
 * it will write (DescriptionsFile).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isRecord } from "@flowsmith/runtime/internal/json";
import type { FlowChangeReport } from "../changes/index.js";
import { CodegenError } from "../errors.js";
import type { FlowModel } from "../model/types.js";
import { recordOf, sha256, type ManifestFlow } from "./manifest.js";
import type { OutputDirState } from "./output-dir.js";
import type { StagedFile, StagingFolder } from "./staging.js";

export const DESCRIPTIONS_FILE = "descriptions.json";

/** Where output written before descriptions.json kept a flow's copy: listed in that flow's manifest entry. */
function legacyCopyPath(name: string): string {
  return `${name}/description.json`;
}

/** What a flow's description did since its output was generated. */
export interface DescriptionChange {
  /** The report's lines (header, then one per change), or one line saying why there is no report. */
  readonly lines: readonly string[];
  readonly breaking: boolean;
  readonly from?: number;
  readonly to: number;
}

/** A flow's earlier copy, as flowsmith wrote it. */
export interface PreviousCopy {
  readonly text: string;
  /** For messages: where it was read. */
  readonly display: string;
}

/**
 * The copies the last run recorded. descriptions.json is read on first need
 * only, and only if its bytes, or their CRLF line endings read as LF (a
 * Windows checkout), are the ones the manifest records.
 */
export class PreviousDescriptions {
  /** Entries not taken yet: a flow's is taken once at most (or let go unread: forget), then dropped. */
  private entries: Map<string, unknown> | undefined;

  constructor(private readonly output: OutputDirState) {}

  /** The sha256 of the flow's copy the manifest records, in this layout or the one before it. */
  recordedHash(name: string): string | undefined {
    const flow = this.output.manifest?.flows[name];
    return flow?.description ?? flow?.files[legacyCopyPath(name)];
  }

  /** Undefined when none is recorded, or it was edited, removed or cannot be read since. */
  async copyOrUndefined(name: string): Promise<PreviousCopy | undefined> {
    const recorded = this.recordedHash(name);
    if (recorded === undefined) return undefined;
    const legacy = this.output.manifest?.flows[name]?.files[legacyCopyPath(name)] !== undefined;
    const text = legacy
      ? await this.legacyTextOrUndefined(name, recorded)
      : await this.entryTextOrUndefined(name, recorded);
    if (text === undefined) return undefined;
    const display = legacy ? legacyCopyPath(name) : `${DESCRIPTIONS_FILE}, entry ${JSON.stringify(name)}`;
    return { text, display: `${this.output.display}/${display}` };
  }

  /** A flow whose copy is not needed (its description is unchanged): its entry is let go unread. */
  forget(name: string): void {
    this.entries?.delete(name);
  }

  private async legacyTextOrUndefined(name: string, recorded: string): Promise<string | undefined> {
    const bytes = await readFile(path.join(this.output.dir, legacyCopyPath(name))).catch(() => undefined);
    return bytes && asWritten(bytes, recorded);
  }

  private async entryTextOrUndefined(name: string, recorded: string): Promise<string | undefined> {
    this.entries ??= await this.readEntries();
    const value = this.entries.get(name);
    this.entries.delete(name);
    if (value === undefined) return undefined;
    // The file was written entry by entry as descriptionJson's text: the same text again, if the entry is as recorded.
    const text = `${JSON.stringify(value, null, 2)}\n`;
    return sha256(text) === recorded ? text : undefined;
  }

  private async readEntries(): Promise<Map<string, unknown>> {
    const recorded = this.output.written.get(DESCRIPTIONS_FILE);
    const bytes =
      recorded === undefined
        ? undefined
        : await readFile(path.join(this.output.dir, DESCRIPTIONS_FILE)).catch(() => undefined);
    const text = bytes && asWritten(bytes, recorded);
    if (text === undefined) return new Map();
    try {
      const parsed: unknown = JSON.parse(text);
      return isRecord(parsed) ? new Map(Object.entries(parsed)) : new Map();
    } catch {
      return new Map();
    }
  }
}

/** The text as flowsmith wrote it (sha256 `recorded`), read as LF if it has CRLF line endings; else undefined. */
function asWritten(bytes: Buffer, recorded: string | undefined): string | undefined {
  if (recorded === undefined) return undefined;
  if (sha256(bytes) === recorded) return bytes.toString("utf8");
  const asLf = bytes.toString("utf8").replace(/\r\n/g, "\n");
  return sha256(asLf) === recorded ? asLf : undefined;
}

/**
 * A kept flow's manifest entry as this layout records it: the sha256 of its
 * copy when descriptions.json has it (`copyKept`: the copy read back, which
 * PreviousDescriptions checked against that hash; none when it was lost), and
 * no per-flow description.json among its files (a copy from the earlier
 * layout now lives in descriptions.json, so that file is no longer planned and goes).
 */
export function keptEntry(entry: ManifestFlow, name: string, copyKept: boolean): ManifestFlow {
  const { source, inputsHash, id, version, environment } = entry;
  const legacy = legacyCopyPath(name);
  const recorded = entry.description ?? entry.files[legacy];
  const files = recordOf(Object.entries(entry.files).filter(([file]) => file !== legacy));
  const description = copyKept && recorded !== undefined ? { description: recorded } : {};
  return { source, inputsHash, id, version, environment, ...description, files };
}

/**
 * descriptions.json as the run makes it: each flow's copy is hashed and, once
 * a write has staged anything else, appended to the staged file as it comes,
 * so a run that writes holds none. Until then the text is held (a run whose
 * output is already as planned stages nothing, as before this file), and
 * staged at the end only if it differs from outputDir's (stageHeld).
 * The entries come in config order, laid out as JSON.stringify lays out an
 * object with an indent of two.
 */
export class DescriptionsFile {
  private readonly hash = createHash("sha256");
  private count = 0;
  private staged: StagedFile | undefined;
  /** Text not staged yet; undefined once the file is staged. */
  private held: string[] | undefined = [];

  /** `staging`: a write's; --check has none and only hashes. */
  constructor(private readonly staging: StagingFolder | undefined) {}

  /** True once the text is in the staging folder (then it is not carried over from outputDir). */
  get isStaged(): boolean {
    return this.held === undefined;
  }

  add(name: string, copy: string): void {
    const value = copy.endsWith("\n") ? copy.slice(0, -1) : copy;
    this.append(`${this.count === 0 ? "{\n" : ",\n"}  ${JSON.stringify(name)}: ${value.replaceAll("\n", "\n  ")}`);
    this.count += 1;
  }

  /** Ends the text (and the staged file); returns its sha256. */
  finish(): string {
    this.append(this.count === 0 ? "{}\n" : "\n}\n");
    this.staged?.close();
    return this.hash.digest("hex");
  }

  /** After finish(): stages the text held back, when it differs from outputDir's. */
  stageHeld(): void {
    if (!this.staging || this.held === undefined) return;
    const file = this.staging.openFile(DESCRIPTIONS_FILE);
    for (const text of this.held) file.append(text);
    file.close();
    this.held = undefined;
  }

  private append(text: string): void {
    this.hash.update(text);
    if (!this.staging) return;
    if (this.held !== undefined && this.staging.isFilling) {
      this.staged = this.staging.openFile(DESCRIPTIONS_FILE);
      for (const earlier of this.held) this.staged.append(earlier);
      this.held = undefined;
    }
    if (this.staged) this.staged.append(text);
    else this.held?.push(text);
  }
}

/**
 * Undefined when there is nothing to compare with (a first run, a copy edited
 * or removed since flowsmith wrote it) or the description is the same.
 */
export async function changeSinceCopyOrUndefined(
  copy: string,
  model: FlowModel,
  previous: PreviousDescriptions,
): Promise<DescriptionChange | undefined> {
  const recorded = previous.recordedHash(model.name);
  if (recorded === sha256(copy)) {
    previous.forget(model.name);
    return undefined;
  }
  if (recorded === undefined) return undefined;
  const earlier = await previous.copyOrUndefined(model.name);
  if (!earlier) return undefined;
  // Loaded only when a description changed: a run that reuses every flow reads no description.
  const [{ reportFlowChangesSince }, { parseDescriptionOrThrow }] = await Promise.all([
    import("../changes/index.js"),
    import("../read/load-description.js"),
  ]);
  let report: FlowChangeReport;
  try {
    report = reportFlowChangesSince(parseDescriptionOrThrow(Buffer.from(earlier.text), earlier.display), model);
  } catch (error) {
    if (!(error instanceof CodegenError)) throw error;
    // The old copy no longer reads under this flowsmith's rules: say so, and let the run go on.
    // The detail and pointer, not the message: its line would count from the entry, not from the file.
    const at = error.context.pointer ? `${error.context.pointer}: ` : "";
    return {
      lines: [
        `${model.title}: the description changed; the previous one (${earlier.display}) cannot be compared: ${at}${error.detail}`,
      ],
      breaking: false,
      to: model.version,
    };
  }
  return { lines: report.lines, breaking: report.breaking, from: report.changes.before.version, to: model.version };
}
