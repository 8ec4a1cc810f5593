/**
 * Headless Chromium for the browser suite: Debian's `chromium` package
 * (/usr/bin/chromium, or CHROMIUM_PATH), driven by puppeteer-core, with a
 * fresh profile per run that is deleted afterwards.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Quiet and offline: no first-run UI, no update or sync traffic, no GPU in CI. */
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** What the tests read of an element inside the page: the project compiles without the DOM lib, so puppeteer's `Element` is unresolved there. */
export interface PageElement {
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
}

export interface Chromium {
  readonly browser: Browser;
  close(): Promise<void>;
}

export async function launchChromiumOrThrow(): Promise<Chromium> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary`,
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), "flowsmith-chromium-"));
  try {
    // headless: true is Chromium's own (new) headless mode.
    const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, userDataDir, args: ARGS });
    return {
      browser,
      close: async () => {
        await browser.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
