"use strict";
/**
 * A real Redis for the tests, the benchmarks and the consumer test: Debian's
 * redis-server (CI installs it with apt; .ci/run), started on a free loopback
 * port with persistence off (`--save "" --appendonly no`) and the eviction
 * policy BullMQ requires, in a temp folder of its own; `config` replaces any
 * of these settings or adds others (`{ "maxmemory-policy": "allkeys-lru",
 * maxmemory: "4mb" }`, `{ appendonly: "yes" }`). `stop()` and `start()` take
 * it away and bring it back on the same port, with what its folder kept (an
 * outage, a restart); `pause()` and `resume()` freeze it (SIGSTOP, SIGCONT);
 * `close()` stops it and removes the folder.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const { freePort } = require("./free-port.js");

const REDIS_SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";
const READY_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;

async function startRedis({ config = {} } = {}) {
  if (!fs.existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} not found: install Redis (apt-get update && apt-get install -y redis-server, as .ci/run does) or set REDIS_SERVER`,
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowsmith-redis-"));
  let child;
  let port;
  // A free port can be taken between finding it and binding it: then another.
  for (let attempt = 0; attempt < 5 && child === undefined; attempt += 1) {
    port = await freePort();
    child = await launch(port, dir, config).catch((error) => {
      if (attempt === 4) throw error;
      return undefined;
    });
  }
  const handle = {
    url: `redis://127.0.0.1:${port}`,
    port,
    /** Stops the server (an outage); start() brings it back, empty, on the same port. */
    stop: async () => {
      const running = child;
      child = undefined;
      if (running) await stopChild(running);
    },
    start: async () => {
      if (child === undefined) child = await launch(port, dir, config);
    },
    /** SIGSTOP: the server keeps its connections and answers nothing until resume(). */
    pause: () => {
      child?.kill("SIGSTOP");
    },
    resume: () => {
      child?.kill("SIGCONT");
    },
    close: async () => {
      await handle.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}

function launch(port, dir, config) {
  const settings = {
    save: "",
    appendonly: "no",
    "maxmemory-policy": "noeviction",
    ...config,
    port: String(port),
    bind: "127.0.0.1",
    dir,
    daemonize: "no",
    loglevel: "warning",
  };
  const args = Object.entries(settings).flatMap(([name, value]) => [`--${name}`, value]);
  const child = spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    let settled = false;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const fail = (message) => {
      if (settled) return;
      settled = true;
      child.kill("SIGKILL");
      reject(new Error(`${message}; redis-server said:\n${output.trim()}`));
    };
    child.once("error", (error) => fail(`redis-server could not start (${error.message})`));
    child.once("exit", (code) => fail(`redis-server exited with ${code} before it answered PING on port ${port}`));
    const poll = () => {
      if (settled) return;
      ping(port).then(
        () => {
          settled = true;
          child.removeAllListeners("exit");
          resolve(child);
        },
        () => {
          if (Date.now() > deadline)
            fail(`redis-server did not answer PING on port ${port} within ${READY_TIMEOUT_MS} ms`);
          else setTimeout(poll, 25);
        },
      );
    };
    poll();
  });
}

function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    // A frozen server would never see SIGTERM.
    child.kill("SIGCONT");
    child.kill("SIGTERM");
  });
}

/** Resolves when a server on the port answers PING with PONG. */
function ping(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.setTimeout(1000, () => socket.destroy(new Error("timeout")));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      answer += chunk;
      if (answer.includes("\r\n")) {
        socket.destroy();
        if (answer.startsWith("+PONG")) resolve();
        else reject(new Error(answer.trim()));
      }
    });
    socket.once("error", reject);
  });
}

module.exports = { startRedis };
