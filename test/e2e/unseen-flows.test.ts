/**
 * As a new user would: descriptions the generator has never seen (odd names,
 * both body forms, `[]` and indexed arrays, files) go through codegen, the
 * output type-checks, and the generated clients talk to the emulator over
 * real HTTP. The emulator decodes what it received from the same
 * descriptions, so the data blocks it echoes prove every part name
 * round-trips.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runCodegen } from "../../generator/pipeline";
import { listRelativeFiles } from "../../generator/output/file-tree";
import { startEmulator } from "../../emulator/index";
import { createClient, RequestValidationError, type Client } from "../../runtime/index";
import { makeTempDir, removeDir, typeCheck } from "../fixtures/golden/compile";
import { closeStarted } from "../support/teardown";

const fixtures = path.resolve(__dirname, "../fixtures/descriptions");
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const JPEG = Buffer.from("ffd8ffe000104a46494600", "hex");

let dir: string;
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let live: Client<"live">;

/** What this test uses of a generated flow module; typeCheck below checks the generated types themselves. */
interface GeneratedFlow {
  readonly flow: unknown;
  createSession(
    client: Client,
    request: unknown,
  ): Promise<{ readonly sessionContext: { readonly sessionId: string }; readonly metadata: unknown }>;
}
/** The data blocks of odd-names.yaml, as far as the test walks into them. */
type OddBlocks = Record<string, unknown> & {
  readonly documents: {
    readonly files: readonly {
      readonly kind: string;
      readonly content: { readonly filename: string; readonly size: number };
    }[];
  };
  readonly listing: {
    readonly entries: readonly {
      readonly label: string;
      readonly scan: { readonly filename: string };
      readonly pages?: number;
    }[];
    readonly numbers: unknown;
  };
};

// Loaded after codegen wrote them (jest's require by path, typed).
let odd: GeneratedFlow;
let both: GeneratedFlow;

beforeAll(async () => {
  dir = makeTempDir();
  mkdirSync(path.join(dir, "flows"));
  copyFileSync(path.join(fixtures, "odd-names.yaml"), path.join(dir, "flows/odd-names.yaml"));
  copyFileSync(path.join(fixtures, "json-and-multipart.yaml"), path.join(dir, "flows/json-and-multipart.yaml"));
  writeFileSync(
    path.join(dir, "codegen.config.json"),
    JSON.stringify({
      outputDir: "out",
      runtimeImport: "../../../../runtime/flow-module.js",
      flows: [
        { name: "odd", source: { file: "flows/odd-names.yaml" } },
        { name: "both-forms", source: { file: "flows/json-and-multipart.yaml" } },
      ],
    }),
  );
  await runCodegen({ configPath: path.join(dir, "codegen.config.json") });
  odd = jest.requireActual<GeneratedFlow>(path.join(dir, "out/odd/index.ts"));
  both = jest.requireActual<GeneratedFlow>(path.join(dir, "out/both-forms/index.ts"));
  emulator = await startEmulator({ configPath: path.join(dir, "codegen.config.json"), createdMs: 50, stepMs: 50 });
  live = createClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    environment: "live",
    ...emulator.clients.live,
    userAgent: "flowsmith-e2e/1.0",
  });
}, 60_000);

afterAll(async () => {
  await closeStarted(live, emulator);
  removeDir(dir);
});

describe("unseen descriptions, end to end", () => {
  it("generate code that type-checks under strict", async () => {
    const files = (await listRelativeFiles(path.join(dir, "out"))).filter((file) => file.endsWith(".ts"));
    expect(files).toEqual(expect.arrayContaining(["both-forms/index.ts", "index.ts"]));
    expect(typeCheck(files.map((file) => path.join(dir, "out", file)))).toEqual([]);
  });

  it("send `[]` arrays, indexed arrays, numbers, booleans and files under the declared part names", async () => {
    const request = {
      input: {
        "odd-block": {
          "first-name": "Zoë",
          class: "a*/b",
          prénom: "Zoë",
          count: 3,
          ratio: 1.5,
          agreed: true,
          level: 2,
          "2ndLine": null,
        },
        "2ndBlock": { default: "2026-01-02T03:04:05Z", tags: ["red", "green"] },
        documents: {
          files: [
            {
              kind: "PASSPORT",
              content: { data: Buffer.from("%PDF-1.4 a"), filename: "a.pdf", contentType: "application/pdf" },
            },
            { kind: "ID_CARD", content: { data: PNG, filename: "b.png", contentType: "image/png" } },
          ],
        },
        listing: {
          entries: [
            { label: "first", scan: { data: JPEG, filename: "1.jpg" }, pages: 2 },
            { label: "second", scan: { data: JPEG, filename: "2.jpg" } },
          ],
          numbers: [1, 2.5],
        },
        profile: { address: { street: "Main St 1", city: "Berlin", "zip-code": "10115" } },
      },
      metadata: { subjectId: "subject-odd", locale: "fr" },
      state: "s".repeat(2048), // the service caps state at 2048 even where a description allows more
    };
    const created = await odd.createSession(live, request);
    expect(created).toMatchObject({
      flowId: "odd-9f3c",
      environment: "live",
      metadata: { subjectId: "subject-odd", locale: "fr" },
    });

    const { dataBlocks } = (await live.getDataBlocks(created.sessionContext.sessionId)) as { dataBlocks: OddBlocks };
    expect(dataBlocks["odd-block"]).toEqual({ ...request.input["odd-block"], "2ndLine": undefined });
    expect(dataBlocks["2ndBlock"]).toEqual(request.input["2ndBlock"]);
    expect(dataBlocks.documents.files.map((file) => [file.kind, file.content.filename, file.content.size])).toEqual([
      ["PASSPORT", "a.pdf", 10],
      ["ID_CARD", "b.png", PNG.length],
    ]);
    expect(dataBlocks.listing.entries.map((entry) => [entry.label, entry.scan.filename, entry.pages])).toEqual([
      ["first", "1.jpg", 2],
      ["second", "2.jpg", undefined],
    ]);
    expect(dataBlocks.listing.numbers).toEqual([1, 2.5]);
    expect(dataBlocks.profile).toEqual(request.input.profile);
    expect(dataBlocks.UserReference).toEqual({ subjectId: "subject-odd" });
  });

  it("refuses before sending what the flow does not allow", async () => {
    const bad = {
      input: {
        "odd-block": { "first-name": "x", class: "a*/b", prénom: "y" },
        "2ndBlock": { default: "2026-01-02T03:04:05Z" },
        documents: {
          files: [{ kind: "PASSPORT", content: { data: Buffer.from("GIF89a"), contentType: "image/gif" } }],
        },
        listing: { entries: [{ label: "x", scan: PNG }] },
      },
      metadata: { subjectId: "s" },
    };
    const error = await odd.createSession(live, bad).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect((error as RequestValidationError).message).toContain("input.documents.files[0].content");

    const wrongLocale = await odd
      .createSession(live, { ...bad, metadata: { subjectId: "s", locale: "en" } })
      .catch((caught: unknown) => caught);
    expect(wrongLocale).toMatchObject({ code: "UNSUPPORTED_LOCALE" });
  });

  it("send a flow that declares both forms (and no file), data intact", async () => {
    expect(both.flow).toMatchObject({ id: "0b7e5c2a-both", environment: "staging" });
    const staging = createClient({
      baseUrl: emulator.baseUrl,
      authUrl: emulator.authUrl,
      environment: "staging",
      ...emulator.clients.staging,
      userAgent: "flowsmith-e2e/1.0",
    });
    try {
      const request = {
        input: {
          address: { street: "Rynek 1", city: "Kraków", floor: 2 },
          contacts: [{ email: "a@example.test", primary: true }, { email: "b@example.test" }],
        },
        metadata: { subjectId: "subject-both", locale: "pl" },
      };
      const created = await both.createSession(staging, request);
      expect(created.metadata).toEqual(request.metadata);
      const { dataBlocks } = (await staging.getDataBlocks(created.sessionContext.sessionId)) as {
        dataBlocks: Record<string, unknown>;
      };
      expect(dataBlocks.address).toEqual(request.input.address);
      expect(dataBlocks.contacts).toEqual(request.input.contacts);
    } finally {
      await staging.close();
    }
  });
});
