"use strict";
/** A loopback port free now, for a server that must be told its port before it starts (redis-server, Prism, a webhook URL). */
const net = require("node:net");

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

module.exports = { freePort };
