"use strict";
/**
 * The platform pages' examples (docs/cloudflare-workers.md, docs/vercel.md, docs/lambda.md),
 * run as written in the consumer test's ES module project: each file a page gives (a code
 * block right after a line naming it, "`src/worker.ts`:") is written there verbatim and
 * compiled with the project, then:
 * - the Worker: `wrangler deploy --dry-run` with the page's wrangler.toml, the bundle in
 *   workerd (Miniflare) with the flags that file sets, the settings as bindings;
 * - the Vercel route handlers: behind a router as Next.js dispatches by path (next-routes.ts,
 *   written here), bundled for Vercel's Edge Runtime and compiled for Node.js;
 * - the Lambda handler: called with payload 2.0 events made from loopback requests.
 * On each: a sign-up creates a `test_accepted…` session (201), a sign-up the flow refuses is
 * a 400 with the issues, the emulator's signed delivery is answered 204 and the example
 * prints `webhook: session <id> ended ACCEPTED`, and an unsigned delivery gets 401.
 */
const fs = require("node:fs");
const path = require("node:path");
const {
  buildEdge,
  edgeHost,
  expectDelivery,
  expectUnsignedRefused,
  runWrangler,
  tryEach,
  withPlatformHost,
  workerdHost,
} = require("./platforms.js");

const REPO = path.resolve(__dirname, "..", "..");
const PAGES = ["docs/cloudflare-workers.md", "docs/vercel.md", "docs/lambda.md"];

/** What Next.js does with the App Router's route files, for the two routes of docs/vercel.md. */
const NEXT_ROUTES = `import * as signUp from "../app/api/sign-up/route.js";
import * as webhooks from "../app/api/webhooks/route.js";

const routes: Readonly<Record<string, { POST(request: Request): Promise<Response> }>> = { "/api/sign-up": signUp, "/api/webhooks": webhooks };

export default async function route(request: Request): Promise<Response> {
  const handlers = routes[new URL(request.url).pathname];
  return handlers && request.method === "POST" ? handlers.POST(request) : new Response("not found", { status: 404 });
}
`;

/** Each page's files by path, in page order; throws when a page gives none. */
function pageFiles(page) {
  const text = fs.readFileSync(path.join(REPO, page), "utf8");
  const files = [...text.matchAll(/^`([^`\n]+)`:\n\n```\w+\n([\s\S]*?)^```$/gm)].map(([, file, body]) => [file, body]);
  if (files.length === 0)
    throw new Error(`${page} gives no file in the form this test reads ("\`path\`:", then a code block)`);
  return files;
}

/** Writes every page's files, and the router of the route handlers, into the project (before tsc). */
function writeDocExamples(dir) {
  for (const page of PAGES) {
    for (const [file, body] of pageFiles(page)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), body);
    }
  }
  fs.mkdirSync(path.join(dir, "src", "platform"), { recursive: true });
  fs.writeFileSync(path.join(dir, "src", "platform", "next-routes.ts"), NEXT_ROUTES);
}

function examplesFor(dir, tools) {
  const examples = [];
  if (tools) {
    const outdir = path.join(dir, "platform-builds", "docs-worker");
    const toml = fs.readFileSync(path.join(dir, "wrangler.toml"), "utf8");
    const flags = JSON.parse(/^compatibility_flags = (\[.*\])$/m.exec(toml)?.[1] ?? "[]");
    examples.push({
      name: "docs/cloudflare-workers.md, workerd",
      build: () => runWrangler(tools, ["deploy", "--dry-run", "--outdir", outdir], dir),
      host: (env, port) => workerdHost(tools, { outdir, flags, bindings: env, port }),
    });
    const bundle = path.join(dir, "platform-builds", "docs-edge", "routes.js");
    examples.push({
      name: "docs/vercel.md, the Edge Runtime",
      build: () => buildEdge(tools, { entry: path.join(dir, "src", "platform", "next-routes.ts"), bundle }),
      host: (env, port) => edgeHost(tools, { bundle, env, port }),
      paths: { signUp: "/api/sign-up", webhooks: "/api/webhooks" },
    });
  }
  examples.push({
    name: "docs/vercel.md, Node.js",
    host: (env, port) =>
      nodeHost(
        "fetch-host.mjs",
        { module: path.join(dir, "out", "platform", "next-routes.js"), project: dir, port },
        env,
      ),
    paths: { signUp: "/api/sign-up", webhooks: "/api/webhooks" },
  });
  examples.push({
    name: "docs/lambda.md, Node.js",
    host: (env, port) => nodeHost("lambda-host.mjs", { module: path.join(dir, "out", "handler.js"), port }, env),
  });
  return examples;
}

function nodeHost(script, options, env) {
  return [
    process.execPath,
    [path.join(__dirname, "hosts", script)],
    { ...env, FLOWSMITH_HOST_OPTIONS: JSON.stringify(options) },
  ];
}

/** Runs every page's example; throws one error naming each that failed. */
function tryDocExamples(dir, { tools }, log) {
  const attempt = (example) => {
    const paths = example.paths ?? { signUp: "/sign-up", webhooks: "/webhooks" };
    return withPlatformHost(dir, { ...example, webhookPath: paths.webhooks }, (running) =>
      driveExample(running, paths),
    );
  };
  return tryEach(examplesFor(dir, tools), attempt, "the platform pages' examples", log);
}

async function driveExample({ origin, emulator, host }, paths) {
  const signUp = (person) =>
    fetch(`${origin}${paths.signUp}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(person),
    });
  const created = await signUp({
    subjectId: "test_accepted_docs",
    givenName: "Ada",
    familyName: "Lovelace",
    birthDate: "1815-12-10",
  });
  const text = await created.text();
  const session = parsedOrUndefined(text);
  if (created.status !== 201 || typeof session?.sessionId !== "string")
    throw new Error(`sign-up answered ${created.status}: ${text.slice(0, 4000)}\n${host.output()}`);
  if (!session.playerUrl.startsWith(`${emulator.baseUrl}/player/`))
    throw new Error(`sign-up: playerUrl ${session.playerUrl} is not the emulator's`);
  const refused = await signUp({
    subjectId: "docs-invalid",
    givenName: "Ada",
    familyName: "Lovelace",
    birthDate: "10 December 1815",
  });
  const answer = await refused.json().catch(() => undefined);
  if (refused.status !== 400 || !Array.isArray(answer?.issues) || answer.issues.length === 0) {
    throw new Error(
      `a sign-up with a birthDate that is not a date answered ${refused.status}: ${JSON.stringify(answer)}, not 400 with the issues`,
    );
  }
  await expectDelivery(
    emulator,
    host,
    session.sessionId,
    new RegExp(`^webhook: session ${session.sessionId} ended (\\S+)$`, "m"),
  );
  await expectUnsignedRefused(`${origin}${paths.webhooks}`);
}

function parsedOrUndefined(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

module.exports = { writeDocExamples, tryDocExamples };
