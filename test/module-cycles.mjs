// Import cycles between the repository's own modules, found on the TypeScript program the
// static checks already built (static-checks.mjs): each file's imports as TypeScript resolved
// them, so paths, `.js` specifiers and package self-references resolve as they do for tsc.
// Every import counts, type-only ones too (`import type`, `export type`, `import("./x.js").T`):
// the compiler erases them, but two modules that each need the other's types are still one
// concept split in two, and the next value import between them is a cycle at run time.
// `import()` counts: a lazy import is still a dependency of the module that makes it.
// `require()` calls are not followed: the sources use them only for the build's generated
// validators and for packages.
import path from "node:path";
import ts from "typescript";

/** Every cycle as the list of its files relative to `root`, each list sorted; none when the graph is acyclic. */
export function moduleCycles(program, root) {
  const own = (file) => !file.includes("/node_modules/") && !file.endsWith(".d.ts") && file.startsWith(`${root}/`);
  const graph = new Map();
  for (const sourceFile of program.getSourceFiles()) {
    if (!own(sourceFile.fileName)) continue;
    const targets = [];
    for (const specifier of importSpecifiers(sourceFile)) {
      const resolved = program.getResolvedModuleFromModuleSpecifier(specifier, sourceFile)?.resolvedModule?.resolvedFileName;
      if (resolved && own(resolved)) targets.push(resolved);
    }
    graph.set(sourceFile.fileName, targets);
  }
  return stronglyConnected(graph)
    .filter((component) => component.length > 1 || graph.get(component[0]).includes(component[0]))
    .map((component) => component.map((file) => path.relative(root, file)).sort());
}

function importSpecifiers(sourceFile) {
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
