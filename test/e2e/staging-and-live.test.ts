/**
 * Staging and live in one codebase: a flow promoted from staging to live is
 * two flow entries, generated side by side. A client made from an environment
 * read at run time calls either module with full type checking and no cast
 * (the narrowing of `client.environment`, and the `forEnvironment` helper),
 * under strict tsc, and against the emulator for each environment.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../../emulator/index";
import { runCodegen } from "../../generator/pipeline";
import { makeTempDir, removeDir, REPO_ROOT, runtimeImportFor, typeCheck } from "../fixtures/golden/compile";

let dir: string;
let emulator: Awaited<ReturnType<typeof startEmulator>>;

/** What app.ts below exports. */
interface App {
  createBoth(environment: "staging" | "live", emulator: object): Promise<readonly [string, string]>;
}

const APP = `import { createClient, forEnvironment } from "RUNTIME";
import { onboardingLive, onboardingStaging } from "./out/index.js";

const body = {
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
  metadata: { subjectId: "cust-1" },
};

export async function createBoth(environment: "staging" | "live", emulator: { baseUrl: string; authUrl: string; clients: Record<"staging" | "live", { clientId: string; clientSecret: string }> }) {
  const client = createClient({ environment, baseUrl: emulator.baseUrl, authUrl: emulator.authUrl, ...emulator.clients[environment], userAgent: "staging-and-live/1" });
  try {
    // The issue's words, as a user writes them: no cast.
    let first;
    if (client.environment === "live") first = await onboardingLive.createSession(client, body);
    else first = await onboardingStaging.createSession(client, body);
    // The helper: the module of the client's environment.
    const second = await forEnvironment(client, { staging: onboardingStaging, live: onboardingLive }).createSession(body);
    return [first.environment, second.environment] as const;
  } finally {
    await client.close();
  }
}

export function typeErrors(client: ReturnType<typeof createClient<"staging" | "live">>) {
  // @ts-expect-error not narrowed: the client may be a staging one
  void onboardingLive.createSession(client, body);
  // @ts-expect-error the modules under each other's environment
  void forEnvironment(client, { staging: onboardingLive, live: onboardingStaging });
  // @ts-expect-error a request that misses a field required by the flows
  void forEnvironment(client, { staging: onboardingStaging, live: onboardingLive }).createSession({ metadata: { subjectId: "x" } });
  if (client.environment === "staging") {
    // @ts-expect-error narrowed to staging: the live module refuses it
    void onboardingLive.createSession(client, body);
  }
}
`;

beforeAll(async () => {
  dir = makeTempDir();
  const staging = readFileSync(path.join(REPO_ROOT, "flows/aml-screening.yaml"), "utf8");
  const live = staging
    .replace("x-environment: staging", "x-environment: live")
    .replace("/staging/sessions:", "/live/sessions:");
  writeFileSync(path.join(dir, "onboarding-staging.yaml"), staging);
  writeFileSync(path.join(dir, "onboarding-live.yaml"), live);
  writeFileSync(
    path.join(dir, "codegen.config.json"),
    JSON.stringify({
      outputDir: "out",
      runtimeImport: runtimeImportFor(path.join(dir, "out")),
      flows: [
        { name: "onboarding-staging", source: { file: "onboarding-staging.yaml" } },
        { name: "onboarding-live", source: { file: "onboarding-live.yaml" } },
      ],
    }),
  );
  await runCodegen({ configPath: path.join(dir, "codegen.config.json") });
  const runtime = path.relative(dir, path.join(REPO_ROOT, "runtime/index.js")).split(path.sep).join("/");
  writeFileSync(path.join(dir, "app.ts"), APP.replace("RUNTIME", runtime));
  emulator = await startEmulator({ configPath: path.join(dir, "codegen.config.json"), createdMs: 50, stepMs: 50 });
}, 60_000);

afterAll(async () => {
  await emulator.close();
  removeDir(dir);
});

it("compiles under strict with no cast, and each misuse is a tsc error", () => {
  expect(typeCheck([path.join(dir, "app.ts")])).toEqual([]);
});

it.each(["staging", "live"] as const)(
  "a client of %s, chosen at run time, creates sessions of that environment's flow",
  async (environment) => {
    const app = jest.requireActual<App>(path.join(dir, "app.ts"));
    expect(await app.createBoth(environment, emulator)).toEqual([environment, environment]);
  },
);
