/**
 * A flow of one environment with a client of the other: a compile error
 * (checked by `tsc -p tsconfig.json`, which includes test/) and, when the types
 * are forced, ENVIRONMENT_MISMATCH at run time before anything is sent.
 */
import { createClient, type Client } from "../../runtime/index.js";
import type { FlowSpec } from "../../runtime/flow-module.js";
import { startFakeService } from "./support/fake-service.js";
import { acceptAll, AML_SPEC, createSessionFor } from "./support/specs.js";

/** What a generated module of a live flow looks like to its callers. */
function createLiveSession(client: Client<"live">, request: { metadata: { subjectId: string } }) {
  return createSessionFor(client, AML_SPEC, acceptAll, request);
}

test("createClient keeps the environment literal in the client's type", async () => {
  const service = await startFakeService();
  const common = {
    baseUrl: service.baseUrl,
    authUrl: service.authUrl,
    clientId: "c",
    clientSecret: "s",
    userAgent: "ua/1",
  };
  const staging = createClient({ ...common, environment: "staging" });
  const live = createClient({ ...common, environment: "live" });
  const stagingIsStaging: Client<"staging"> = staging;
  // @ts-expect-error a staging client is not a live client
  const stagingIsLive: Client<"live"> = staging;
  const anyEnvironment: Client = live;
  expect([stagingIsStaging, stagingIsLive, anyEnvironment]).toHaveLength(3);

  // An environment read at run time: the client is either environment's, and checking narrows it.
  const fromConfig: "staging" | "live" = process.env.NO_SUCH_VARIABLE === "staging" ? "staging" : "live";
  const chosen = createClient({ ...common, environment: fromConfig });
  const either: Client<"staging"> | Client<"live"> = chosen;
  const narrowed = () => {
    // @ts-expect-error not narrowed yet: it may be a staging client
    void createLiveSession(chosen, { metadata: { subjectId: "x" } });
    if (chosen.environment === "live") void createLiveSession(chosen, { metadata: { subjectId: "x" } });
  };
  expect([either, typeof narrowed]).toEqual([chosen, "function"]);

  const stagingSpec: FlowSpec<"staging"> = { ...AML_SPEC, environment: "staging" };
  const typed = () => {
    // @ts-expect-error a live flow with a staging client
    void createLiveSession(staging, { metadata: { subjectId: "x" } });
    // @ts-expect-error the runtime call itself refuses mixed environments too
    void createSessionFor(live, stagingSpec, acceptAll, {});
    void createLiveSession(live, { metadata: { subjectId: "x" } });
  };
  expect(typeof typed).toBe("function");

  const error = await createLiveSession(staging as unknown as Client<"live">, { metadata: { subjectId: "x" } }).catch(
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: "RequestValidationError", code: "ENVIRONMENT_MISMATCH" });
  expect(staging.environment).toBe("staging");
  expect(live.environment).toBe("live");
  expect(service.authRequests.length + service.apiRequests.length).toBe(0);
  await Promise.all([staging.close(), live.close(), chosen.close()]);
  await service.close();
});
