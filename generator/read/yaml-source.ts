/**
 * YAML (and JSON, which the yaml package reads as YAML 1.2) into plain values,
 * keeping the parsed Document so a JSON pointer can be mapped back to a line.
 * Most documents are read by plain-yaml.ts instead, faster, with the same
 * values; the Document (yaml-document.ts) is then made only when a message
 * needs a line, and only then is the yaml package loaded.
 */
import { plainYamlOrUndefined } from "./plain-yaml.js";
import { parseWithPositionsOrThrow, type ParsedYaml } from "./yaml-document.js";

export function parseYamlOrThrow(text: string, file: string): ParsedYaml {
  const plain = plainYamlOrUndefined(text);
  if (!plain) return parseWithPositionsOrThrow(text, file);
  // Lines and source text are for messages: only then is the document read again, with positions.
  let parsed: ParsedYaml | undefined;
  const positions = () => (parsed ??= parseWithPositionsOrThrow(text, file));
  return {
    document: plain.value,
    lineOfOrUndefined: (pointer) => positions().lineOfOrUndefined(pointer),
    scalarTextOrUndefined: (pointer) => positions().scalarTextOrUndefined(pointer),
  };
}
