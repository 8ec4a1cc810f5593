#!/usr/bin/env node
"use strict";
/**
 * `npm run example`: the whole integration against the emulator, offline.
 * Starts the emulator in-process on the repository's codegen.config.json,
 * creates a session of the "signing" flow with its generated client, follows
 * it through the OTP step to the outcome, then reads the data blocks and the
 * signed document back. Exits non-zero on any failure.
 */
const path = require("node:path");

const root = path.join(__dirname, "..");
const { createClient } = requireBuilt("runtime/dist/index.js");
const { startEmulator } = requireBuilt("dist/emulator/index.js");
const { signing } = requireBuilt("dist/generated/index.js");

async function main() {
  const emulator = await startEmulator({
    configPath: path.join(root, "codegen.config.json"),
    createdMs: 300,
    stepMs: 300,
  });
  const client = createClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    environment: "staging",
    ...emulator.clients.staging,
    userAgent: "flowsmith-example/1.0",
    pollIntervalMs: 100,
  });
  try {
    log(`emulator: API ${emulator.baseUrl}, auth ${emulator.authUrl}`);
    const flows = await client.listFlows();
    log(`staging flows: ${flows.map((flow) => flow.id).join(", ")}`);

    const created = await signing.createSession(client, {
      input: {
        basicIdentity: { givenName: "Ada", familyName: "Lovelace" },
        documentsToSign: {
          documents: [
            {
              templateId: "employment-contract",
              source: {
                data: Buffer.from("%PDF-1.7 example contract\n"),
                filename: "contract.pdf",
                contentType: "application/pdf",
              },
            },
          ],
        },
      },
      metadata: { subjectId: "example-subject-42", locale: "en" },
    });
    const sessionId = created.sessionContext.sessionId;
    log(
      `created session ${sessionId} (${created.sessionContext.sessionStatus}); player: ${created.playerUrl.replace(/token=.*/, "token=…")}`,
    );

    let step = await client.waitForStep(sessionId, { timeoutMs: 10_000 });
    log(
      `step ${step.stepType}, ticket ${step.ticketId}, actions: ${(step.actions || []).map((action) => action.type).join(", ")}`,
    );

    const wrong = await client.submitAction(sessionId, step.ticketId, { type: "VALIDATE_OTP", code: "000000" });
    log(`VALIDATE_OTP 000000 -> ${describe(wrong)}`);
    step = await client.waitForStep(sessionId, { timeoutMs: 10_000 });
    const right = await client.submitAction(sessionId, step.ticketId, { type: "VALIDATE_OTP", code: "123456" });
    log(`VALIDATE_OTP 123456 -> ${describe(right)}`);

    step = await client.waitForStep(sessionId, { timeoutMs: 10_000 });
    if (step.stepType !== "END") throw new Error(`expected stepType END, got ${step.stepType}`);
    const session = await client.getSession(sessionId);
    log(`session ${session.sessionStatus}, outcome ${JSON.stringify(session.outcome)}`);
    if (!session.outcome || session.outcome.decision !== "ACCEPTED")
      throw new Error("expected the session to be accepted");

    const blocks = await client.getDataBlocks(sessionId);
    log(`data blocks: ${JSON.stringify(blocks.dataBlocks, null, 2)}`);
    const source = blocks.dataBlocks.documentsToSign.documents[0].source;
    const file = await client.getFile(source.vaultEntryId);
    const bytes = await readAll(file.body);
    log(
      `file ${source.vaultEntryId}: ${file.contentType}, ${bytes.length} bytes: ${JSON.stringify(bytes.toString("utf8"))}`,
    );
    log("done");
  } finally {
    await client.close();
    await emulator.close();
  }
}

function describe(result) {
  return result && typeof result === "object"
    ? `${result.result} (attempts left ${result.attemptsLeft}, next ${result.step.stepType})`
    : String(result);
}

async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function log(line) {
  process.stdout.write(`${line}\n`);
}

function requireBuilt(relative) {
  try {
    return require(path.join(root, relative));
  } catch (error) {
    if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes(relative)) {
      process.stderr.write(`example: ${relative} is missing; run \`npm run build\` first (npm run example does it).\n`);
      process.exit(1);
    }
    throw error;
  }
}

main().catch((error) => {
  process.stderr.write(`example failed: ${error && error.stack ? error.stack : error}\n`);
  process.exitCode = 1;
});
