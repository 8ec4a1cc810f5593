/**
 * The runtime on Node (the `node` condition): requests through undici's
 * dispatcher (the transport bench row 4 measures against a raw undici Pool),
 * proxies through undici's proxy agents, multipart bodies in undici's own
 * FormData (its dispatcher encodes no other), files read from disk as they
 * are sent, the pattern engine loaded on first need. Each is loaded when first
 * used, so a process pays for none it does not use.
 */
import { dispatcherOrThrow } from "../exchange/dispatcher.js";
import { UndiciTransport } from "../exchange/undici-transport.js";
import type { Platform } from "./platform.js";

export const platform: Platform = {
  name: "node",
  transportOrThrow({ dispatcher, proxy }) {
    const chosen = dispatcherOrThrow(dispatcher, proxy);
    return new UndiciTransport(chosen.dispatcher, chosen.owned, chosen.proxySecrets);
  },
  patternEngine() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- re2js is loaded with the first action schema that has a pattern
    return (require("../patterns/index.js") as typeof import("../patterns/index.js")).linearPatterns;
  },
  formData() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- undici's FormData, loaded with the first multipart request
    const { FormData: UndiciFormData } = require("undici/lib/web/fetch/formdata.js") as {
      FormData: new () => FormData;
    };
    return new UndiciFormData();
  },
  fileFromPath(path, options) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:fs only for the applications that upload from disk
    return (require("./disk-file.js") as typeof import("./disk-file.js")).fileFromPath(path, options);
  },
};
