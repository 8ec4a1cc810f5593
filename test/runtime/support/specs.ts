/** Hand-written FlowSpecs and validators, shaped like the generator's output for the sample flows. */
import Ajv from "ajv";
import type { FieldSpec, FlowSpec, PartSegment, RequestValidator } from "../../../runtime/index.js";
import { createSessionFor, type Client } from "../../../runtime/index.js";

export const acceptAll: RequestValidator = Object.assign(() => true, { errors: null });

export const value = (...part: PartSegment[]): FieldSpec => ({ kind: "value", part });

const SIGNING_FIELDS: FieldSpec = {
  kind: "object",
  properties: [
    {
      name: "input",
      spec: {
        kind: "object",
        properties: [
          {
            name: "basicIdentity",
            spec: {
              kind: "object",
              properties: [
                { name: "givenName", spec: value("input[basicIdentity][givenName]") },
                { name: "familyName", spec: value("input[basicIdentity][familyName]") },
                { name: "age", spec: value("input[basicIdentity][age]") },
                { name: "consent", spec: value("input[basicIdentity][consent]") },
              ],
            },
          },
          {
            name: "documentsToSign",
            spec: {
              kind: "object",
              properties: [
                {
                  name: "documents",
                  spec: {
                    kind: "array",
                    items: {
                      kind: "object",
                      properties: [
                        { name: "templateId", spec: value("input[documentsToSign][documents][][templateId]") },
                        {
                          name: "source",
                          spec: {
                            kind: "file",
                            part: ["input[documentsToSign][documents][][source]"],
                            maxBytes: 26_214_400,
                            mediaTypes: [],
                          },
                        },
                      ],
                    },
                  },
                },
              ],
            },
          },
          {
            name: "attachments",
            spec: {
              kind: "array",
              items: {
                kind: "object",
                properties: [
                  { name: "label", spec: value("input[attachments][", { index: 0 }, "][label]") },
                  {
                    name: "pages",
                    spec: { kind: "array", items: value("input[attachments][", { index: 0 }, "][pages][", { index: 1 }, "]") },
                  },
                ],
              },
            },
          },
        ],
      },
    },
    {
      name: "metadata",
      spec: {
        kind: "object",
        properties: [
          { name: "subjectId", spec: value("metadata[subjectId]") },
          { name: "locale", spec: value("metadata[locale]") },
        ],
      },
    },
    { name: "redirectUrl", spec: value("redirectUrl") },
    { name: "state", spec: value("state") },
  ],
};

export const SIGNING_SPEC: FlowSpec<"staging"> = {
  id: "6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13",
  version: 1,
  environment: "staging",
  path: "/api/v1/flows/6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13/staging/sessions",
  bodyForm: "multipart",
  locales: ["en", "de", "fr", "pl", "it", "es"],
  fields: SIGNING_FIELDS,
};

/** An image-only flow: documentImages with a front side and an optional back side. */
export function imageSpec(maxBytes = 26_214_400): FlowSpec<"staging"> {
  const file = (name: string): FieldSpec => ({
    kind: "file",
    part: [`input[documentImages][${name}]`],
    maxBytes,
    mediaTypes: ["image/jpeg", "image/png"],
  });
  return {
    id: "doc-flow",
    version: 3,
    environment: "staging",
    path: "/api/v1/flows/doc-flow/staging/sessions",
    bodyForm: "multipart",
    locales: ["en", "de"],
    fields: {
      kind: "object",
      properties: [
        {
          name: "input",
          spec: {
            kind: "object",
            properties: [
              {
                name: "documentImages",
                spec: {
                  kind: "object",
                  properties: [
                    { name: "documentType", spec: value("input[documentImages][documentType]") },
                    { name: "frontSide", spec: file("frontSide") },
                    { name: "backSide", spec: file("backSide") },
                  ],
                },
              },
            ],
          },
        },
        {
          name: "metadata",
          spec: {
            kind: "object",
            properties: [
              { name: "subjectId", spec: value("metadata[subjectId]") },
              { name: "locale", spec: value("metadata[locale]") },
            ],
          },
        },
      ],
    },
  };
}

/** A JSON flow (AML screening) with its ajv validator, compiled here as the generator would. */
export const AML_SPEC: FlowSpec<"live"> = {
  id: "aml-flow",
  version: 2,
  environment: "live",
  path: "/api/v1/flows/aml-flow/live/sessions",
  bodyForm: "json",
  locales: ["en", "de"],
};

// A fixed schema, compiled without checking it against draft-07 (as the generator compiles a flow's
// validator once its schema is checked): the meta-schema's compile cost each suite that loads this
// module about 40 ms, most of whom never use this validator.
export const amlValidator: RequestValidator = new Ajv({ allErrors: true, validateSchema: false, meta: false }).compile({
  type: "object",
  required: ["input", "metadata"],
  additionalProperties: false,
  properties: {
    input: {
      type: "object",
      required: ["basicIdentity"],
      properties: {
        basicIdentity: {
          type: "object",
          required: ["givenName", "familyName"],
          properties: {
            givenName: { type: "string", maxLength: 150 },
            familyName: { type: "string", maxLength: 150 },
          },
        },
      },
    },
    metadata: {
      type: "object",
      required: ["subjectId"],
      properties: { subjectId: { type: "string" }, locale: { type: "string", enum: ["en", "de"] } },
    },
    redirectUrl: { type: "string" },
    state: { type: "string", maxLength: 2048 },
  },
});

export function createSession<E extends "staging" | "live">(
  client: Client<E>,
  spec: FlowSpec<E>,
  request: unknown,
  validate: RequestValidator = acceptAll,
): Promise<Record<string, unknown>> {
  return createSessionFor(client, spec, validate, request);
}
