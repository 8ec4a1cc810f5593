/**
 * Type-level tests of the generated AML screening client (JSON body, no
 * files, staging). Compiled by tsc; never run.
 */
import type { Client } from "../../runtime/index.js";
import * as aml from "../../generated/aml-screening/index.js";

declare const staging: Client<"staging">;
declare const live: Client<"live">;

const request: aml.CreateSessionRequest = {
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
  metadata: { subjectId: "subject-1" },
};

export async function compiles(): Promise<void> {
  const session = await aml.createSession(staging, request, { signal: AbortSignal.timeout(5000) });
  const subjectId: string = session.metadata.subjectId;
  const body: "json" | "multipart" = "json";
  void [subjectId, body];
}

export async function rejected(): Promise<void> {
  // @ts-expect-error a client of the other environment
  await aml.createSession(live, request);

  // @ts-expect-error birthDate is required in this flow
  const missingField: aml.BasicIdentity = { givenName: "Ada", familyName: "Lovelace" };

  const extraField: aml.BasicIdentity = {
    givenName: "Ada",
    familyName: "Lovelace",
    birthDate: "1815-12-10",
    // @ts-expect-error the data block is closed (additionalProperties: false)
    nationality: "GB",
  };

  const extraMetadataKey: aml.Metadata = {
    subjectId: "s",
    // @ts-expect-error metadata has only subjectId and locale
    tenant: "t",
  };

  const wrongLocale: aml.Metadata = {
    subjectId: "s",
    // @ts-expect-error not a locale
    locale: "EN",
  };

  // @ts-expect-error input is an object of data blocks, not a string
  const wrongInput: aml.CreateSessionRequest = { input: "basicIdentity", metadata: { subjectId: "s" } };

  void [missingField, extraField, extraMetadataKey, wrongLocale, wrongInput];
}
