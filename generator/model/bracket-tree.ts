/**
 * The flat, bracket-named properties of a multipart form arranged as a tree:
 * `input[docs][documents][][templateId]` becomes input → docs → documents
 * (an array, because of `[]`) → element → templateId (a declared part).
 */
import type { BuildContext } from "./build-context.js";
import { isElement, parseBracketNameOrUndefined, type BracketName, type BracketSegment } from "./bracket-name.js";
import type { FlatProperty } from "./flat-schema-types.js";
import { valueText } from "../read/value-text.js";

/** An object implied by bracket names. Children in document order. */
export interface GroupNode {
  readonly kind: "group";
  /** The first declared name that passes through this node, for messages and pointers. */
  readonly via: FlatProperty;
  readonly children: Map<string, TreeNode>;
}

/** An array implied by a `[]` segment. */
interface ListNode {
  readonly kind: "list";
  readonly via: FlatProperty;
  element: TreeNode | undefined;
}

/** A property the form declares: a part, or (for `type: array`/`object` schemas) a family of derived parts. */
interface DeclaredNode {
  readonly kind: "declared";
  readonly property: FlatProperty;
  /** Enclosing arrays on the way from the request root: the index of the next array is `{ index: depth }`. */
  readonly depth: number;
}

export type TreeNode = GroupNode | ListNode | DeclaredNode;

/** The request's top-level keys (docs/service.md 2.1). */
const TOP_LEVEL = new Set(["input", "metadata", "redirectUrl", "state"]);

export function buildBracketTreeOrThrow(
  context: BuildContext,
  root: FlatProperty,
  properties: readonly FlatProperty[],
): GroupNode {
  const tree: GroupNode = { kind: "group", via: root, children: new Map() };
  for (const property of properties) {
    const name = parseBracketNameOrUndefined(property.name);
    if (!name) {
      throw context.error(
        "INVALID_SCHEMA",
        `${valueText(property.name)} is not a valid bracket name (expected head[segment]..., brackets paired, no nesting)`,
        property.pointer,
      );
    }
    const head = name.path[0];
    if (head && !isElement(head) && !TOP_LEVEL.has(head.key)) {
      throw context.error(
        "UNSUPPORTED_CONSTRUCT",
        `${valueText(property.name)}: a request has only input, metadata, redirectUrl and state at the top level`,
        property.pointer,
      );
    }
    insertOrThrow(context, tree, name, property);
  }
  return tree;
}

function insertOrThrow(context: BuildContext, tree: GroupNode, name: BracketName, property: FlatProperty): void {
  let parent: GroupNode | ListNode = tree;
  let depth = 0;
  name.path.forEach((segment, index) => {
    const next = name.path[index + 1];
    const existing = childOrUndefined(parent, segment);
    if (next === undefined) {
      // Never a declared part: property names are unique (a mapping's keys; allOf merges by name) and a
      // bracket name reads back to one path only, so no two names end at one node.
      if (existing) throw conflict(context, property, viaOf(existing), "part-has-fields");
      setChild(parent, segment, { kind: "declared", property, depth });
      return;
    }
    const wanted = isElement(next) ? "list" : "group";
    let node = existing;
    if (!node) {
      node =
        wanted === "list"
          ? { kind: "list", via: property, element: undefined }
          : { kind: "group", via: property, children: new Map() };
      setChild(parent, segment, node);
    }
    if (node.kind === "declared") throw conflict(context, property, node.property, "inside-part");
    if (node.kind !== wanted) throw conflict(context, property, node.via, "shape");
    if (node.kind === "list") depth += 1;
    parent = node;
  });
}

function childOrUndefined(parent: GroupNode | ListNode, segment: BracketSegment): TreeNode | undefined {
  if (parent.kind === "list") return parent.element;
  return isElement(segment) ? undefined : parent.children.get(segment.key);
}

function setChild(parent: GroupNode | ListNode, segment: BracketSegment, node: TreeNode): void {
  if (parent.kind === "list") parent.element = node;
  else if (!isElement(segment)) parent.children.set(segment.key, node);
}

/** The first declared name through a node, or the declared part itself. */
function viaOf(node: TreeNode): FlatProperty {
  return node.kind === "declared" ? node.property : node.via;
}

type Conflict = "part-has-fields" | "inside-part" | "shape";

function conflict(context: BuildContext, property: FlatProperty, other: FlatProperty, kind: Conflict): Error {
  const at = other.pointer;
  const details: Record<Conflict, string> = {
    "part-has-fields": `${valueText(property.name)} is declared as a part, but ${valueText(other.name)} (${at}) puts fields inside it`,
    "inside-part": `${valueText(property.name)} goes inside ${valueText(other.name)}, which is itself declared as a part (${at})`,
    shape: `${valueText(property.name)} and ${valueText(other.name)} (${at}) disagree on whether a shared prefix is an array ([]) or an object ([key])`,
  };
  return context.error("INVALID_SCHEMA", details[kind], property.pointer);
}
