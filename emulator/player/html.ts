/**
 * The one path by which text reaches a player page. Pages are written as
 * `html` templates; every interpolated value is escaped by escapeHtml unless
 * it is itself an `Html` fragment built the same way. Values from a flow's
 * description or a session's request (title, subjectId, state) therefore
 * reach the page only as text, in element content and in quoted attributes.
 */

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template accepts: nothing renders for null, undefined and false, so `cond && html\`...\`` works. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

export function html(literals: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  // A tag's literals surround its values: literal 0, value 0, literal 1, ..., the last literal.
  return new Html(
    literals.map((literal, index) => (index === 0 ? literal : render(values[index - 1]) + literal)).join(""),
  );
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}
