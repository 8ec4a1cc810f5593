/**
 * The emulator as the API the webhook handler and waitForOutcome read from:
 * sessions of the AML fixture flow (JSON, staging) that start at their OTP
 * step at once, and ways to end them ACCEPTED or REJECTED through the API.
 */
import {
  startEmulator,
  ACCEPTED_CODE,
  MAX_WRONG_CODES,
  type EmulatorOptions,
  type RunningEmulator,
} from "../../../emulator/index.js";
import { createClient, type Client } from "../../../runtime/index.js";
import { ALL_FLOWS, AML_ID, bearer, call, tokenFor } from "../../emulator/fixtures.js";

export interface EmulatedSessions {
  readonly emulator: RunningEmulator;
  readonly client: Client<"staging">;
  /** A new session of the AML flow; `subjectId` lands in its metadata. */
  create(subjectId?: string): Promise<string>;
  /** Ends the session through the API actions: the right code, or three wrong ones. */
  end(sessionId: string, decision: "ACCEPTED" | "REJECTED"): Promise<void>;
  close(): Promise<void>;
}

/** `options` adds to the emulator's (a webhookUrl, its secret). */
export async function startEmulatedSessions(options: EmulatorOptions = {}): Promise<EmulatedSessions> {
  // No CREATED or START phase: a session waits at its OTP step as soon as it exists.
  const emulator = await startEmulator({ flows: ALL_FLOWS, createdMs: 0, stepMs: 0, ...options });
  const token = await tokenFor(emulator, "staging");
  const client = createClient<"staging">({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    environment: "staging",
    ...emulator.clients.staging,
    userAgent: "flowsmith-tests/1.0",
    pollIntervalMs: 10,
  });
  return {
    emulator,
    client,
    create: async (subjectId = "cust-42") => {
      const answer = await call(`${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/sessions`, {
        method: "POST",
        headers: bearer(token, { "content-type": "application/json" }),
        body: JSON.stringify({
          input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
          metadata: { subjectId },
        }),
      });
      if (answer.status !== 201) throw new Error(`creating a session failed: ${answer.status} ${answer.text}`);
      return answer.json.sessionContext.sessionId;
    },
    end: async (sessionId, decision) => {
      const codes = decision === "ACCEPTED" ? [ACCEPTED_CODE] : Array.from({ length: MAX_WRONG_CODES }, () => "000000");
      for (const code of codes) {
        const step = await client.getStep(sessionId);
        await client.submitAction(sessionId, step.ticketId!, { type: "VALIDATE_OTP", code });
      }
    },
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}
