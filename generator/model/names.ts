/** The flow's folder name when the config gives none: the title in kebab-case. */

/** ASCII letters and digits joined by `-`; "" when the title has none. */
export function kebabCase(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // accents off, so "Prüfung" reads "prufung" rather than "pr-fung"
    .replace(/([a-z\d])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter((word) => word !== "")
    .join("-");
}
