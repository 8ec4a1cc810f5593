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
    const upstream = request(
      new URL(req.url ?? "/", authUrl),
      { method: req.method, headers: req.headers },
      (answer) => {
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
      },
    );
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
  runs.push(
    await cli(["flows", "--environment", "staging", ...config], {
      ...env,
      FLOWSMITH_STAGING_CLIENT_ID: CLIENTS.staging.clientSecret,
    }),
  );
  runs.push(await cli(["add", SAMPLE_IDS.signing.flowId, "--environment", "live", ...config], env));
  await service.close();
  runs.push(await cli(["codegen", "--refresh", ...config], env));
  runs.push(await cli(["flows", ...config], env));

  expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
  expect(tokens.length).toBeGreaterThanOrEqual(4);
  const secrets = [
    ...Object.values(CLIENTS).flatMap(({ clientId, clientSecret }) => [
      ...forms(clientSecret),
      ...forms(`${clientId}:${clientSecret}`),
    ]),
    ...tokens.flatMap(forms),
  ];
  const texts = new Map<string, string>();
  runs.forEach((run, index) => texts.set(`run ${index} output`, run.stdout + run.stderr));
  for (const file of await listRelativeFiles(project.root))
    texts.set(file, await readFile(path.join(project.root, file), "utf8"));
  expect([...texts.keys()]).toEqual(
    expect.arrayContaining([
      "project/flows/aml-screening.json",
      "project/generated/aml-screening/index.ts",
      "project/generated/.flowsmith-manifest.json",
    ]),
  );
  const found = [...texts].flatMap(([where, text]) =>
    secrets.filter((secret) => text.includes(secret)).map((secret) => `${where}: ${secret.slice(0, 6)}…`),
  );
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
  const description = (await readFile(path.join(__dirname, "../../../flows/signing.yaml"), "utf8")).replace(
    "title: Signing",
    `title: "Signing ${token}"`,
  );
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url === "/oidc/token")
        return res.end(JSON.stringify({ access_token: token, expires_in: 3600, token_type: "Bearer" }));
      if (req.url?.endsWith("/openapi")) return res.end(JSON.stringify(load(description)));
      res.end(
        JSON.stringify({
          flows: [
            { id: SAMPLE_IDS.signing.flowId, name: encodeURIComponent(token) },
            { id: "f2", name: clientSecret },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = { ...service.env, FLOWSMITH_BASE_URL: url, FLOWSMITH_AUTH_URL: url };
    const project = await makeProject({ flows: ["aml-screening"] });
    const config = ["--config", project.config];
    const before = await listRelativeFiles(project.root);
    const add = await cli(
      ["add", SAMPLE_IDS.signing.flowId, "--environment", "staging", "--name", "echoed", ...config],
      env,
    );
    expect(add).toMatchObject({ code: 1, stderr: expect.stringContaining("SECRET_IN_DESCRIPTION") as unknown });
    expect(await listRelativeFiles(project.root)).toEqual(before);
    const listed = [
      await cli(["flows", "--environment", "staging", ...config], env),
      await cli(["flows", "--json", "--environment", "staging", ...config], env),
    ];
    expect(listed.map((run) => run.code)).toEqual([0, 0]);
    const printed = listed.map((run) => run.stdout + run.stderr).join("\n");
    expect(printed).toContain("[redacted]");
    expect([...forms(token), ...forms(clientSecret)].filter((secret) => printed.includes(secret))).toEqual([]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback service that answers the token request and the API with `answer`. */
async function withService(
  answer: (url: string, body: string) => { status: number; text: string },
  run: (env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const { status, text } = answer(req.url ?? "", Buffer.concat(chunks).toString("utf8"));
      res.writeHead(status, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await run({ ...service.env, FLOWSMITH_BASE_URL: url, FLOWSMITH_AUTH_URL: url });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

function fragmentsOf(value: string, length = 8): string[] {
  return Array.from({ length: value.length - length + 1 }, (_, start) => value.slice(start, start + length));
}

/**
 * Issue 20's probe: the auth host echoes the client secret JSON-escaped
 * (`\u002d` for `-`, as some encoders write every punctuation mark) inside a
 * long error_description, the secret across the 300th character of the
 * message. Not a piece of it reaches codegen's output.
 */
it("an auth host that echoes the secret JSON-escaped across the message's cut: no piece of it in codegen's output", async () => {
  const { clientSecret } = CLIENTS.staging;
  const escaped = clientSecret.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const padding = "y".repeat(300 - "invalid_client: ".length - (clientSecret.length - 3));
  await withService(
    (url) => ({
      status: url === "/oidc/token" ? 401 : 500,
      text: `{"error":"invalid_client","error_description":"${padding}${escaped} was not accepted"}`,
    }),
    async (env) => {
      const project = await makeProject({ flows: [] });
      await writeConfig(project.config, {
        flows: [{ name: "signing", source: { api: { ...SAMPLE_IDS.signing, snapshot: "flows/signing.json" } } }],
      });
      const ran = await cli(["codegen", "--refresh", "--config", project.config], env);
      expect(ran).toMatchObject({ code: 1, stderr: expect.stringContaining("FETCH_FAILED") as unknown });
      expect(ran.stderr).toContain(`invalid_client: ${padding.slice(0, 20)}`);
      expect(fragmentsOf(clientSecret).filter((fragment) => (ran.stdout + ran.stderr).includes(fragment))).toEqual([]);
    },
  );
});

/**
 * Issue 20's probe: a description carrying base64 of the token request's body
 * (the secret form-encoded, at a byte offset inside the base64 string): it
 * is refused, and nothing is written, at each of the three offsets.
 */
it.each([0, 1, 2])(
  "a description carrying base64(<token request body>), %i bytes shifted: SECRET_IN_DESCRIPTION, nothing written",
  async (shift) => {
    const document = load(await readFile(path.join(__dirname, "../../../flows/signing.yaml"), "utf8")) as {
      info: Record<string, unknown>;
    };
    let tokenRequest = "";
    await withService(
      (url, body) => {
        if (url === "/oidc/token") {
          tokenRequest = body;
          return {
            status: 200,
            text: JSON.stringify({ access_token: "tok-b64-probe", expires_in: 3600, token_type: "Bearer" }),
          };
        }
        const echoed = Buffer.from(`${"r".repeat(shift)}request: ${tokenRequest}`).toString("base64");
        return { status: 200, text: JSON.stringify({ ...document, info: { ...document.info, "x-echo": echoed } }) };
      },
      async (env) => {
        const project = await makeProject({ flows: ["aml-screening"] });
        await writeConfig(project.config, {
          flows: [{ name: "signing", source: { api: { ...SAMPLE_IDS.signing, snapshot: "flows/signing.json" } } }],
        });
        const before = await listRelativeFiles(project.root);
        const ran = await cli(["codegen", "--refresh", "--config", project.config], env);
        expect(tokenRequest).toContain("client_secret=");
        expect(ran).toMatchObject({ code: 1, stderr: expect.stringContaining("SECRET_IN_DESCRIPTION") as unknown });
        expect(await listRelativeFiles(project.root)).toEqual(before);
      },
    );
  },
);
