/**
 * Hand-written FlowSpecs and schemas, shaped like the generator's output for
 * the sample flows, and createSessionFor, which sends a request of a spec
 * checked against the schema a test chooses (acceptAll: any request).
 */
import type { Client, RequestOptions } from "../../../runtime/index.js";
import {
  createFlowSession,
  type FieldSpec,
  type FlowSpec,
  type JsonSchema,
  type PartSegment,
} from "../../../runtime/flow-module.js";

/** The schema every value fits: the client's own rules (metadata, locale, state, files) still apply. */
export const acceptAll: JsonSchema = true;

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
                    spec: {
                      kind: "array",
                      items: value("input[attachments][", { index: 0 }, "][pages][", { index: 1 }, "]"),
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
  request: acceptAll,
  response: acceptAll,
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
    request: acceptAll,
    response: acceptAll,
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

/** A JSON flow (AML screening); its request schema is amlValidator, which createSessionFor puts in. */
export const AML_SPEC: FlowSpec<"live"> = {
  id: "aml-flow",
  version: 2,
  environment: "live",
  path: "/api/v1/flows/aml-flow/live/sessions",
  bodyForm: "json",
  locales: ["en", "de"],
  request: acceptAll,
  response: acceptAll,
};

/** The AML flow's request schema, as the generator writes it. */
export const amlValidator: JsonSchema = {
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
};

/** The spec itself when it has this request schema (a test may change it between calls), else a copy that has it. */
function specWith<E extends "staging" | "live">(spec: FlowSpec<E>, schema: JsonSchema): FlowSpec<E> {
  return spec.request === schema ? spec : { ...spec, request: schema };
}

/** A session of `spec`'s flow, its request checked against `schema`, as a generated createSession sends it. */
export function createSessionFor<E extends "staging" | "live", Response = Record<string, unknown>>(
  client: Client<E>,
  spec: FlowSpec<NoInfer<E>>,
  schema: JsonSchema,
  request: unknown,
  options?: RequestOptions,
): Promise<Response> {
  return createFlowSession<Response>(client, specWith(spec, schema), request, options);
}

export function createSession<E extends "staging" | "live">(
  client: Client<E>,
  spec: FlowSpec<E>,
  request: unknown,
  schema: JsonSchema = acceptAll,
): Promise<Record<string, unknown>> {
  return createSessionFor(client, spec, schema, request);
}
