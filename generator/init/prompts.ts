/**
 * `flowsmith init` on a terminal: where the flows come from (when both the
 * files here and the service's credentials are at hand), which flows, and
 * where the clients go, asked with @clack/prompts (loaded only here: an ES
 * module, imported as one). Ctrl-C at any question cancels; nothing is written.
 */
import type { Environment } from "@flowsmith/runtime";
import type { FoundDescription } from "./find-descriptions.js";

/** A flow the service lists. */
export interface ListedFlow {
  readonly flowId: string;
  readonly environment: Environment;
  /** What the service says of it besides the id (name, version), for the label. */
  readonly about: string;
}

/** What init does, asked or from the flags. */
export interface Choices {
  readonly source: "files" | "api";
  readonly outputDir: string;
  /** --flow values; empty: every flow. */
  readonly flows: readonly string[];
  /** Asked: the descriptions picked. */
  readonly selected?: readonly FoundDescription[] | undefined;
  /** Asked: the service's flows picked. */
  readonly selectedApi?: readonly ListedFlow[] | undefined;
}

export interface AskContext {
  readonly found: readonly FoundDescription[];
  readonly fromApi: boolean;
  readonly credentials: readonly Environment[];
  readonly outputDir: string;
  /** --output-dir given: not asked. */
  readonly outputDirGiven?: boolean;
  /** --flow values: the flows are not asked for, as the output dir is not when given. */
  readonly flows?: readonly string[];
  readonly listApi: () => Promise<readonly ListedFlow[]>;
}

export async function askInteractively(context: AskContext): Promise<Choices | "cancelled"> {
  const prompts = await import("@clack/prompts");
  const cancelled = (value: unknown): value is symbol => prompts.isCancel(value);
  prompts.intro("flowsmith init");
  let source: "files" | "api" = context.fromApi || context.found.length === 0 ? "api" : "files";
  if (!context.fromApi && context.found.length > 0 && context.credentials.length > 0) {
    const picked = await prompts.select({
      message: "Where do the flows come from?",
      options: [
        { value: "files" as const, label: `descriptions in this folder (${String(context.found.length)} found)` },
        { value: "api" as const, label: `the service (${context.credentials.join(", ")}, FLOWSMITH_* variables)` },
      ],
    });
    if (cancelled(picked)) return "cancelled";
    source = picked;
  }
  let selected: readonly FoundDescription[] | undefined;
  let selectedApi: readonly ListedFlow[] | undefined;
  const flows = context.flows ?? [];
  if (flows.length > 0) {
    // Picked by --flow: init matches them against what it found or listed, as without a terminal.
  } else if (source === "files") {
    const picked = await prompts.multiselect({
      message: "Which flows? (space toggles, enter accepts)",
      options: context.found.map((file) => ({
        value: file,
        label: `${file.display}  ${file.model.title} (${file.model.environment}, v${String(file.model.version)})`,
      })),
      initialValues: [...context.found],
      required: true,
    });
    if (cancelled(picked)) return "cancelled";
    selected = picked;
  } else {
    const listed = await context.listApi();
    if (listed.length > 0) {
      const picked = await prompts.multiselect({
        message: "Which flows? (space toggles, enter accepts)",
        options: listed.map((flow) => ({
          value: flow,
          label: `${flow.flowId} (${flow.environment}) ${flow.about}`.trimEnd(),
        })),
        initialValues: [...listed],
        required: true,
      });
      if (cancelled(picked)) return "cancelled";
      selectedApi = picked;
    } else {
      selectedApi = [];
    }
  }
  let outputDir = context.outputDir;
  if (!context.outputDirGiven) {
    const answer = await prompts.text({
      message: "Where do the generated clients go? (a folder of their own)",
      placeholder: context.outputDir,
      defaultValue: context.outputDir,
    });
    if (cancelled(answer)) return "cancelled";
    outputDir = answer.trim() === "" ? context.outputDir : answer.trim();
  }
  prompts.outro("writing codegen.config.json and generating");
  return { source, outputDir, flows, selected, selectedApi };
}
