"use strict";
/** A new Standard Webhooks secret for one run, made as the README's quick start makes one: 32 random bytes. */
const { randomBytes } = require("node:crypto");

function newWebhookSecret() {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

module.exports = { newWebhookSecret };
