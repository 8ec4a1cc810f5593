/**
 * Prettier with fixed options and no config lookup, so the output does not
 * depend on the machine or on a .prettierrc near the output directory. It
 * formats only the rare module ts-morph cannot print in this layout itself
 * (module-text.ts), and the tests check every other module against it.
 * The standalone build with its plugins given explicitly: prettier's main
 * CommonJS entry loads itself through dynamic import(), which jest's module
 * sandbox refuses, and standalone never looks for a config file.
 */
import type { Options } from "prettier";
import * as prettier from "prettier/standalone";
import * as estree from "prettier/plugins/estree";
import * as babel from "prettier/plugins/babel";
import { INDENT_WIDTH, PRINT_WIDTH } from "./layout.js";

const OPTIONS: Options = {
  // babel-ts prints generated modules exactly as the typescript parser does
  // (checked on the goldens and 100 benchmark flows), and loads and parses faster.
  parser: "babel-ts",
  plugins: [estree, babel],
  printWidth: PRINT_WIDTH,
  tabWidth: INDENT_WIDTH,
  useTabs: false,
  semi: true,
  singleQuote: false,
  // Keys are quoted by escape.ts exactly when needed; prettier must not re-decide.
  quoteProps: "preserve",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
};

export function formatTypeScript(source: string): Promise<string> {
  return prettier.format(source, OPTIONS);
}
