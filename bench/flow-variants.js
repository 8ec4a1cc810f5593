"use strict";
/**
 * Makes N flow descriptions by varying the three samples in flows/: new
 * x-flow-id, title, version, environment and field sets (optional fields
 * dropped or added, data blocks renamed, locale subsets). Variants 0-2 keep
 * the samples' field sets unchanged, because the request benchmarks send their
 * known bodies through them. Output is deterministic: ids are hashes of the index.
 */
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const YAML = require("yaml");

const SAMPLES = [
  { key: "aml", file: "aml-screening.yaml", body: "json" },
  { key: "docs", file: "document-verification.yaml", body: "multipart" },
  { key: "signing", file: "signing.yaml", body: "multipart" },
];

/** Writes `count` descriptions and a codegen config into `dir`; returns what the benchmarks need to know of each. */
function writeFlowVariants(repoRoot, dir, count) {
  const samples = SAMPLES.map((sample) => ({
    ...sample,
    document: YAML.parse(fs.readFileSync(path.join(repoRoot, "flows", sample.file), "utf8")),
  }));
  fs.mkdirSync(path.join(dir, "flows"), { recursive: true });
  const flows = [];
  for (let index = 0; index < count; index += 1) {
    const sample = samples[index % samples.length];
    const flow = makeVariant(sample, index);
    fs.writeFileSync(path.join(dir, "flows", `${flow.name}.yaml`), YAML.stringify(flow.document));
    flows.push(flow);
  }
  const config = {
    outputDir: "generated",
    // The workspace package: resolves to runtime/dist in node and in tsc.
    runtimeImport: "@flowsmith/runtime/flow-module",
    flows: flows.map((flow) => ({ name: flow.name, source: { file: `flows/${flow.name}.yaml` } })),
  };
  fs.writeFileSync(path.join(dir, "codegen.config.json"), `${JSON.stringify(config, null, 2)}\n`);
  return flows;
}

function makeVariant(sample, index) {
  const document = structuredClone(sample.document);
  const id = uuidFor(index);
  const environment = index < 3 ? document.info["x-environment"] : index % 2 === 0 ? "staging" : "live";
  const version = index < 3 ? document.info["x-flow-version"] : 1 + (index % 12);
  const title = `${document.info.title} ${index}`;
  document.info = {
    ...document.info,
    title,
    description: `Create a session for the flow "${title}" (version ${version}) in the ${environment} environment.`,
    version: String(version),
    "x-flow-id": id,
    "x-flow-version": version,
    "x-environment": environment,
  };
  document.servers = [
    { url: environment === "live" ? "https://api.example.test" : "https://api.staging.example.test" },
  ];
  const pathItem = Object.values(document.paths)[0];
  const sessionsPath = `/api/v1/flows/${id}/${environment}/sessions`;
  document.paths = { [sessionsPath]: pathItem };
  if (index >= 3) varyFields(document, sample.body, index);
  return {
    index,
    name: `flow-${String(index).padStart(3, "0")}`,
    sample: sample.key,
    body: sample.body,
    id,
    environment,
    sessionsPath,
    document,
  };
}

/** Bits of the index pick the changes, so the 100 variants cover every combination several times. */
function varyFields(document, body, index) {
  const bit = (n) => ((index >> n) & 1) === 1;
  if (body === "json") varyJsonFields(document, index, bit);
  else varyMultipartFields(document, index, bit);
}

function varyJsonFields(document, index, bit) {
  const schemas = document.components.schemas;
  const identity = schemas.BasicIdentity;
  if (bit(0)) delete identity.properties.name;
  if (bit(1)) delete identity.properties.birthPlace;
  if (bit(2))
    identity.properties.nationality = { type: "string", pattern: "^[A-Z]{2}$", description: "ISO 3166 code." };
  if (bit(3)) schemas.Metadata.properties.locale.enum = ["en", "de"];
  const input = schemas.CreateSessionRequest.properties.input;
  if (bit(4)) {
    input.properties.consent = {
      type: "object",
      required: ["accepted"],
      additionalProperties: false,
      properties: { accepted: { type: "boolean" }, at: { type: "string", format: "date-time" } },
    };
    input.required.push("consent");
  }
  if (bit(5)) {
    input.properties[`identity${index}`] = input.properties.basicIdentity;
    delete input.properties.basicIdentity;
    input.required = input.required.map((name) => (name === "basicIdentity" ? `identity${index}` : name));
  }
}

function varyMultipartFields(document, index, bit) {
  const operation = Object.values(document.paths)[0].post;
  const media = operation.requestBody.content["multipart/form-data"];
  const schema = media.schema;
  const optional = Object.keys(schema.properties).filter(
    (name) => name.startsWith("input[") && !schema.required.includes(name),
  );
  optional.forEach((name, position) => {
    if (!bit(position % 3)) return;
    delete schema.properties[name];
    if (media.encoding) delete media.encoding[name];
  });
  if (bit(3)) schema.properties["metadata[locale]"].enum = ["en", "de"];
  if (bit(4)) {
    schema.properties["input[extraInfo][note]"] = { type: "string", maxLength: 500 };
    schema.properties["input[extraInfo][priority]"] = { type: "integer", minimum: 1, maximum: 5 };
    schema.required.push("input[extraInfo][priority]");
  }
  if (bit(5)) renameBlocks(media, index);
}

function renameBlocks(media, index) {
  const rename = (name) =>
    name.replace(/^input\[(basicIdentity|documentImages)\]/, (_, block) => `input[${block}V${index}]`);
  const schema = media.schema;
  schema.properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, value]) => [rename(name), value]),
  );
  schema.required = schema.required.map(rename);
  if (media.encoding) {
    media.encoding = Object.fromEntries(Object.entries(media.encoding).map(([name, value]) => [rename(name), value]));
  }
}

function uuidFor(index) {
  const hex = createHash("sha256").update(`flowsmith-bench-${index}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

module.exports = { writeFlowVariants };
