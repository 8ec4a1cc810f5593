/**
 * `source.api` against the emulator on loopback: generation from the
 * service equals generation from the same description as a file, snapshots
 * make codegen and --check offline, and every refusal (no credential, the
 * service down, a pinned version moved, a file in the snapshot's way, two
 * versions of one flow) names what to change and writes nothing.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { CodegenError } from "../../../generator/errors";
import { loadFlowsOrThrow } from "../../../generator/load-flows";
import { runCodegen } from "../../../generator/pipeline";
import { makeProject, removeProjects, REPO, SAMPLES, snapshot, writeConfig, type Project } from "../codegen-project";
import { SAMPLE_IDS, serviceEnv, startService, type Service } from "./service";

let service: Service;
/** Where nothing listens: the address of a service that was stopped. */
let stopped: Record<string, string>;

beforeAll(async () => {
  const gone = await startService([]);
  stopped = gone.env;
  await gone.close();
  service = await startService(SAMPLES.map((name) => `flows/${name}.yaml`));
});
afterAll(async () => {
  await service.close();
  await removeProjects();
});

const apiEntry = (name: keyof typeof SAMPLE_IDS, extra: Record<string, unknown> = {}) => ({
  name,
  source: { api: { ...SAMPLE_IDS[name], ...extra } },
});

async function apiProject(flows: readonly unknown[]): Promise<Project> {
  const project = await makeProject();
  await writeConfig(project.config, { flows });
  return project;
}

async function refusal(run: Promise<unknown>): Promise<CodegenError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CodegenError);
  return error as CodegenError;
}

describe("source.api", () => {
  it("a snapshot checked out with CRLF line endings (git autocrlf) is still flowsmith's: --check passes, --refresh accepts it", async () => {
    const project = await apiProject([apiEntry("signing")]);
    await runCodegen({ configPath: project.config, env: service.env });
    const file = path.join(project.dir, "flows/signing.json");
    const lf = await readFile(file, "utf8");
    await writeFile(file, lf.replace(/\n/g, "\r\n"));
    expect((await runCodegen({ configPath: project.config, check: true })).changes).toEqual([]);
    // Not SNAPSHOT_CONFLICT ("not in the form flowsmith writes"): the same description, so nothing to rewrite.
    const refreshed = await runCodegen({ configPath: project.config, env: service.env, refresh: true });
    expect(refreshed.snapshots).toEqual([]);
    expect((await readFile(file, "utf8")).replace(/\r\n/g, "\n")).toBe(lf);
  });

  it("generates what the same descriptions give as files, apart from each header's source line, and keeps each as a snapshot", async () => {
    const fromFiles = await makeProject();
    await runCodegen({ configPath: fromFiles.config });
    const fromApi = await apiProject(SAMPLES.map((name) => apiEntry(name)));
    const result = await runCodegen({ configPath: fromApi.config, env: service.env });

    expect(result.snapshots).toEqual(
      SAMPLES.map((name) => ({ path: `flows/${name}.json`, flow: name, reason: "added" })),
    );
    const want = await snapshot(fromFiles.out);
    const got = await snapshot(fromApi.out);
    expect([...got.keys()]).toEqual([...want.keys()]);
    for (const [file, content] of want) {
      if (file === ".flowsmith-manifest.json") continue;
      const [wantHeader, ...wantRest] = content.split("\n");
      const [gotHeader, ...gotRest] = (got.get(file) ?? "").split("\n");
      expect({ file, body: gotRest }).toEqual({ file, body: wantRest });
      if (file.endsWith(".ts") && file !== "index.ts") {
        const name = file.split("/")[0] ?? "";
        expect(wantHeader).toContain(`from flows/${name}.yaml`);
        expect(gotHeader).toContain(`from flows/${name}.json`);
      }
    }
    // The snapshot is the normalised description, byte for byte the copy descriptions.json keeps under the flow's name.
    const copies = JSON.parse(got.get("descriptions.json") ?? "") as Record<string, unknown>;
    expect(Object.keys(copies)).toEqual([...SAMPLES]);
    for (const name of SAMPLES) {
      const kept = await readFile(path.join(fromApi.dir, `flows/${name}.json`), "utf8");
      expect(`${JSON.stringify(copies[name], null, 2)}\n`).toBe(kept);
    }
  });

  it("codegen and --check read the snapshots: they pass with the service stopped, and a refetch of the same description changes nothing", async () => {
    const project = await apiProject([apiEntry("signing"), apiEntry("aml-screening")]);
    await runCodegen({ configPath: project.config, env: service.env });
    const before = await snapshot(project.dir);

    const checked = await runCodegen({ configPath: project.config, check: true, env: stopped });
    expect({ changes: checked.changes, snapshots: checked.snapshots }).toEqual({ changes: [], snapshots: [] });
    const again = await runCodegen({ configPath: project.config, env: stopped });
    expect(again.flows.map((flow) => flow.status)).toEqual(["unchanged", "unchanged"]);

    const refreshed = await runCodegen({ configPath: project.config, refresh: true, env: service.env });
    expect(refreshed.snapshots).toEqual([]);
    expect(refreshed.flows.map((flow) => [flow.status, flow.changed])).toEqual([
      ["unchanged", undefined],
      ["unchanged", undefined],
    ]);
    expect(await snapshot(project.dir)).toEqual(before);
  });

  it("fetches a missing snapshot on a write; under --check a missing snapshot is an error naming --refresh", async () => {
    const project = await apiProject([apiEntry("signing")]);
    const error = await refusal(runCodegen({ configPath: project.config, check: true, env: service.env }));
    expect(error.code).toBe("SNAPSHOT_MISSING");
    expect(error.message).toMatch(
      /#\/flows\/0\/source\/api: no snapshot of flow 6f1c2a9e-\S+ \(staging\) at flows\/signing\.json.*codegen --refresh --flow signing/,
    );

    // --check --refresh compares with the service and writes nothing.
    const compared = await runCodegen({ configPath: project.config, check: true, refresh: true, env: service.env });
    expect(compared.snapshots).toEqual([{ path: "flows/signing.json", flow: "signing", reason: "added" }]);
    expect((await snapshot(project.dir)).has("flows/signing.json")).toBe(false);
  });

  it("an entry without a name keeps its snapshot under its flow id, and is named by its title", async () => {
    const project = await apiProject([{ source: { api: SAMPLE_IDS["document-verification"] } }]);
    const result = await runCodegen({ configPath: project.config, env: service.env });
    expect(result.flows.map((flow) => flow.name)).toEqual(["bank-account-and-address-check"]);
    expect(result.snapshots.map((change) => change.path)).toEqual([
      `flows/${SAMPLE_IDS["document-verification"].flowId}-live.json`,
    ]);
    // The next run finds the name in the manifest and the flow unchanged, offline.
    const again = await runCodegen({ configPath: project.config, env: stopped });
    expect(again.flows.map((flow) => flow.status)).toEqual(["unchanged"]);
  });

  describe("refuses, names what to change, and writes nothing:", () => {
    it.each<[string, { env: () => Record<string, string>; code: string; message: RegExp | (() => RegExp) }]>([
      [
        "a missing credential",
        {
          env: () => ({ ...service.env, FLOWSMITH_STAGING_CLIENT_SECRET: "" }),
          code: "CREDENTIALS_MISSING",
          message:
            /FLOWSMITH_STAGING_CLIENT_SECRET is not set: fetching the description of flow a41f0c6d\S+ \(staging\) needs the staging API client/,
        },
      ],
      [
        "no service address",
        {
          env: () => ({ ...service.env, FLOWSMITH_BASE_URL: "" }),
          code: "SERVICE_NOT_CONFIGURED",
          message: /needs \{base_url\}, the API host: set FLOWSMITH_BASE_URL or "service": \{ "baseUrl"/,
        },
      ],
      [
        "the service down",
        {
          env: () => stopped,
          code: "FETCH_FAILED",
          message: () =>
            new RegExp(
              `cannot fetch the description of flow a41f0c6d\\S+ \\(staging\\) from ${escape(stopped["FLOWSMITH_BASE_URL"] ?? "")}/api/v1/flows/a41f0c6d\\S+/staging/openapi: Token request to ${escape(stopped["FLOWSMITH_AUTH_URL"] ?? "")}/oidc/token failed.*ECONNREFUSED.*Is the auth host up\\?`,
            ),
        },
      ],
      [
        "a wrong secret",
        {
          env: () => ({ ...service.env, FLOWSMITH_STAGING_CLIENT_SECRET: "not-the-secret" }),
          code: "FETCH_FAILED",
          message: /failed with status 401.*check FLOWSMITH_STAGING_CLIENT_ID and FLOWSMITH_STAGING_CLIENT_SECRET/,
        },
      ],
    ])("%s", async (_name, { env, code, message }) => {
      const project = await apiProject([apiEntry("aml-screening"), apiEntry("signing")]);
      const before = await snapshot(project.root);
      const error = await refusal(runCodegen({ configPath: project.config, env: env() }));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(typeof message === "function" ? message() : message);
      expect(error.message).not.toContain("not-the-secret");
      expect(await snapshot(project.root)).toEqual(before);
    });

    it("a pinned version the service no longer publishes: both versions and the config line", async () => {
      const project = await apiProject([apiEntry("aml-screening"), apiEntry("signing", { version: 2 })]);
      const before = await snapshot(project.root);
      const error = await refusal(runCodegen({ configPath: project.config, env: service.env }));
      expect(error.code).toBe("VERSION_MISMATCH");
      const line =
        (await readFile(project.config, "utf8")).split("\n").findIndex((text) => text.includes('"version": 2')) + 1;
      expect(error.context).toMatchObject({ line, pointer: "#/flows/1/source/api/version" });
      expect(error.message).toMatch(
        /^flow "signing": \S*project\/codegen\.config\.json:\d+ #\/flows\/1\/source\/api\/version: the service publishes version 1 of flow 6f1c\S+ in staging, but this line pins version 2; nothing was written\. To move to version 1, change "version" to 1/,
      );
      expect(await snapshot(project.root)).toEqual(before);
    });

    it("a file flowsmith did not write where the snapshot goes", async () => {
      const project = await apiProject([apiEntry("signing")]);
      await writeFile(path.join(project.dir, "flows/signing.json"), '{ "mine": true }\n');
      const before = await snapshot(project.root);
      const error = await refusal(runCodegen({ configPath: project.config, refresh: true, env: service.env }));
      expect(error.code).toBe("SNAPSHOT_CONFLICT");
      expect(error.message).toMatch(
        /flows\/signing\.json is in the way of this flow's snapshot and flowsmith did not write it \(it is not a flow description\)/,
      );
      expect(await snapshot(project.root)).toEqual(before);
    });

    it("two versions of one flow and environment (DUPLICATE_FLOW), naming both entries and files", async () => {
      const project = await apiProject([
        { name: "signing-file", source: { file: "flows/signing.yaml" } },
        apiEntry("aml-screening"),
        apiEntry("signing"),
      ]);
      const error = await refusal(runCodegen({ configPath: project.config, env: service.env }));
      expect(error.code).toBe("DUPLICATE_FLOW");
      expect(error.message).toContain(
        'entry "signing-file" (flows/signing.yaml, version 1) and entry "signing" (flows/signing.json, version 1)',
      );
      expect(error.message).toContain("(config entries #/flows/0 and #/flows/2)");
      expect((await snapshot(project.root)).has("project/generated/.flowsmith-manifest.json")).toBe(false);
    });
  });

  it("a snapshot edited by hand is read as it is (it is the team's file now), and refresh will not replace it", async () => {
    const project = await apiProject([apiEntry("signing")]);
    await runCodegen({ configPath: project.config, env: service.env });
    const file = path.join(project.dir, "flows/signing.json");
    const edited = JSON.stringify(JSON.parse(await readFile(file, "utf8")));
    await writeFile(file, edited);
    const result = await runCodegen({ configPath: project.config, env: stopped });
    expect(result.flows.map((flow) => flow.status)).toEqual(["generated"]);
    const error = await refusal(runCodegen({ configPath: project.config, refresh: true, env: service.env }));
    expect(error.code).toBe("SNAPSHOT_CONFLICT");
    expect(error.message).toMatch(/not in the form flowsmith writes snapshots/);
  });
});

describe("after the first fetch", () => {
  it("--refresh --flow fetches only the flows named", async () => {
    const project = await apiProject([apiEntry("signing"), apiEntry("aml-screening")]);
    await runCodegen({ configPath: project.config, env: service.env });
    // A service that no longer has aml-screening: fetching it would fail.
    const signingOnly = await startService(["flows/signing.yaml"]);
    try {
      const result = await runCodegen({
        configPath: project.config,
        refresh: true,
        flows: ["signing"],
        env: signingOnly.env,
      });
      expect(result.flows.map((flow) => [flow.name, flow.status])).toEqual([["signing", "unchanged"]]);
      const error = await refusal(runCodegen({ configPath: project.config, refresh: true, env: signingOnly.env }));
      expect(error.message).toMatch(/flow "aml-screening": .*cannot fetch .* failed with status 404/);
    } finally {
      await signingOnly.close();
    }
  });

  it.each<[string, Record<string, unknown>, { code: string; message: RegExp }]>([
    [
      "pins another version",
      { version: 3 },
      {
        code: "VERSION_MISMATCH",
        message:
          /#\/flows\/0\/source\/api\/version: the snapshot flows\/signing\.json holds version 1 of flow 6f1c\S+, but this line pins version 3: run `npx flowsmith codegen --refresh --flow signing`/,
      },
    ],
    [
      "names another flow",
      { flowId: SAMPLE_IDS["aml-screening"].flowId },
      {
        code: "SNAPSHOT_MISMATCH",
        message:
          /the snapshot flows\/signing\.json holds flow 6f1c\S+ \(staging\), but the entry names flow a41f0c6d\S+ \(staging\): run `npx flowsmith codegen --refresh --flow signing`/,
      },
    ],
  ])(
    "an entry edited since its snapshot was taken (%s) is refused offline, naming --refresh",
    async (_name, change, { code, message }) => {
      const project = await apiProject([apiEntry("signing")]);
      await runCodegen({ configPath: project.config, env: service.env });
      await writeConfig(project.config, { flows: [apiEntry("signing", change)] });
      const error = await refusal(runCodegen({ configPath: project.config, env: stopped }));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    },
  );

  it("the emulator serves an api flow from its snapshot", async () => {
    const project = await apiProject([apiEntry("signing")]);
    const missing = await refusal(loadFlowsOrThrow(project.config));
    expect(missing.code).toBe("SNAPSHOT_MISSING");
    expect(missing.message).toMatch(
      /no snapshot of flow 6f1c\S+ \(staging\) at flows\/signing\.json yet: run `npx flowsmith codegen` to fetch it/,
    );
    await runCodegen({ configPath: project.config, env: service.env });
    const [flow] = await loadFlowsOrThrow(project.config);
    expect(flow?.model).toMatchObject({
      name: "signing",
      id: SAMPLE_IDS.signing.flowId,
      version: 1,
      source: { file: "flows/signing.json" },
    });
  });
});

describe("the change report", () => {
  it("also follows a description file replaced by a new version: --check names the flow, the write reports each change", async () => {
    const project = await makeProject({ flows: ["signing", "aml-screening"] });
    await runCodegen({ configPath: project.config });
    await writeFile(
      path.join(project.dir, "flows/signing.yaml"),
      await readFile(path.join(REPO, "test/fixtures/changes/signing-v2.yaml")),
    );
    const checked = await runCodegen({ configPath: project.config, check: true });
    expect(checked.changes.map((change) => change.path)).toContain("descriptions.json");
    const golden = (await readFile(path.join(REPO, "test/fixtures/changes/signing-v1-v2.txt.golden"), "utf8"))
      .trimEnd()
      .split("\n");
    expect(checked.flows.map((flow) => [flow.name, flow.changed?.lines])).toEqual([
      ["signing", golden],
      ["aml-screening", undefined],
    ]);
    const written = await runCodegen({ configPath: project.config });
    expect(
      written.flows.map((flow) => [flow.name, flow.changed?.breaking, flow.changed?.from, flow.changed?.to]),
    ).toEqual([
      ["signing", true, 1, 2],
      ["aml-screening", undefined, undefined, undefined],
    ]);
    expect((await runCodegen({ configPath: project.config })).flows.map((flow) => flow.changed)).toEqual([
      undefined,
      undefined,
    ]);
  });
});

describe("the service's address", () => {
  it("comes from the config, and FLOWSMITH_BASE_URL / FLOWSMITH_AUTH_URL override it", async () => {
    const project = await apiProject([]);
    const env = service.env;
    await writeConfig(project.config, {
      service: { baseUrl: env["FLOWSMITH_BASE_URL"], authUrl: env["FLOWSMITH_AUTH_URL"] },
      flows: [apiEntry("signing")],
    });
    const credentialsOnly = { ...env, FLOWSMITH_BASE_URL: "", FLOWSMITH_AUTH_URL: "" };
    expect((await runCodegen({ configPath: project.config, env: credentialsOnly })).snapshots).toHaveLength(1);

    // The same config, pointed elsewhere by the environment: the override wins (and finds nothing there).
    const error = await refusal(
      runCodegen({
        configPath: project.config,
        refresh: true,
        env: { ...env, ...serviceEnv(stopped["FLOWSMITH_BASE_URL"] ?? "", stopped["FLOWSMITH_AUTH_URL"] ?? "") },
      }),
    );
    expect(error.message).toMatch(/Is the auth host up\? authUrl comes from environment variable FLOWSMITH_AUTH_URL/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
