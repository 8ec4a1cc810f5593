/**
 * `npm run example:web`: the web example, until Ctrl-C. PORT (default: any
 * free port) and HOST (default 127.0.0.1) place it; everything stays on
 * loopback and offline. Run from the repository root (the emulator reads
 * codegen.config.json there).
 */
import { startWebExample } from "./web-example.js";

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`example:web: PORT must be a port number (0 to 65535), got "${process.env.PORT ?? ""}"`);
    process.exitCode = 2;
    return;
  }
  const example = await startWebExample({ port, ...(process.env.HOST !== undefined && { host: process.env.HOST }) });
  console.log(`web example: open ${example.url}/ in a browser (Ctrl-C to stop)`);
  console.log(
    `  emulator API ${example.emulatorUrl}; signed webhooks to ${example.url}/webhooks/flowsmith; what the backend saw: ${example.url}/seen.json`,
  );
  const shutdown = (): void => {
    console.log("web example: stopping");
    example.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("web example: stopping failed:", error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  console.error("web example failed to start:", error);
  process.exitCode = 1;
});
