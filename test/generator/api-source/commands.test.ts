/**
 * `flowsmith flows` and `flowsmith add` against the emulator: listing what
 * the service publishes, adding a flow by id (snapshot stored, the config's
 * other bytes kept), and the refusals that write nothing.
 */
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chmod, lstat, readFile, rename, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { runFlows } from "../../../generator/index";
import { makeProject, removeProjects, snapshot, type Project } from "../codegen-project";
import { cli, SAMPLE_IDS, startService, type Service } from "./service";

let service: Service;
const SIGNING = SAMPLE_IDS.signing.flowId;
const AML = SAMPLE_IDS["aml-screening"].flowId;
const DOCUMENTS = SAMPLE_IDS["document-verification"].flowId;

beforeAll(async () => {
  service = await startService(["flows/signing.yaml", "flows/document-verification.yaml", "flows/aml-screening.yaml"]);
});
afterAll(async () => {
  await service.close();
  await removeProjects();
});

/** A project whose config has only document-verification, written with the file's own layout. */
async function project(): Promise<Project> {
  const made = await makeProject({ flows: ["document-verification"] });
  await writeFile(
    made.config,
    `{\n  "$schema": "./codegen.config.schema.json",\n  "outputDir": "generated",\n  "flows": [\n    { "name": "document-verification", "source": { "file": "flows/document-verification.yaml" } }\n  ]\n}\n`,
  );
  return made;
}

describe("flowsmith flows", () => {
  it("lists each environment's flows with what the service returns, marking those in the config", async () => {
    const { config } = await project();
    const run = await cli(["flows", "--config", config], service.env);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(
      new RegExp(
        `^staging: 2 flow\\(s\\)\\n  ${SIGNING}  name Signing, version 1\\n  ${AML}  name AML screening, version 7\\nlive: 1 flow\\(s\\)\\n  ${DOCUMENTS}  name Bank account and address check, version 4, in \\S*codegen\\.config\\.json as document-verification$`,
        "m",
      ),
    );
  });

  it("--environment and --json: the records as the service returns them", async () => {
    const run = await cli(["flows", "--environment", "live", "--json"], service.env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      live: [{ id: DOCUMENTS, name: "Bank account and address check", version: 4, environment: "live" }],
    });
  });

  it.each<[string, string[], Record<string, string>, { code: number; says: RegExp }]>([
    [
      "a bad environment",
      ["flows", "--environment", "prod"],
      {},
      { code: 2, says: /--environment must be staging or live; got "prod"/ },
    ],
    [
      "no API client at all",
      ["flows"],
      { FLOWSMITH_STAGING_CLIENT_ID: "", FLOWSMITH_LIVE_CLIENT_ID: "" },
      { code: 1, says: /CREDENTIALS_MISSING: no API client is set: set FLOWSMITH_STAGING_CLIENT_ID/ },
    ],
    [
      "a missing secret",
      ["flows", "--environment", "live"],
      { FLOWSMITH_LIVE_CLIENT_SECRET: "" },
      { code: 1, says: /FLOWSMITH_LIVE_CLIENT_SECRET is not set: fetching the flows of live/ },
    ],
  ])("%s", async (_name, args, env, { code, says }) => {
    const run = await cli(args, { ...service.env, ...env });
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(says);
  });

  it("--help names every option", async () => {
    const run = await cli(["flows", "--help"], {});
    expect(run.code).toBe(0);
    for (const option of ["--environment", "--json", "--config", "FLOWSMITH_BASE_URL", "FLOWSMITH_LIVE_CLIENT_SECRET"])
      expect(run.stdout).toContain(option);
  });
});

describe("runFlows (the entry point `flows` prints)", () => {
  it.each<
    [string, { given: { environment?: "staging" | "live" }; want: Record<string, [string, string | undefined][]> }]
  >([
    [
      "every environment with an API client, marking the config's entries",
      {
        given: {},
        want: {
          staging: [
            [SIGNING, undefined],
            [AML, undefined],
          ],
          live: [[DOCUMENTS, "document-verification"]],
        },
      },
    ],
    [
      "one environment",
      {
        given: { environment: "staging" },
        want: {
          staging: [
            [SIGNING, undefined],
            [AML, undefined],
          ],
        },
      },
    ],
  ])("%s", async (_name, { given, want }) => {
    const { config } = await project();
    const listed = await runFlows({ configPath: config, env: service.env, ...given });
    expect(listed.config).toMatch(/codegen\.config\.json$/);
    expect(
      Object.fromEntries(
        listed.environments.map(({ environment, flows }) => [
          environment,
          flows.map((flow) => [flow.id, flow.inConfigAs]),
        ]),
      ),
    ).toEqual(want);
    expect(listed.environments[0]?.flows[0]?.shown).toMatchObject({ id: SIGNING, name: "Signing", version: 1 });
  });
});

describe("flowsmith add", () => {
  it("stores the snapshot, appends an api entry keeping every other byte of the config, and codegen then generates it offline", async () => {
    const { dir, config } = await project();
    const before = await readFile(config, "utf8");
    const run = await cli(["add", SIGNING, "--environment", "staging", "--config", config], service.env);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(
      /^Added "signing" \(flow 6f1c\S+, staging, version 1\) to \S+codegen\.config\.json #\/flows\/1; snapshot flows\/signing\.json\.\nRun `npx flowsmith codegen` to generate its client\.\n$/,
    );

    const after = await readFile(config, "utf8");
    const entry = `    { "name": "signing", "source": { "api": { "flowId": "${SIGNING}", "environment": "staging" } } }\n`;
    expect(after).toBe(before.replace('.yaml" } }\n', `.yaml" } },\n${entry}`));
    const stored = await readFile(path.join(dir, "flows/signing.json"), "utf8");
    expect(JSON.parse(stored)).toMatchObject({ info: { "x-flow-id": SIGNING, "x-flow-version": 1 } });

    const generated = await cli(["codegen", "--config", config], {});
    expect(generated.code).toBe(0);
    expect(generated.stdout).toMatch(/signing\s+6f1c\S+\s+v1\s+staging .* generated/);
    expect(generated.stdout).not.toContain("Wrote flows/");
  });

  it("--name, --version and --snapshot go into the entry", async () => {
    const { dir, config } = await project();
    const run = await cli(
      [
        "add",
        AML,
        "--environment",
        "staging",
        "--name",
        "aml",
        "--version",
        "7",
        "--snapshot",
        "api/aml.json",
        "--config",
        config,
      ],
      service.env,
    );
    expect(run.code).toBe(0);
    const flows = (JSON.parse(await readFile(config, "utf8")) as { flows: unknown[] }).flows;
    expect(flows[1]).toEqual({
      name: "aml",
      source: { api: { flowId: AML, environment: "staging", version: 7, snapshot: "api/aml.json" } },
    });
    expect(await readFile(path.join(dir, "api/aml.json"), "utf8")).toMatch(/"x-flow-version": 7/);
  });

  it.each<[string, (p: Project) => string[], { code: number; says: RegExp }]>([
    [
      "a flow the config has as a file",
      () => ["add", DOCUMENTS, "--environment", "live"],
      {
        code: 1,
        says: /DUPLICATE_FLOW: .*#\/flows\/0: flow 2d8e\S+ \(live\) is already in the config as "document-verification" \(#\/flows\/0, flows\/document-verification\.yaml\)/,
      },
    ],
    [
      "a name in use",
      () => ["add", SIGNING, "--environment", "staging", "--name", "document-verification"],
      { code: 1, says: /DUPLICATE_FLOW_NAME: .*the name "document-verification" is already used by #\/flows\/0/ },
    ],
    [
      "another version than --version",
      () => ["add", SIGNING, "--environment", "staging", "--version", "3"],
      {
        code: 1,
        says: /VERSION_MISMATCH: .*publishes version 1 of flow 6f1c\S+ in staging, not the version 3 given by --version; nothing was written/,
      },
    ],
    [
      "a flow the environment does not have",
      () => ["add", SIGNING, "--environment", "live"],
      {
        code: 1,
        says: /FETCH_FAILED: .*\/api\/v1\/flows\/6f1c\S+\/live\/openapi: GET .* failed with status 404.*flowsmith flows --environment live/,
      },
    ],
    [
      "a file flowsmith did not write where the snapshot goes",
      (made) => {
        writeFileSync(path.join(made.dir, "flows/signing.json"), "{}\n");
        return ["add", SIGNING, "--environment", "staging"];
      },
      {
        code: 1,
        says: /SNAPSHOT_CONFLICT: .*flows\/signing\.json is in the way of this flow's snapshot and flowsmith did not write it/,
      },
    ],
    [
      "a snapshot that is not JSON",
      () => ["add", SIGNING, "--environment", "staging", "--snapshot", "flows/signing.yaml"],
      { code: 2, says: /^flowsmith add: --snapshot must name a \.json file; got "flows\/signing\.yaml"\n/ },
    ],
    ["no environment", () => ["add", SIGNING], { code: 2, says: /--environment staging\|live is required/ }],
    ["no flow id", () => ["add", "--environment", "live"], { code: 2, says: /expected one flow id/ }],
  ])("refuses %s, writing nothing", async (_name, args, { code, says }) => {
    const made = await project();
    const argv = args(made);
    const before = await snapshot(made.root);
    const run = await cli([...argv, "--config", made.config], service.env);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(says);
    expect(await snapshot(made.root)).toEqual(before);
  });

  it("--snapshot that is not a .json file is a usage error before the service is reached (none is configured here)", async () => {
    const made = await project();
    const run = await cli(
      ["add", SIGNING, "--environment", "staging", "--snapshot", "flows/signing.JSON.txt", "--config", made.config],
      {},
    );
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toMatch(
      /^flowsmith add: --snapshot must name a \.json file; got "flows\/signing\.JSON\.txt"\nRun `flowsmith add --help`/,
    );
  });

  it("starts a config when there is none, which codegen then reads", async () => {
    const { dir } = await project();
    const config = path.join(dir, "new.config.json");
    const run = await cli(["add", SIGNING, "--environment", "staging", "--config", config], service.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("to a new ");
    expect(await readFile(config, "utf8")).toBe(
      `{\n  "$schema": "./node_modules/flowsmith/codegen.config.schema.json",\n  "outputDir": "generated",\n  "flows": [\n` +
        `    { "name": "signing", "source": { "api": { "flowId": "${SIGNING}", "environment": "staging" } } }\n  ]\n}\n`,
    );
    expect((await cli(["codegen", "--config", config], {})).code).toBe(0);
  });

  it.each<[string, string, string]>([
    [
      "an empty flows list",
      '{ "outputDir": "generated", "flows": [] }\n',
      '{ "outputDir": "generated", "flows": [\n  ENTRY\n] }\n',
    ],
    [
      "comments and trailing commas (JSONC), kept where they were",
      '{\n  // our flows\n  "outputDir": "generated",\n  "flows": [\n    { "source": { "file": "flows/document-verification.yaml" } }, // the live one\n  ],\n}\n',
      '{\n  // our flows\n  "outputDir": "generated",\n  "flows": [\n    { "source": { "file": "flows/document-verification.yaml" } }, // the live one\n    ENTRY,\n  ],\n}\n',
    ],
    [
      "a comment after the last entry, no trailing comma",
      '{\n  "flows": [\n    { "source": { "file": "flows/document-verification.yaml" } } /* live */\n  ]\n}\n',
      '{\n  "flows": [\n    { "source": { "file": "flows/document-verification.yaml" } }, /* live */\n    ENTRY\n  ]\n}\n',
    ],
    // Comments in an empty list were dropped with it; several after the last entry moved to the new one's line.
    [
      "an empty flows list holding comments",
      '{\n  "flows": [ // none yet\n    /* signing next */\n  ]\n}\n',
      '{\n  "flows": [ // none yet\n    /* signing next */\n    ENTRY\n  ]\n}\n',
    ],
    [
      "an empty flows list with a comment on one line",
      '{ "flows": [ /* soon */ ] }\n',
      '{ "flows": [ /* soon */\n  ENTRY\n] }\n',
    ],
    [
      "two comments after the last entry's comma",
      '{\n  "flows": [\n    { "source": { "file": "flows/document-verification.yaml" } }, /* live */ // keep\n  ]\n}\n',
      '{\n  "flows": [\n    { "source": { "file": "flows/document-verification.yaml" } }, /* live */ // keep\n    ENTRY,\n  ]\n}\n',
    ],
  ])("adds into %s", async (_name, given, want) => {
    const { config } = await project();
    await writeFile(config, given);
    const run = await cli(["add", SIGNING, "--environment", "staging", "--config", config], service.env);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const entry = `{ "name": "signing", "source": { "api": { "flowId": "${SIGNING}", "environment": "staging" } } }`;
    expect(await readFile(config, "utf8")).toBe(want.replace("ENTRY", entry));
    expect((await cli(["codegen", "--config", config], {})).code).toBe(0);
  });

  it("a config that is a symbolic link: the file it names gets the entry and keeps its mode; the link stays", async () => {
    const { dir, config } = await project();
    const shared = path.join(dir, "shared.config.json");
    await rename(config, shared);
    await chmod(shared, 0o640);
    await symlink("shared.config.json", config);
    const run = await cli(["add", SIGNING, "--environment", "staging", "--config", config], service.env);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect((await lstat(config)).isSymbolicLink()).toBe(true);
    expect(await readFile(shared, "utf8")).toContain(`"flowId": "${SIGNING}"`);
    expect((await stat(shared)).mode & 0o777).toBe(0o640);
  });

  it("refuses to add the same flow twice", async () => {
    const { config } = await project();
    expect((await cli(["add", SIGNING, "--environment", "staging", "--config", config], service.env)).code).toBe(0);
    const before = await readFile(config, "utf8");
    const again = await cli(
      ["add", SIGNING, "--environment", "staging", "--name", "signing-2", "--config", config],
      service.env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /DUPLICATE_FLOW: .*already in the config as "signing" \(#\/flows\/1, flows\/signing\.json\)/,
    );
    expect(await readFile(config, "utf8")).toBe(before);
  });

  it.each<
    [
      string,
      {
        given: { setup: (p: Project) => Promise<void>; add: string[] };
        want: { advice: RegExp; follow: (p: Project) => Promise<string[]> };
      },
    ]
  >([
    [
      "a description file: download it again, or take the flow from the service instead",
      {
        given: { setup: () => Promise.resolve(), add: ["add", DOCUMENTS, "--environment", "live"] },
        want: {
          advice:
            /It is generated from the description file flows\/document-verification\.yaml, which codegen reads as it is and never fetches: to update it, download the flow's current version from the dashboard over flows\/document-verification\.yaml and run `npx flowsmith codegen`; to take the flow from the service instead, remove #\/flows\/0 from the config and run this `flowsmith add` again\n$/,
          // As advised: the entry removed, the same add.
          follow: async (made) => {
            await writeFile(made.config, '{ "outputDir": "generated", "flows": [] }\n');
            return ["add", DOCUMENTS, "--environment", "live"];
          },
        },
      },
    ],
    [
      "an api entry: codegen --refresh of that flow",
      {
        given: {
          setup: async (made) => {
            expect(
              (await cli(["add", SIGNING, "--environment", "staging", "--config", made.config], service.env)).code,
            ).toBe(0);
          },
          add: ["add", SIGNING, "--environment", "staging", "--name", "signing-2"],
        },
        want: {
          advice:
            /To fetch its current version into flows\/signing\.json, run `npx flowsmith codegen --refresh --flow signing`\n$/,
          follow: () => Promise.resolve(["codegen", "--refresh", "--flow", "signing"]),
        },
      },
    ],
  ])(
    "a flow the config already has, from %s (DUPLICATE_FLOW's advice, which then works)",
    async (_name, { given, want }) => {
      const made = await project();
      await given.setup(made);
      const refused = await cli([...given.add, "--config", made.config], service.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/error DUPLICATE_FLOW: /);
      expect(refused.stderr).toMatch(want.advice);
      const followed = await cli([...(await want.follow(made)), "--config", made.config], service.env);
      expect(followed.stderr).not.toMatch(/error/);
      expect(followed.code).toBe(0);
    },
  );

  it("a snapshot path under a file is refused before anything is written (was 'unexpected error: ENOTDIR')", async () => {
    const made = await project();
    const before = await snapshot(made.dir);
    const run = await cli(
      [
        "add",
        SIGNING,
        "--environment",
        "staging",
        "--snapshot",
        "codegen.config.json/signing.json",
        "--config",
        made.config,
      ],
      service.env,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /SNAPSHOT_CONFLICT: .*codegen\.config\.json\/signing\.json .*\(a folder on its path is a file\)/,
    );
    expect(await snapshot(made.dir)).toEqual(before);
  });
});

describe("what a failed fetch says to check", () => {
  it("an auth host answering 500 is not a credentials problem; a flow list not found names baseUrl, not descriptionPath", async () => {
    let tokenFails = true;
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === "/oidc/token" && tokenFails) {
        res.writeHead(500).end("down");
        return;
      }
      if (req.url === "/oidc/token") {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ access_token: "t0k3n-for-hints", expires_in: 60, token_type: "Bearer" }));
        return;
      }
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
      const env = { ...service.env, FLOWSMITH_BASE_URL: url, FLOWSMITH_AUTH_URL: url };
      const down = await cli(["flows", "--environment", "staging"], env);
      expect(down.code).toBe(1);
      expect(down.stderr).toMatch(/status 500.*The auth host failed: try again later/);
      expect(down.stderr).not.toMatch(/check FLOWSMITH_STAGING_CLIENT_ID/);
      tokenFails = false;
      const missing = await cli(["flows", "--environment", "staging"], env);
      expect(missing.stderr).toMatch(/status 404.*Check baseUrl \(environment variable FLOWSMITH_BASE_URL\)/);
      expect(missing.stderr).not.toMatch(/descriptionPath/);
      const description = await cli(
        [
          "add",
          "some-flow",
          "--environment",
          "staging",
          "--config",
          path.join(await mkdtempDir(), "codegen.config.json"),
        ],
        env,
      );
      expect(description.stderr).toMatch(
        /descriptionPath "\/api\/v1\/flows\/\{flowId\}\/\{environment\}\/openapi" \(the default\)/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("FLOWSMITH_AUTH_URL set to the API host (issue 20)", () => {
  it("`flowsmith flows`: the token request gets 404, and the message names FLOWSMITH_AUTH_URL, not the credentials", async () => {
    const env = { ...service.env, FLOWSMITH_AUTH_URL: service.env["FLOWSMITH_BASE_URL"] as string };
    const run = await cli(["flows", "--environment", "staging"], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/FETCH_FAILED: .*Token request to \S+\/oidc\/token failed with status 404/);
    expect(run.stderr).toContain(
      'The token URL was not found, so the credentials were not even checked: FLOWSMITH_AUTH_URL (or "service": { "authUrl" }) must be {auth_url}, the token host, not {base_url}, the API host (it is the same as baseUrl). authUrl comes from environment variable FLOWSMITH_AUTH_URL',
    );
    expect(run.stderr).not.toMatch(/check FLOWSMITH_STAGING_CLIENT_ID/);
  });
});

async function mkdtempDir(): Promise<string> {
  return (await makeProject({ flows: [] })).root;
}
