// V8's code cache for the modules jest compiles, kept for the life of the jest worker process
// (required by test/support/jest-environment.js, which every worker loads).
//
// jest loads every module again in every suite, and compiles each with node:vm's compileFunction:
// undici, ajv, ts-morph, prettier, yaml and our own sources were parsed anew in each of the 30-odd
// suites a worker runs. Here the second compile of a file produces V8's code cache (a file that
// only one suite loads never pays for making it) and later compiles of the same text reuse it,
// which skips parsing it again. The function each compile returns is still new, in the suite's own
// context: nothing a module does at load is shared, only the parse.
//
// The cache is keyed by file name and checked against the whole text: V8 accepts a code cache for
// any source of the same length, and a test may write a file again at the same path.
const vm = require("node:vm");

const compileFunction = vm.compileFunction;
/** @type {Map<string, { source: string, cachedData: Buffer }>} */
const compiled = new Map();
/** Files compiled once so far: a file no later suite loads is not worth the cache's making. */
const seenOnce = new Set();

vm.compileFunction = function compileFunctionWithCodeCache(code, params, options) {
  const filename = options?.filename;
  if (typeof filename !== "string") return compileFunction.call(this, code, params, options);
  const known = compiled.get(filename);
  if (known?.source === code) {
    const fn = compileFunction.call(this, code, params, { ...options, cachedData: known.cachedData });
    if (!fn.cachedDataRejected) return fn;
  }
  if (!seenOnce.has(filename)) {
    seenOnce.add(filename);
    return compileFunction.call(this, code, params, options);
  }
  const fn = compileFunction.call(this, code, params, { ...options, produceCachedData: true });
  // A copy: the Buffer node returns belongs to the suite's context, and holding it would keep that
  // whole context (every module the suite loaded) alive after the suite.
  if (fn.cachedData) compiled.set(filename, { source: code, cachedData: Buffer.from(fn.cachedData) });
  return fn;
};
