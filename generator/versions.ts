/** The versions a user sees in `flowsmith --version` and the manifest: flowsmith's and @flowsmith/runtime's. */
import { readFileSync } from "node:fs";
import path from "node:path";

/** The folder holding flowsmith's package.json, whether running from generator/ (tests) or dist/generator/ (the CLI). */
export function packageRoot(): string {
  const up = path.resolve(__dirname, "..");
  return path.basename(up) === "dist" ? path.dirname(up) : up;
}

export function flowsmithVersion(): string {
  return versionIn(path.join(packageRoot(), "package.json"));
}

export function runtimeVersion(): string {
  return versionIn(require.resolve("@flowsmith/runtime/package.json"));
}

/** The version of an installed package, as the generator fingerprint records it. */
export function packageVersion(name: string): string {
  return versionIn(require.resolve(`${name}/package.json`));
}

function versionIn(packageJson: string): string {
  return (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;
}
