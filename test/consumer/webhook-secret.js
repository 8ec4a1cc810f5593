"use strict";
/**
 * A new Standard Webhooks secret for one run: 32 random bytes, drawn again
 * while the last is zero (HMAC ignores zero bytes at a key's end, so such a
 * key has fewer than 32 and the emulator and the runtime refuse it: one run
 * in 256 failed on it).
 */
const { randomBytes } = require("node:crypto");

function newWebhookSecret() {
  for (let tries = 0; tries < 100; tries++) {
    const key = randomBytes(32);
    if (key[key.length - 1] !== 0) return `whsec_${key.toString("base64")}`;
  }
  throw new Error("newWebhookSecret: 100 keys in a row ended in a zero byte");
}

module.exports = { newWebhookSecret };
