// Import cycles between the repository's own modules, and imports that climb, found on the
// TypeScript program the static checks already built (static-checks.mjs): each file's imports
// as TypeScript resolved them, so paths, `.js` specifiers and package self-references resolve
// as they do for tsc. Every import counts, type-only ones too (`import type`, `export type`,
// `import("./x.js").T`): the compiler erases them, but two modules that each need the other's
// types are still one concept split in two, and the next value import between them is a cycle
// at run time. `import()` counts: a lazy import is still a dependency of the module that makes it.
// `require()` calls are not followed: the sources use them only for the build's generated
// validators and for packages.
import path from "node:path";
import ts from "typescript";

/** Every cycle as the list of its files relative to `root`, each list sorted; none when the graph is acyclic. */
export function moduleCycles(program, root) {
  const graph = new Map();
  for (const sourceFile of ownSourceFiles(program, root)) {
    graph.set(sourceFile.fileName, ownTargets(program, root, sourceFile));
  }
  return stronglyConnected(graph)
    .filter((component) => component.length > 1 || graph.get(component[0]).includes(component[0]))
    .map((component) => component.map((file) => path.relative(root, file)).sort());
}

/**
 * Imports that climb, as `{ from, to }` relative to `root`, sorted. Inside a top-level folder
 * (an area: emulator/, runtime/...), the modules every room shares live at the area's root and
 * each concept has a room (a subfolder) built on them: a module imports from its own folder or
 * from a folder above it, never from a room below it or beside it. Such an import climbs: the
 * shared floor would lean on a room, or a room on another. The area's index.ts, which puts the
 * rooms together, is the one module that may. Type-only imports count: the layering is about
 * what a module knows, not what loads first. Imports between areas are not this rule's.
 */
export function climbingImports(program, root) {
  const climbs = [];
  for (const sourceFile of ownSourceFiles(program, root)) {
    const from = path.relative(root, sourceFile.fileName);
    const [area, ...rest] = from.split("/");
    if (rest.length === 0 || from === `${area}/index.ts`) continue;
    for (const target of ownTargets(program, root, sourceFile)) {
      const to = path.relative(root, target);
      if (to.split("/")[0] !== area) continue;
      const folder = path.dirname(from);
      const targetFolder = path.dirname(to);
      const above = targetFolder === folder || folder.startsWith(`${targetFolder}/`);
      if (!above) climbs.push({ from, to });
    }
  }
  return climbs.sort((a, b) => (a.from === b.from ? compare(a.to, b.to) : compare(a.from, b.from)));
}

function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

function ownSourceFiles(program, root) {
  return program.getSourceFiles().filter((sourceFile) => isOwn(sourceFile.fileName, root));
}

function isOwn(file, root) {
  return !file.includes("/node_modules/") && !file.endsWith(".d.ts") && file.startsWith(`${root}/`);
}

/** The repository's files this one imports, each once, type-only imports included. */
function ownTargets(program, root, sourceFile) {
  const targets = new Set();
  for (const specifier of moduleSpecifiers(sourceFile)) {
    const resolved = program.getResolvedModuleFromModuleSpecifier(specifier, sourceFile)?.resolvedModule?.resolvedFileName;
    if (resolved && isOwn(resolved, root)) targets.add(resolved);
  }
  return [...targets];
}

function moduleSpecifiers(sourceFile) {
  const specifiers = [];
  for (const statement of sourceFile.statements) {
    if (ts.isImportDeclaration(statement)) specifiers.push(statement.moduleSpecifier);
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) specifiers.push(statement.moduleSpecifier);
  }
  const visit = (node) => {
    const argument = ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword ? node.arguments[0] : undefined;
    if (argument && ts.isStringLiteral(argument)) specifiers.push(argument);
    // `import("./x.js").T` in a type.
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) specifiers.push(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return specifiers;
}

/** Tarjan's strongly connected components, iteratively (no recursion limit on a long import chain). */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const frames = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      components.push(component);
    }
  }
  return components;
}
