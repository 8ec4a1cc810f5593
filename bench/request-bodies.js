"use strict";
/**
 * A valid request body for a flow description, with the required fields and
 * those with a default (openapi-typescript types defaulted fields as required),
 * as TypeScript source for the type-check consumers: nested for flowsmith's
 * createSession, and as openapi-typescript types it for openapi-fetch (JSON
 * nested; multipart one flat object keyed by part name).
 */

const FILE = "\u0000file\u0000";

/** `fileExpression` is the TypeScript expression placed where a file goes. */
function flowsmithBodySource(flow, fileExpression) {
  return toSource(flowsmithBody(flow), fileExpression);
}

function openapiFetchBodySource(flow, fileExpression) {
  return toSource(openapiFetchBody(flow), fileExpression);
}

function flowsmithBody(flow) {
  if (flow.body === "json") return jsonBody(flow.document);
  const schema = multipartSchema(flow.document);
  const body = {};
  for (const name of sentFields(schema)) setPath(body, partSegments(name), sampleValue(schema.properties[name]));
  return body;
}

function openapiFetchBody(flow) {
  if (flow.body === "json") return jsonBody(flow.document);
  const schema = multipartSchema(flow.document);
  // openapi-typescript types `format: binary` as string.
  return Object.fromEntries(
    sentFields(schema).map((name) => {
      const value = sampleValue(schema.properties[name]);
      return [name, value === FILE ? "file" : value];
    }),
  );
}

function jsonBody(document) {
  const operation = Object.values(document.paths)[0].post;
  return sampleObject(document, operation.requestBody.content["application/json"].schema);
}

function multipartSchema(document) {
  return Object.values(document.paths)[0].post.requestBody.content["multipart/form-data"].schema;
}

function sampleObject(document, schema) {
  const resolved = resolveRef(document, schema);
  if (resolved.type !== "object") return sampleValue(resolved);
  return Object.fromEntries(
    sentFields(resolved).map((name) => [name, sampleObject(document, resolved.properties[name])]),
  );
}

function sentFields(schema) {
  const defaulted = Object.keys(schema.properties).filter((name) => {
    const property = schema.properties[name];
    return property.default !== undefined && !schema.required?.includes(name);
  });
  return [...(schema.required ?? []), ...defaulted];
}

function resolveRef(document, schema) {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  return document.components.schemas[name];
}

function sampleValue(schema) {
  if (schema.enum) return schema.enum[0];
  if (schema.type === "boolean") return true;
  if (schema.type === "integer" || schema.type === "number") return schema.minimum ?? 1;
  if (schema.format === "binary") return FILE;
  if (schema.format === "date") return "1990-01-01";
  if (schema.format === "date-time") return "2024-01-01T00:00:00Z";
  if (schema.format === "uri") return "https://example.test/done";
  if (schema.pattern) return "DE";
  return "x";
}

/** `input[documentsToSign][documents][][source]` -> ["input", "documentsToSign", "documents", [], "source"]. */
function partSegments(name) {
  const [head, ...rest] = name.split("[");
  return [head, ...rest.map((segment) => (segment === "]" ? [] : segment.slice(0, -1)))];
}

function setPath(target, segments, value) {
  let node = target;
  segments.forEach((segment, position) => {
    const last = position === segments.length - 1;
    if (Array.isArray(segment)) return;
    const nextIsArray = Array.isArray(segments[position + 1]);
    if (last) {
      node[segment] = value;
      return;
    }
    if (nextIsArray) {
      node[segment] ??= [{}];
      node = node[segment][0];
    } else {
      node[segment] ??= {};
      node = node[segment];
    }
  });
}

function toSource(value, fileExpression) {
  return JSON.stringify(value).replaceAll(JSON.stringify(FILE), fileExpression);
}

module.exports = { flowsmithBodySource, openapiFetchBodySource };
