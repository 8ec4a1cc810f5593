/**
 * The platform seam (runtime/platform/): what each platform does with what
 * only some have, told apart by `imports` conditions and never by an option.
 * Each implementation is loaded as its condition would load it; the refusals
 * are ConfigurationErrors that say what to do instead, before any request.
 */
import { Agent } from "undici";
import { ConfigurationError } from "../../runtime/index.js";
import { FetchTransport } from "../../runtime/exchange/fetch-transport.js";
import { UndiciTransport } from "../../runtime/exchange/undici-transport.js";
import { platform as bun } from "../../runtime/platform/bun.js";
import { platform as deno } from "../../runtime/platform/deno.js";
import { platform as node } from "../../runtime/platform/node.js";
import { platform as web } from "../../runtime/platform/web.js";
import runtimeJson from "../../runtime/package.json";

const runtimePackage = runtimeJson as { imports: Record<string, Record<string, { import: string; default: string }>> };

test("the `imports` map picks each platform's module by its condition, Node's for `node` only", () => {
  const map = runtimePackage.imports["#platform"] ?? {};
  const conditions = Object.keys(map);
  // Order matters: Deno and Bun also match `node`, so their own conditions come first.
  expect(conditions).toEqual(["deno", "bun", "workerd", "edge-light", "node", "default"]);
  expect(Object.fromEntries(Object.entries(map).map(([condition, target]) => [condition, target.default]))).toEqual({
    deno: "./dist/platform/deno.js",
    bun: "./dist/platform/bun.js",
    workerd: "./dist/platform/web.js",
    "edge-light": "./dist/platform/web.js",
    node: "./dist/platform/node.js",
    default: "./dist/platform/web.js",
  });
  for (const target of Object.values(map)) expect(target.import).toBe(target.default.replace("./dist/", "./dist/esm/"));
});

describe("the transport", () => {
  test("Node sends through undici; every other platform through its fetch", async () => {
    const transports = [node, web, deno, bun].map((p) =>
      p.transportOrThrow({ dispatcher: undefined, proxy: undefined }),
    );
    expect(transports[0]).toBeInstanceOf(UndiciTransport);
    for (const transport of transports.slice(1)) expect(transport).toBeInstanceOf(FetchTransport);
    await Promise.all(transports.map((t) => t.close()));
  });

  const refusals: [string, { proxy?: unknown; dispatcher?: unknown }, RegExp][] = [
    ["a proxy URL", { proxy: "http://proxy.internal:3128" }, /Cloudflare Workers and Vercel Edge have none/],
    ['proxy "env"', { proxy: "env" }, /Cloudflare Workers and Vercel Edge have none/],
    ["a dispatcher", { dispatcher: new Agent() }, /only the runtime on Node uses/],
  ];
  test.each(refusals)("the Web platform refuses %s with a ConfigurationError that says so", (_, given, says) => {
    const attempt = () => web.transportOrThrow({ dispatcher: given.dispatcher, proxy: given.proxy });
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(says);
  });

  test.each([
    ["Deno", deno],
    ["Bun", bun],
  ])('%s takes proxy "env" (its fetch reads the variables) and refuses a URL, saying how', async (name, platform) => {
    await platform.transportOrThrow({ dispatcher: undefined, proxy: "env" }).close();
    expect(() => platform.transportOrThrow({ dispatcher: undefined, proxy: "http://proxy.internal:3128" })).toThrow(
      new RegExp(`on ${name}, fetch takes its proxy from the process's HTTP_PROXY, HTTPS_PROXY and NO_PROXY`),
    );
  });
});

describe("files and patterns", () => {
  test("fileFromPath is a ConfigurationError on the Web platform, before anything is read", async () => {
    await expect(web.fileFromPath("/etc/hostname", {})).rejects.toThrow(ConfigurationError);
    await expect(web.fileFromPath("/etc/hostname", {})).rejects.toThrow(/Blob, File, Uint8Array or ReadableStream/);
  });

  test("only Node loads the pattern engine by itself (elsewhere an import of @flowsmith/runtime/patterns does)", () => {
    expect(web.patternEngine()).toBeUndefined();
    expect(deno.patternEngine()).toBeUndefined();
    expect(bun.patternEngine()).toBeUndefined();
    const engine = node.patternEngine();
    expect(engine?.compile("^a+$")).toMatchObject({ test: expect.any(Function) as unknown });
  });

  test("Node's FormData is undici's own (its dispatcher encodes no other); the Web platform's is the global one", () => {
    expect(node.formData()).not.toBeInstanceOf(FormData);
    expect(node.formData()[Symbol.toStringTag]).toBe("FormData");
    expect(web.formData()).toBeInstanceOf(FormData);
  });
});
