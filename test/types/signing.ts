/**
 * Type-level tests of the generated signing client (multipart, files in an
 * array, staging). Compiled by `tsc -p tsconfig.json` and by
 * test/generator/emit-type-tests.test.ts; never run. Each `@ts-expect-error`
 * must meet an error, so a generator that types too loosely fails here.
 */
import type { Client } from "../../runtime/index.js";
import type { FlowSpec, JsonSchema } from "../../runtime/flow-module.js";
import { signing as viaIndex } from "../../generated/index.js";
import * as signing from "../../generated/signing/index.js";

declare const staging: Client<"staging">;
declare const live: Client<"live">;
declare const blob: Blob;
declare const buffer: Buffer;
declare const bytes: Uint8Array;

const request: signing.CreateSessionRequest = {
  input: {
    basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" },
    documentsToSign: {
      documents: [
        { templateId: "t-buffer", source: buffer },
        { templateId: "t-blob", source: blob },
        { templateId: "t-bytes", source: bytes },
        {
          templateId: "t-named",
          source: { data: buffer, filename: "contract.pdf", contentType: "application/pdf" },
        },
      ],
    },
  },
  metadata: { subjectId: "subject-1", locale: "pl" },
  redirectUrl: "https://example.test/done",
  state: "csrf-value",
};

export async function compiles(): Promise<void> {
  const session: signing.CreateSessionResponse = await signing.createSession(staging, request);
  const sessionId: string = session.sessionContext.sessionId;
  const status: "CREATED" = session.sessionContext.sessionStatus;
  const environment: "staging" = signing.flow.environment;
  const version: 1 = signing.flow.version;
  void [sessionId, status, environment, version];
  await viaIndex.createSession(staging, request, { timeoutMs: 1000 });
  // The exported spec (JSON in the module) keeps its environment in its type.
  const specEnvironment: "staging" = signing.spec.environment;
  // It carries the request and 201 schemas as data, which createSession checks with the runtime's schema checker.
  const schemas: [JsonSchema, JsonSchema] = [signing.spec.request, signing.spec.response];
  const anySpec: FlowSpec = signing.spec;
  void [specEnvironment, schemas, anySpec];
  // Plain arrays, built step by step, go in once they are known not to be empty.
  const documents: signing.DocumentsToSignDocument[] = [];
  documents.push({ templateId: "t", source: blob });
  const [first, ...rest] = documents;
  if (first)
    await signing.createSession(staging, {
      ...request,
      input: { ...request.input, documentsToSign: { documents: [first, ...rest] } },
    });
}

export async function rejected(): Promise<void> {
  // @ts-expect-error a client of the other environment
  await signing.createSession(live, request);

  // @ts-expect-error the spec of a staging flow is not a live one
  const liveSpec: FlowSpec<"live"> = signing.spec;
  void liveSpec;

  // @ts-expect-error no validator beside the module: its schemas are data in spec
  void signing.validate;

  // @ts-expect-error familyName is required
  const missingField: signing.BasicIdentity = { givenName: "Ada" };

  const extraMetadataKey: signing.Metadata = {
    subjectId: "s",
    // @ts-expect-error metadata has only subjectId and locale
    email: "ada@example.test",
  };

  const unsupportedLocale: signing.Metadata = {
    subjectId: "s",
    // @ts-expect-error not a locale the service knows
    locale: "nl",
  };

  const stringForFile: signing.DocumentsToSignDocument = {
    templateId: "t",
    // @ts-expect-error a path is not a file
    source: "./contract.pdf",
  };

  // @ts-expect-error metadata is required
  const noMetadata: signing.CreateSessionRequest = { input: request.input };

  // @ts-expect-error documents is required, so it needs at least one element
  const noDocuments: signing.DocumentsToSign = { documents: [] };

  const built: signing.DocumentsToSignDocument[] = [];
  // @ts-expect-error an array that may be empty
  const maybeEmpty: signing.DocumentsToSign = { documents: built };

  void [missingField, extraMetadataKey, unsupportedLocale, stringForFile, noMetadata, noDocuments, maybeEmpty];
}
