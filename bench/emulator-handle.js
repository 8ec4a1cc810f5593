"use strict";
/** Starts bench/emulator-process.js and talks to it over IPC, and reads the flow the emulator benchmarks send to. */
const { fork } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const YAML = require("yaml");
const undici = require("undici");

const REPO_ROOT = path.resolve(__dirname, "..");
/** The description both the emulator and Prism serve: the JSON-only sample. */
const AML_DESCRIPTION = path.join(REPO_ROOT, "flows", "aml-screening.yaml");
const USER_AGENT = "flowsmith-bench/1.0";

/** A valid body for that flow, the same for every tool. */
const AML_REQUEST = {
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
  metadata: { subjectId: "bench-subject", locale: "en" },
};

function amlSessionsPath() {
  const document = YAML.parse(fs.readFileSync(AML_DESCRIPTION, "utf8"));
  return `/api/v1/flows/${document.info["x-flow-id"]}/${document.info["x-environment"]}/sessions`;
}

function startEmulatorProcess(options = { configPath: path.join(REPO_ROOT, "codegen.config.json") }) {
  const child = fork(path.join(__dirname, "emulator-process.js"), [JSON.stringify(options)], {
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiters = [];
  child.on("message", (message) => {
    if (message.rss !== undefined) waiters.shift()?.(message);
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the emulator process exited early (${code})`)));
    child.once("message", (message) => {
      if (!message.ready)
        return reject(new Error(`the emulator process did not start: ${message.error ?? JSON.stringify(message)}`));
      resolve({
        ...message.ready,
        pid: child.pid,
        /** `{ rss, heapUsed }` after a full GC, in bytes. */
        memory: () =>
          new Promise((done) => {
            waiters.push(done);
            child.send("memory");
          }),
        close: () =>
          new Promise((done) => {
            child.removeAllListeners("exit");
            child.once("exit", () => done());
            child.disconnect();
          }),
      });
    });
  });
}

async function stagingToken(emulator) {
  const { clientId, clientSecret } = emulator.clients.staging;
  const response = await undici.request(`${emulator.authUrl}/oidc/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": USER_AGENT },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
  });
  if (response.statusCode !== 200) throw new Error(`token request failed with ${response.statusCode}`);
  return (await response.body.json()).access_token;
}

module.exports = {
  startEmulatorProcess,
  stagingToken,
  amlSessionsPath,
  AML_DESCRIPTION,
  AML_REQUEST,
  USER_AGENT,
  REPO_ROOT,
};
