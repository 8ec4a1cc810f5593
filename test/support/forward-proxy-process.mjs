// A real forward proxy on loopback for the proxy tests: the `proxy` package (CONNECT tunnels and plain
// HTTP forwarding), in its own process because the package is an ES module. Its outbound connections
// leave from 127.0.0.3, so a server can tell a request that came through it (from 127.0.0.3) from one
// that went around it (from 127.0.0.1). Prints {"port": n} once listening, then one JSON line per
// request it handles ({"method": "CONNECT", "target": "127.0.0.1:5000"}). Ends with its parent.
import { createServer } from "node:http";
import { createProxy } from "proxy";

export const OUTBOUND_ADDRESS = "127.0.0.3";

const server = createProxy(createServer());
server.localAddress = OUTBOUND_ADDRESS;
const report = (method, target) => process.stdout.write(`${JSON.stringify({ method, target })}\n`);
server.prependListener("connect", (req) => report("CONNECT", req.url));
server.prependListener("request", (req) => report(req.method, req.url));
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
