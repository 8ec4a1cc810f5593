/**
 * The client secret and the access tokens never leave the process: not in
 * what the commands print (successes and failures), not in snapshots,
 * generated files, the manifest or the config. The tokens the auth host
 * issues are recorded by a small forwarding server in front of it, so the
 * test knows every one of them; each secret is looked for raw, URL-encoded
 * and in base64 (alone and as the Basic credentials `id:secret`).
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { load } from "js-yaml";
import { listRelativeFiles } from "../../../generator/output/file-tree";
import { makeProject, removeProjects, writeConfig } from "../codegen-project";
import { cli, CLIENTS, SAMPLE_IDS, startService, type Ran, type Service } from "./service";

let service: Service;
let recorder: Server;
const tokens: string[] = [];

beforeAll(async () => {
  service = await startService(["flows/signing.yaml", "flows/aml-screening.yaml"]);
  recorder = await recordTokens(service.emulator.authUrl);
});
afterAll(async () => {
  await new Promise((resolve) => recorder.close(resolve));
  await service.close();
  await removeProjects();
});

/** Forwards every request to the auth host and keeps each access_token it hands out. */
async function recordTokens(authUrl: string): Promise<Server> {
  const server = createServer((req, res) => {
    const upstream = request(new URL(req.url ?? "/", authUrl), { method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const body = Buffer.concat(chunks);
        try {
          const token = (JSON.parse(body.toString("utf8")) as { access_token?: unknown }).access_token;
          if (typeof token === "string") tokens.push(token);
        } catch {
          // Not a token response.
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
    });
    // The auth host gone: the connection drops, as it would without the recorder in between.
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

function forms(secret: string): string[] {
  const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
  return [secret, encodeURIComponent(secret), base64(secret), base64(secret).replace(/=+$/, "")];
}

it("no secret or token in any output or file, across successes and failures", async () => {
  const { address, port } = recorder.address() as AddressInfo;
  const env = { ...service.env, FLOWSMITH_AUTH_URL: `http://${address}:${port}` };
  const project = await makeProject({ flows: ["signing"] });
  await writeConfig(project.config, { flows: [{ name: "signing", source: { file: "flows/signing.yaml" } }] });
  const runs: Ran[] = [];
  const config = ["--config", project.config];
  // Every command that fetches, as it succeeds.
  runs.push(await cli(["add", SAMPLE_IDS["aml-screening"].flowId, "--environment", "staging", ...config], env));
  runs.push(await cli(["codegen", ...config], env));
  runs.push(await cli(["codegen", "--refresh", ...config], env));
  runs.push(await cli(["codegen", "--check", "--refresh", ...config], env));
  runs.push(await cli(["flows", ...config], env));
  runs.push(await cli(["flows", "--json", "--environment", "staging", ...config], env));
  // And as it fails: refused credentials, a secret the auth host echoes back in its refusal, the service gone.
  runs.push(await cli(["codegen", "--refresh", ...config], { ...env, FLOWSMITH_STAGING_CLIENT_ID: "someone-else" }));
  runs.push(await cli(["flows", "--environment", "staging", ...config], { ...env, FLOWSMITH_STAGING_CLIENT_ID: CLIENTS.staging.clientSecret }));
  runs.push(await cli(["add", SAMPLE_IDS.signing.flowId, "--environment", "live", ...config], env));
  await service.close();
  runs.push(await cli(["codegen", "--refresh", ...config], env));
  runs.push(await cli(["flows", ...config], env));

  expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
  expect(tokens.length).toBeGreaterThanOrEqual(4);
  const secrets = [
    ...Object.values(CLIENTS).flatMap(({ clientId, clientSecret }) => [...forms(clientSecret), ...forms(`${clientId}:${clientSecret}`)]),
    ...tokens.flatMap(forms),
  ];
  const texts = new Map<string, string>();
  runs.forEach((run, index) => texts.set(`run ${index} output`, run.stdout + run.stderr));
  for (const file of await listRelativeFiles(project.root)) texts.set(file, await readFile(path.join(project.root, file), "utf8"));
  expect([...texts.keys()]).toEqual(expect.arrayContaining(["project/flows/aml-screening.json", "project/generated/aml-screening/index.ts", "project/generated/.flowsmith-manifest.json"]));
  const found = [...texts].flatMap(([where, text]) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${where}: ${secret.slice(0, 6)}…`));
  expect(found).toEqual([]);
});

/**
 * An echoing service: it issues a token, then puts that token (raw and
 * percent-encoded) into the description and the flow list it answers with,
 * and the client secret into one flow's name. None of it may be stored or
 * printed: the description is refused, the list printed scrubbed.
 */
it("a service that echoes the token or the secret in what it returns: refused, or printed scrubbed", async () => {
  const token = "tok-echoed/Zx+9=";
  const { clientSecret } = CLIENTS.staging;
  const description = (await readFile(path.join(__dirname, "../../../flows/signing.yaml"), "utf8")).replace("title: Signing", `title: "Signing ${token}"`);
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url === "/oidc/token") return res.end(JSON.stringify({ access_token: token, expires_in: 3600, token_type: "Bearer" }));
      if (req.url?.endsWith("/openapi")) return res.end(JSON.stringify(load(description)));
      res.end(JSON.stringify({ flows: [{ id: SAMPLE_IDS.signing.flowId, name: encodeURIComponent(token) }, { id: "f2", name: clientSecret }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = { ...service.env, FLOWSMITH_BASE_URL: url, FLOWSMITH_AUTH_URL: url };
    const project = await makeProject({ flows: ["aml-screening"] });
    const config = ["--config", project.config];
    const before = await listRelativeFiles(project.root);
    const add = await cli(["add", SAMPLE_IDS.signing.flowId, "--environment", "staging", "--name", "echoed", ...config], env);
    expect(add).toMatchObject({ code: 1, stderr: expect.stringContaining("SECRET_IN_DESCRIPTION") as unknown });
    expect(await listRelativeFiles(project.root)).toEqual(before);
    const listed = [await cli(["flows", "--environment", "staging", ...config], env), await cli(["flows", "--json", "--environment", "staging", ...config], env)];
    expect(listed.map((run) => run.code)).toEqual([0, 0]);
    const printed = listed.map((run) => run.stdout + run.stderr).join("\n");
    expect(printed).toContain("[redacted]");
    expect([...forms(token), ...forms(clientSecret)].filter((secret) => printed.includes(secret))).toEqual([]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
