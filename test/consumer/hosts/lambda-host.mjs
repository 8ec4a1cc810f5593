/**
 * A Lambda-style handler (`export const handler = async (event) => result`) behind a loopback
 * HTTP server, as a Function URL or an API Gateway HTTP API calls it: each request becomes a
 * payload 2.0 event (headers lower-cased, the body base64 with isBase64Encoded), and the
 * handler's { statusCode, headers, body } becomes the answer. Runs until stopped.
 * Usage: FLOWSMITH_HOST_OPTIONS='<json: module, port>' node lambda-host.mjs; prints "ready <port>".
 */
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

const options = JSON.parse(process.env.FLOWSMITH_HOST_OPTIONS);
const { handler } = await import(pathToFileURL(options.module).href);

const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const url = new URL(request.url, "http://function.invalid");
  const event = {
    version: "2.0",
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers: Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : value]),
    ),
    requestContext: { http: { method: request.method, path: url.pathname } },
    body: Buffer.concat(chunks).toString("base64"),
    isBase64Encoded: true,
  };
  try {
    const result = await handler(event);
    response
      .writeHead(result.statusCode, result.headers ?? {})
      .end(result.isBase64Encoded ? Buffer.from(result.body, "base64") : result.body);
  } catch (error) {
    // Lambda answers a handler that throws with 502.
    console.error(error);
    response.writeHead(502).end();
  }
});
server.listen(options.port, "127.0.0.1", () => process.stdout.write(`ready ${server.address().port}\n`));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
