"use strict";
/**
 * The hand-written client the request benchmarks compare against: the
 * fastest undici a careful developer would write for one API host. A Pool
 * for the origin, made once (so no URL is parsed per call), a token fetched
 * once up front, the headers object built once, and per call only
 * JSON.stringify, `pool.request({ path, … })` and `body.json()`.
 */
const undici = require("undici");
const { USER_AGENT } = require("./flowsmith-side.js");

/** A function that creates one session with `request` (throws unless 201), and close(). */
async function createUndiciSender({ baseUrl, authUrl, sessionsPath }) {
  const token = await fetchToken(authUrl);
  const base = new URL(baseUrl);
  const pool = new undici.Pool(base.origin);
  const path = `${base.pathname.replace(/\/$/, "")}${sessionsPath}`;
  const headers = { authorization: `Bearer ${token}`, "user-agent": USER_AGENT, "content-type": "application/json" };
  const send = async (request) => {
    const response = await pool.request({ method: "POST", path, headers, body: JSON.stringify(request) });
    const result = await response.body.json();
    if (response.statusCode !== 201) throw new Error(`undici: status ${response.statusCode}`);
    return result;
  };
  return { send, close: () => pool.close() };
}

/** One client-credentials token from the stub auth host, as every compared tool gets it up front. */
async function fetchToken(authUrl) {
  const response = await undici.request(`${authUrl}/oidc/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": USER_AGENT },
    body: "grant_type=client_credentials&client_id=bench&client_secret=bench",
  });
  return (await response.body.json()).access_token;
}

module.exports = { createUndiciSender, fetchToken };
