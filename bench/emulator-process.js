"use strict";
/**
 * The emulator in its own process for benchmarks 8 and 9: forked (with
 * --expose-gc) by bench/emulator-handle.js, it starts the built emulator with
 * the options it is given and answers over IPC: `ready` with its addresses,
 * and on "memory" its resident memory and live heap after a full garbage
 * collection.
 * Usage: fork("bench/emulator-process.js", ['<json options>'], { execArgv: ["--expose-gc"] })
 */
const { startEmulator } = require("../dist/emulator/index.js");

main(JSON.parse(process.argv[2] ?? "{}")).catch((error) => {
  process.send?.({ error: String(error.stack ?? error) });
  process.exitCode = 1;
});

async function main(options) {
  const emulator = await startEmulator(options);
  process.on("message", (message) => {
    if (message !== "memory") return;
    // Twice: the first pass can leave what finalizers free for the second.
    global.gc?.();
    global.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send({ rss, heapUsed });
  });
  process.once("disconnect", () => {
    emulator.close().then(() => process.exit(0));
  });
  process.send({ ready: { baseUrl: emulator.baseUrl, authUrl: emulator.authUrl, clients: emulator.clients } });
}
