/**
 * client.getFlowDescription: the flow's OpenAPI description, fetched from a
 * path template (the service reference does not show the path), the flow id
 * sent as one encoded segment, and an answer that is not a JSON object refused.
 */
import { DEFAULT_DESCRIPTION_PATH, InvalidResponseError, NotFoundError, type Client } from "../../runtime/index.js";
import { clientFor, USER_AGENT } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";

let service: FakeService;
let client: Client<"staging">;

beforeEach(async () => {
  service = await startFakeService("/gw");
  client = clientFor(service);
});
afterEach(async () => {
  await client.close();
  await service.close();
});

describe("getFlowDescription", () => {
  it.each<[string, { flowId: string; path?: string; want: string }]>([
    ["the default path", { flowId: "flow-1", want: "/gw/api/v1/flows/flow-1/staging/openapi" }],
    [
      "a path template of the caller's",
      {
        flowId: "flow-1",
        path: "/api/v2/{environment}/descriptions/{flowId}.json",
        want: "/gw/api/v2/staging/descriptions/flow-1.json",
      },
    ],
    [
      "an id that would change the path, encoded as one segment",
      { flowId: "a/../b?x", want: "/gw/api/v1/flows/a%2F..%2Fb%3Fx/staging/openapi" },
    ],
  ])("%s", async (_name, { flowId, path, want }) => {
    service.onApi((_req, res) => {
      json(res, 200, { openapi: "3.0.3", info: { "x-flow-id": flowId } });
    });
    const document = await client.getFlowDescription(flowId, path === undefined ? {} : { path });
    expect(document).toEqual({ openapi: "3.0.3", info: { "x-flow-id": flowId } });
    expect(service.apiRequests.map((request) => [request.method, request.url, request.headers["user-agent"]])).toEqual([
      ["GET", want, USER_AGENT],
    ]);
    expect(service.apiRequests[0]?.headers.authorization).toMatch(/^Bearer token-\d+$/);
  });

  it("refuses an answer that is not a JSON object, and passes a 404 on typed", async () => {
    service.onApi((_req, res) => {
      json(res, 200, ["not", "a", "description"]);
    });
    await expect(client.getFlowDescription("f")).rejects.toBeInstanceOf(InvalidResponseError);
    service.onApi((_req, res) => {
      json(res, 404, { message: "no such flow" });
    });
    await expect(client.getFlowDescription("f")).rejects.toBeInstanceOf(NotFoundError);
    expect(DEFAULT_DESCRIPTION_PATH).toBe("/api/v1/flows/{flowId}/{environment}/openapi");
  });
});
