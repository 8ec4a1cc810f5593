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
 * Imports that climb, as `{ from, to }` relative to `root`, sorted: imports against the layout
 * an area (a top-level folder) declares in `layouts`. Each subfolder of an area is a room, one
 * concept; the modules at the area's root are its floor (and, where the layout says so, the
 * floor's top, which builds on the rooms). The rule:
 * - a module may import its own room's modules and the floor's (`../errors.js`);
 * - a room may import another room only when the layout's `rooms` lists that one first: rooms
 *   are ordered, each building on those before it, so no room leans on one after it;
 * - a floor module may import a room only when the layout says `floorBuildsOnRooms` (the
 *   runtime's client and calls use the exchange, the validation...), else only the area's
 *   index.ts may (the emulator's, which puts its rooms together).
 * Type-only imports count: the layering is about what a module knows, not what loads first.
 * Imports between areas, and areas without a layout, are not this rule's.
 */
export function climbingImports(program, root, layouts) {
  const climbs = [];
  for (const sourceFile of ownSourceFiles(program, root)) {
    const from = path.relative(root, sourceFile.fileName);
    const [area, ...fromRest] = from.split("/");
    const layout = layouts[area];
    if (!layout || fromRest.length === 0) continue;
    const fromRoom = fromRest.length > 1 ? fromRest[0] : "";
    for (const target of ownTargets(program, root, sourceFile)) {
      const to = path.relative(root, target);
      const [toArea, ...toRest] = to.split("/");
      if (toArea !== area) continue;
      const toRoom = toRest.length > 1 ? toRest[0] : "";
      if (!allowed(layout, from, fromRoom, toRoom, area)) climbs.push({ from, to });
    }
  }
  return climbs.sort((a, b) => (a.from === b.from ? compare(a.to, b.to) : compare(a.from, b.from)));
}

function allowed(layout, from, fromRoom, toRoom, area) {
  if (fromRoom === toRoom || toRoom === "") return true;
  if (fromRoom === "") return layout.floorBuildsOnRooms === true || from === `${area}/index.ts`;
  const rooms = layout.rooms ?? [];
  const [fromIndex, toIndex] = [rooms.indexOf(fromRoom), rooms.indexOf(toRoom)];
  return fromIndex !== -1 && toIndex !== -1 && toIndex < fromIndex;
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
    const resolved = program.getResolvedModuleFromModuleSpecifier(specifier, sourceFile)?.resolvedModule
      ?.resolvedFileName;
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
    const argument =
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword ? node.arguments[0] : undefined;
    if (argument && ts.isStringLiteral(argument)) specifiers.push(argument);
    // `import("./x.js").T` in a type.
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      specifiers.push(node.argument.literal);
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
