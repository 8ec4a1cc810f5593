/**
 * Type-level tests of the generated document-verification client (multipart,
 * images, an enum, locales en and de only, live). Compiled by tsc; never run.
 */
import type { Client } from "../../runtime/index.js";
import * as verification from "../../generated/document-verification/index.js";

declare const live: Client<"live">;
declare const staging: Client<"staging">;
declare const front: Blob;
declare const back: Buffer;

const request: verification.CreateSessionRequest = {
  input: {
    documentImages: {
      documentType: "ID_CARD",
      frontSide: { data: front, filename: "front.jpg", contentType: "image/jpeg" },
      backSide: back,
    },
  },
  metadata: { subjectId: "subject-1", locale: "de" },
};

export async function compiles(): Promise<void> {
  const session = await verification.createSession(live, request);
  const flowVersion: number = session.flowVersion;
  const environment: "live" = verification.flow.environment;
  const locales: verification.Locale[] = ["en", "de"];
  // backSide is optional: only some document types have one.
  const frontOnly: verification.DocumentImages = { documentType: "BANK_STATEMENT", frontSide: front };
  void [flowVersion, environment, locales, frontOnly];
}

export async function rejected(): Promise<void> {
  // @ts-expect-error a client of the other environment
  await verification.createSession(staging, request);

  const wrongEnum: verification.DocumentImages = {
    // @ts-expect-error not one of the document types
    documentType: "PASSPORT",
    frontSide: front,
  };

  const stringForFile: verification.DocumentImages = {
    documentType: "UTILITY_BILL",
    // @ts-expect-error a string where a file belongs
    frontSide: "front.jpg",
  };

  // @ts-expect-error frontSide is required
  const missingFile: verification.DocumentImages = { documentType: "UTILITY_BILL" };

  const localeNotOfThisFlow: verification.Metadata = {
    subjectId: "s",
    // @ts-expect-error the service knows fr, but this flow accepts only en and de
    locale: "fr",
  };

  const extraMetadataKey: verification.CreateSessionRequest = {
    input: request.input,
    // @ts-expect-error metadata has only subjectId and locale
    metadata: { subjectId: "s", name: "Ada" },
  };

  void [wrongEnum, stringForFile, missingFile, localeNotOfThisFlow, extraMetadataKey];
}
