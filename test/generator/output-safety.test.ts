/**
 * codegen never touches what it did not write. Every bad outputDir is
 * refused before anything is read or written, in write and check mode, and
 * the whole temp tree (project, its parent, the outside) is byte for byte
 * what it was. Later runs delete only the files the manifest lists.
 */
import { mkdir, readdir, readFile, symlink, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { CodegenError } from "../../generator/errors";
import { sha256 } from "../../generator/output/manifest";
import { runCodegen } from "../../generator/pipeline";
import {
  defined,
  makeProject,
  readManifestJson,
  removeProjects,
  snapshot,
  writeConfig,
  writeManifestJson,
  type Project,
} from "./codegen-project";

afterAll(removeProjects);

interface Case {
  /** outputDir as written in the config. */
  readonly outputDir: string;
  /** Builds what the case needs around the project. */
  readonly arrange?: (project: Project) => Promise<unknown>;
  /** Flow sources, when not the project's flows/. */
  readonly sources?: readonly string[];
  readonly code: "UNSAFE_OUTPUT_DIR" | "OUTPUT_DIR_NOT_EMPTY";
  readonly says: RegExp;
}

const userFiles = async ({ dir }: Project, folder: string, count: number) => {
  await mkdir(path.join(dir, folder), { recursive: true });
  for (let i = 1; i <= count; i += 1)
    await writeFile(path.join(dir, folder, `file-${i}.ts`), `export const mine${i} = ${i};\n`);
};

const cases: [string, Case][] = [
  [
    ".",
    {
      outputDir: ".",
      code: "UNSAFE_OUTPUT_DIR",
      says: /outputDir \S+ is the folder of the config \(\S*codegen\.config\.json\)/,
    },
  ],
  ["..", { outputDir: "..", code: "UNSAFE_OUTPUT_DIR", says: /contains the config/ }],
  ["/", { outputDir: "/", code: "UNSAFE_OUTPUT_DIR", says: /outputDir \/ contains the config/ }],
  [
    "the descriptions' folder",
    {
      outputDir: "flows",
      code: "UNSAFE_OUTPUT_DIR",
      says: /contains the description flows\/signing\.yaml \(#\/flows\/0\)/,
    },
  ],
  [
    "a folder holding a description outside the project",
    {
      outputDir: "../shared",
      sources: ["../shared/signing.yaml"],
      arrange: async ({ root, dir }) => {
        await mkdir(path.join(root, "shared"));
        await writeFile(path.join(root, "shared/signing.yaml"), await readFile(path.join(dir, "flows/signing.yaml")));
      },
      code: "UNSAFE_OUTPUT_DIR",
      says: /contains the description \.\.\/shared\/signing\.yaml/,
    },
  ],
  [
    "a folder a description links into",
    {
      outputDir: "out",
      sources: ["flows/signing.yaml", "flows/linked.yaml"],
      arrange: async ({ dir }) => {
        await mkdir(path.join(dir, "out"));
        await writeFile(path.join(dir, "out/signing.yaml"), await readFile(path.join(dir, "flows/signing.yaml")));
        await symlink("../out/signing.yaml", path.join(dir, "flows/linked.yaml"));
      },
      code: "UNSAFE_OUTPUT_DIR",
      says: /contains the description flows\/linked\.yaml \(#\/flows\/1\)/,
    },
  ],
  [
    "a folder reached through a linked folder of descriptions",
    {
      outputDir: "out",
      sources: ["flows/signing.yaml", "linked/signing.yaml"],
      arrange: async ({ dir }) => {
        await mkdir(path.join(dir, "out"));
        await writeFile(path.join(dir, "out/signing.yaml"), await readFile(path.join(dir, "flows/signing.yaml")));
        await symlink("out", path.join(dir, "linked"));
      },
      code: "UNSAFE_OUTPUT_DIR",
      says: /contains the description linked\/signing\.yaml \(#\/flows\/1\)/,
    },
  ],
  [
    "a folder of the user's own files",
    {
      outputDir: "src",
      arrange: (project) => userFiles(project, "src", 2),
      code: "OUTPUT_DIR_NOT_EMPTY",
      says: /src\/ already holds files \(file-1\.ts, file-2\.ts\) and it has no \.flowsmith-manifest\.json/,
    },
  ],
  [
    "a folder of many files (five named)",
    {
      outputDir: "src",
      arrange: (project) => userFiles(project, "src", 7),
      code: "OUTPUT_DIR_NOT_EMPTY",
      says: /\(file-1\.ts, file-2\.ts, file-3\.ts, file-4\.ts, file-5\.ts, and 2 more\)/,
    },
  ],
  [
    "a folder holding only an empty folder",
    {
      outputDir: "out",
      arrange: ({ dir }) => mkdir(path.join(dir, "out/keep"), { recursive: true }),
      code: "OUTPUT_DIR_NOT_EMPTY",
      says: /\(keep\)/,
    },
  ],
  [
    "a symbolic link to an empty folder",
    {
      outputDir: "generated",
      arrange: async ({ root, dir }) => {
        await mkdir(path.join(root, "elsewhere"));
        await symlink(path.join(root, "elsewhere"), path.join(dir, "generated"));
      },
      code: "UNSAFE_OUTPUT_DIR",
      says: /is a symbolic link \(to \S+elsewhere\)/,
    },
  ],
  [
    "a path through a link back to the project",
    {
      outputDir: "../link",
      arrange: ({ root, dir }) => symlink(dir, path.join(root, "link")),
      code: "UNSAFE_OUTPUT_DIR",
      says: /is a symbolic link|is the folder of the config/,
    },
  ],
  [
    "a folder under a link back to the project's parent",
    {
      outputDir: "../link/project",
      arrange: ({ root }) => symlink(root, path.join(root, "link")),
      code: "UNSAFE_OUTPUT_DIR",
      says: /is the folder of the config/,
    },
  ],
  [
    "a file",
    {
      outputDir: "README.md",
      arrange: ({ dir }) => writeFile(path.join(dir, "README.md"), "# mine\n"),
      code: "UNSAFE_OUTPUT_DIR",
      says: /is a file, not a folder/,
    },
  ],
  // Was "unexpected error (please report it): ENOTDIR" from deep inside the output walk.
  [
    "a folder under a file",
    {
      outputDir: "README.md/generated",
      arrange: ({ dir }) => writeFile(path.join(dir, "README.md"), "# mine\n"),
      code: "UNSAFE_OUTPUT_DIR",
      says: /outputDir \S*README\.md\/generated lies under README\.md, which is a file, not a folder/,
    },
  ],
  [
    "a folder with a package.json deep inside",
    {
      outputDir: "vendor",
      arrange: async ({ dir }) => {
        await mkdir(path.join(dir, "vendor/lib"), { recursive: true });
        await writeFile(path.join(dir, "vendor/lib/package.json"), "{}\n");
      },
      code: "UNSAFE_OUTPUT_DIR",
      says: /contains lib\/package\.json, so it holds a project of its own/,
    },
  ],
  [
    "a repository",
    {
      outputDir: "checkout",
      arrange: async ({ dir }) => {
        await mkdir(path.join(dir, "checkout/.git"), { recursive: true });
        await writeFile(path.join(dir, "checkout/.git/HEAD"), "ref: refs/heads/main\n");
      },
      code: "UNSAFE_OUTPUT_DIR",
      says: /contains \.git/,
    },
  ],
];

describe("an outputDir flowsmith does not own", () => {
  it.each(cases)("%s is refused in write and check mode, and nothing changes", async (_name, given) => {
    const project = await makeProject({ flows: ["signing"] });
    await given.arrange?.(project);
    const sources = given.sources ?? ["flows/signing.yaml"];
    await writeConfig(project.config, {
      outputDir: given.outputDir,
      flows: sources.map((file, i) => ({ name: `flow-${i}`, source: { file } })),
    });
    const before = await snapshot(project.root);
    for (const check of [false, true]) {
      const error = await runCodegen({ configPath: project.config, check }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CodegenError);
      expect({ check, code: (error as CodegenError).code }).toEqual({ check, code: given.code });
      expect((error as CodegenError).message).toMatch(given.says);
      expect((error as CodegenError).context).toMatchObject({ pointer: "#/outputDir" });
    }
    expect(await snapshot(project.root)).toEqual(before);
  });

  it("is refused before any description is read", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await writeConfig(project.config, {
      outputDir: ".",
      flows: [{ name: "x", source: { file: "flows/does-not-exist.yaml" } }],
    });
    await expect(runCodegen({ configPath: project.config })).rejects.toMatchObject({ code: "UNSAFE_OUTPUT_DIR" });
  });
});

describe("files in outputDir that flowsmith did not write", () => {
  it("are kept and reported; only files the manifest lists are deleted", async () => {
    const { dir, config, out } = await makeProject();
    await runCodegen({ configPath: config });
    await writeFile(path.join(out, "notes.md"), "# mine\n");
    await writeFile(path.join(out, "signing/extra.ts"), "export const mine = 1;\n");
    await mkdir(path.join(out, "empty"));
    await symlink("signing/index.ts", path.join(out, "link.ts"));
    // aml-screening leaves the config: its files go; document-verification's index.ts was edited by hand: it stays.
    await writeFile(path.join(out, "document-verification/index.ts"), "// edited by hand\n");
    await writeConfig(config, { flows: [{ name: "signing", source: { file: "flows/signing.yaml" } }] });

    const check = await runCodegen({ configPath: config, check: true });
    expect(check.changes.map((change) => `${change.reason} ${change.path}`)).toEqual([
      "changed .flowsmith-manifest.json",
      "extra aml-screening/index.ts",
      "changed descriptions.json",
      "changed index.ts",
    ]);

    const result = await runCodegen({ configPath: config });
    expect(result.kept).toEqual([
      { path: "document-verification/index.ts", why: "edited since flowsmith wrote it" },
      { path: "empty", why: "not written by flowsmith" },
      { path: "link.ts", why: "not written by flowsmith" },
      { path: "notes.md", why: "not written by flowsmith" },
      { path: "signing/extra.ts", why: "not written by flowsmith" },
    ]);
    const after = await snapshot(out);
    expect([...after.keys()]).toEqual([
      ".flowsmith-manifest.json",
      "descriptions.json",
      "document-verification/index.ts",
      "empty",
      "index.ts",
      "link.ts",
      "notes.md",
      "signing/extra.ts",
      "signing/index.ts",
    ]);
    expect(after.get("notes.md")).toBe("# mine\n");
    expect(after.get("link.ts")).toBe("-> signing/index.ts");
    expect(after.get("document-verification/index.ts")).toBe("// edited by hand\n");
    expect((await readdir(dir)).sort()).toEqual(["codegen.config.json", "flows", "generated"]);
    // What is kept is not flowsmith's: a check passes and still names it.
    const again = await runCodegen({ configPath: config, check: true });
    expect(again.changes).toEqual([]);
    expect(again.kept.map((file) => file.path)).toContain("notes.md");
  });

  it("a planned file that would replace one of them stops the write before it starts", async () => {
    const { dir, config, out } = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: config });
    await mkdir(path.join(out, "aml"));
    await writeFile(path.join(out, "aml/index.ts"), "// mine\n");
    await writeConfig(config, {
      flows: [
        { name: "signing", source: { file: "flows/signing.yaml" } },
        { name: "aml", source: { file: "flows/aml-screening.yaml" } },
      ],
    });
    const before = await snapshot(dir);
    const error = await runCodegen({ configPath: config }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "OUTPUT_CONFLICT" });
    expect((error as Error).message).toMatch(/would replace \S*generated\/aml\/index\.ts, which it did not write/);
    expect(await snapshot(dir)).toEqual(before);
  });

  it("a manifest that lists a path outside outputDir is not believed: nothing outside is deleted", async () => {
    const { root, config, out } = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: config });
    await writeFile(path.join(root, "outside.txt"), "mine\n");
    const manifest = await readManifestJson(out);
    manifest.flows["old"] = {
      ...defined(manifest.flows["signing"], "signing"),
      files: { "../../outside.txt": "0".repeat(64) },
    };
    await writeManifestJson(out, manifest);
    const error = await runCodegen({ configPath: config }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "OUTPUT_DIR_NOT_EMPTY" });
    expect((error as Error).message).toMatch(
      /cannot say which of them flowsmith wrote \(flows\.old\.files lists "\.\.\/\.\.\/outside\.txt"/,
    );
    expect(await readFile(path.join(root, "outside.txt"), "utf8")).toBe("mine\n");
  });

  it("a manifest entry named __proto__ is an entry like any other: the files it lists are flowsmith's", async () => {
    const { config, out } = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: config });
    const stale = "export {};\n";
    await writeFile(path.join(out, "stale.ts"), stale);
    const manifest = await readManifestJson(out);
    const entry = {
      ...defined(manifest.flows["signing"], "signing"),
      source: "flows/gone.yaml",
      inputsHash: "0".repeat(64),
      files: { "stale.ts": sha256(stale) },
    };
    // Written as text: JSON.stringify of an object assigned the key `__proto__` would have taken it as its prototype.
    const text = JSON.stringify(manifest).replace('"flows":{', `"flows":{"__proto__":${JSON.stringify(entry)},`);
    await writeFile(path.join(out, ".flowsmith-manifest.json"), text);
    const result = await runCodegen({ configPath: config });
    expect(result.kept).toEqual([]);
    expect(result.changes).toContainEqual({ path: "stale.ts", reason: "extra" });
    await expect(readFile(path.join(out, "stale.ts"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a key __proto__ inside a manifest entry is not its prototype: a hash under it is not believed", async () => {
    const { config, out } = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: config });
    const manifest = await readManifestJson(out);
    const { inputsHash, ...rest } = defined(manifest.flows["signing"], "signing");
    const entry = JSON.stringify(rest).replace("{", `{"__proto__":{"inputsHash":${JSON.stringify(inputsHash)}},`);
    const text = JSON.stringify(manifest).replace(/"signing":\{.*?"files":\{[^}]*\}\}/, `"signing":${entry}`);
    expect(text).toContain('"__proto__":{"inputsHash"');
    await writeFile(path.join(out, ".flowsmith-manifest.json"), text);
    const result = await runCodegen({ configPath: config });
    expect(result.flows.map((flow) => flow.status)).toEqual(["generated"]);
    expect((await readManifestJson(out)).flows["signing"]?.inputsHash).toBe(inputsHash);
  });

  it("a manifest written before manifests had a generator stamp still says which files flowsmith wrote", async () => {
    const { config, out } = await makeProject({ flows: ["signing", "aml-screening"] });
    await runCodegen({ configPath: config });
    const current = JSON.parse(await readFile(path.join(out, ".flowsmith-manifest.json"), "utf8")) as {
      flows: unknown;
      index: { inputsHash: string; files: Record<string, string> };
    };
    const older = {
      generatedBy: "flowsmith",
      flows: current.flows,
      index: { inputsHash: current.index.inputsHash, sha256: current.index.files["index.ts"] },
    };
    await writeFile(path.join(out, ".flowsmith-manifest.json"), JSON.stringify(older, null, 2));
    // Output from before the stamp had no descriptions.json either.
    await unlink(path.join(out, "descriptions.json"));
    await writeConfig(config, { flows: [{ name: "signing", source: { file: "flows/signing.yaml" } }] });
    const result = await runCodegen({ configPath: config });
    expect(result.flows.map((flow) => flow.status)).toEqual(["generated"]);
    expect(result.kept).toEqual([]);
    expect(result.changes.map((change) => `${change.reason} ${change.path}`)).toEqual([
      "changed .flowsmith-manifest.json",
      "extra aml-screening/index.ts",
      "missing descriptions.json",
      "changed index.ts",
    ]);
  });

  it("a first run into an empty folder is fine; without its manifest the folder is no longer flowsmith's", async () => {
    const { config, out } = await makeProject({ flows: ["signing"] });
    await mkdir(out);
    await runCodegen({ configPath: config });
    await unlink(path.join(out, ".flowsmith-manifest.json"));
    await expect(runCodegen({ configPath: config })).rejects.toMatchObject({ code: "OUTPUT_DIR_NOT_EMPTY" });
  });
});
