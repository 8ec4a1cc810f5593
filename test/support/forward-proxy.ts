/** Starts test/support/forward-proxy-process.mjs (a real forward proxy) and collects what it forwards. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export interface ForwardProxy {
  readonly url: string;
  /** What it has forwarded so far: `CONNECT 127.0.0.1:5000` or `GET http://…`. */
  readonly forwarded: string[];
  /** The address its outbound connections come from. */
  readonly outboundAddress: string;
  close(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, "forward-proxy-process.mjs")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const forwarded: string[] = [];
  let buffered = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error("the forward proxy printed no port in 20 s"));
    }, 20_000);
    child.once("exit", (code) => {
      reject(new Error(`the forward proxy exited with ${String(code)}`));
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const parsed = JSON.parse(line) as { port?: number; method?: string; target?: string };
        if (parsed.port !== undefined) {
          clearTimeout(timer);
          resolve(parsed.port);
        } else forwarded.push(`${parsed.method ?? ""} ${parsed.target ?? ""}`);
      }
    });
  });
  return {
    url: `http://127.0.0.1:${String(port)}`,
    forwarded,
    outboundAddress: "127.0.0.3",
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => {
          resolve();
        });
        child.stdin?.end();
      }),
  };
}
