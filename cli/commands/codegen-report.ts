/**
 * What `flowsmith codegen` prints once a run's outcome is known (so a failed
 * run never shows a flow as generated), and the exit code it gives.
 */
import {
  flowsmithVersion,
  MANIFEST_FILE,
  runtimeVersion,
  type CheckResult,
  type CodegenResult,
  type FlowReport,
  type GeneratorStamp,
  type SnapshotChange,
  type WriteResult,
} from "../../generator/index.js";
import { EXIT, type CommandIo } from "../command.js";

export function printRun(result: CodegenResult, io: CommandIo): void {
  for (const sentence of result.recovered) io.stderr.write(`flowsmith: ${sentence}\n`);
  for (const flow of result.flows) {
    io.stdout.write(`${formatFlowLine(flow)}\n`);
    for (const left of flow.leftToService ?? []) {
      io.stderr.write(
        `note: ${flow.name}: ${left.field} keeps its pattern unchecked on the client, and the service checks it: ${left.reason} (${left.pointer})\n`,
      );
    }
  }
  for (const pointer of result.notGenerated) {
    io.stderr.write(
      `note: the flow at ${result.config.configDisplay} ${pointer} was left out by --flow and has not been generated yet\n`,
    );
  }
  const out = result.config.outputDisplay;
  for (const file of result.kept) io.stderr.write(`note: kept ${out}/${file.path} (${file.why})\n`);
  if (result.mode === "write") printWriteNotes(result, io);
}

function printWriteNotes(result: WriteResult, io: CommandIo): void {
  const out = result.config.outputDisplay;
  for (const file of result.unverified)
    io.stderr.write(`note: kept ${file} beside ${out}/: flowsmith could not match it with the new output\n`);
}

/** Per flow whose description moved: the report's lines, after a blank line. */
function changeReports(result: CodegenResult): string[] {
  return result.flows.flatMap((flow) => (flow.changed ? ["", ...flow.changed.lines] : []));
}

function breakingNote(result: CodegenResult): string[] {
  const breaking = result.flows.filter((flow) => flow.changed?.breaking).map((flow) => flow.name);
  if (breaking.length === 0) return [];
  return [
    "",
    `Breaking changes in ${breaking.join(", ")}: calls written for the old version may no longer compile or be accepted; run your type check (tsc) to find them.`,
  ];
}

function snapshotLine(snapshot: SnapshotChange, written: boolean): string {
  const what = snapshot.reason === "added" ? "new snapshot" : "snapshot changed";
  return written
    ? `Wrote ${snapshot.path} (${what}: flow ${snapshot.flow}).`
    : `  ${snapshot.reason.padEnd(8)} ${snapshot.path} (${what}: flow ${snapshot.flow})`;
}

function formatFlowLine(flow: FlowReport): string {
  const took = flow.status === "unchanged" ? "" : ` in ${flow.ms} ms`;
  return `  ${flow.name.padEnd(24)} ${flow.id}  v${String(flow.version).padEnd(3)} ${flow.environment.padEnd(7)} → ${flow.output}  ${flow.status}${took}`;
}

export function reportCheck(result: CheckResult, io: CommandIo): number {
  const out = result.config.outputDisplay;
  if (result.otherGenerator)
    io.stdout.write(`note: ${out}/${MANIFEST_FILE} ${otherGeneratorNote(result.otherGenerator.generator)}\n`);
  if (result.changes.length === 0 && result.snapshots.length === 0) {
    io.stdout.write(`${out}/ is up to date.\n`);
    return EXIT.ok;
  }
  if (result.snapshots.length > 0) {
    io.stderr.write(`${result.snapshots.length} snapshot(s) differ from what the service publishes now:\n`);
    for (const snapshot of result.snapshots) io.stderr.write(`${snapshotLine(snapshot, false)}\n`);
  }
  if (result.changes.length > 0) {
    io.stderr.write(
      `${out}/ is out of date; ${result.changes.length} file(s) differ from what the descriptions produce:\n`,
    );
    for (const change of result.changes) io.stderr.write(`  ${change.reason.padEnd(8)} ${out}/${change.path}\n`);
  }
  const moved = result.flows.filter((flow) => flow.changed);
  if (moved.length > 0) {
    io.stderr.write(
      `The description of ${moved.map((flow) => flow.name).join(", ")} changed since ${out}/ was generated:\n`,
    );
    io.stderr.write(`${[...changeReports(result).slice(1), ...breakingNote(result)].join("\n")}\n`);
  }
  if (result.snapshots.length > 0) {
    io.stderr.write("Run `npx flowsmith codegen --refresh` and commit the result.\n");
    return EXIT.failed;
  }
  io.stderr.write(
    result.editedByHand.length > 0
      ? `${result.editedByHand.map((file) => `${out}/${file}`).join(", ")}: edited by hand, so \`npx flowsmith codegen\` refuses to replace ${result.editedByHand.length === 1 ? "it" : "them"}; move the change out of ${out}/, or discard it with \`npx flowsmith codegen --force\`, and commit the result.\n`
      : result.editedWithManifest.length > 0
        ? "Run `npx flowsmith codegen --force` and commit the result: the manifest was edited to agree with the changed files, so a run without --force would keep them.\n"
        : "Run `npx flowsmith codegen` and commit the result.\n",
  );
  return EXIT.failed;
}

function otherGeneratorNote(stamp: GeneratorStamp | undefined): string {
  const current = `flowsmith ${flowsmithVersion()} (@flowsmith/runtime ${runtimeVersion()})`;
  const written = stamp && `flowsmith ${stamp.flowsmith} (@flowsmith/runtime ${stamp.runtime})`;
  const by =
    written === undefined
      ? `was written by a flowsmith from before manifests named their version; this is ${current}`
      : written === current
        ? `was written by another build of ${current} (its generator sources or libraries differ)`
        : `was written by ${written}; this is ${current}`;
  return `${by}. Every generated file is identical, so the check passes; the next \`npx flowsmith codegen\` updates the manifest.`;
}

export function reportWrite(result: WriteResult, io: CommandIo): number {
  const count = result.changes.length;
  const out = result.config.outputDisplay;
  const reports = changeReports(result);
  if (reports.length > 0) io.stdout.write(`${[...reports, ...breakingNote(result), ""].join("\n")}\n`);
  for (const snapshot of result.snapshots) io.stdout.write(`${snapshotLine(snapshot, true)}\n`);
  io.stdout.write(
    count === 0 ? `${out}/ already up to date; nothing written.\n` : `Wrote ${out}/ (${count} file(s) changed).\n`,
  );
  return EXIT.ok;
}
