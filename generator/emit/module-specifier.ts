/**
 * Module specifiers of generated imports and re-exports. ts-morph quotes a
 * structure's specifier itself, with escapes of its own, so a specifier is
 * accepted only when it needs no escape at all: then what ts-morph writes is
 * exactly escape.ts's string literal of it.
 */
import { CodegenError, type CodegenErrorContext } from "../errors.js";
import { stringLiteral } from "./escape.js";

export function moduleSpecifierOrThrow(specifier: string, what: string, context: CodegenErrorContext = {}): string {
  if (specifier !== "" && stringLiteral(specifier) === `"${specifier}"`) return specifier;
  throw new CodegenError(
    "CONFIG_INVALID",
    `${what} ${stringLiteral(specifier)} cannot be written as an import: use a module specifier without quotes, backslashes, control characters or line separators`,
    context,
  );
}
