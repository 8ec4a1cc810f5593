/**
 * The docs' links (CONTRIBUTING.md, "Documentation"). In the repository: every
 * relative link and #anchor of the pages resolves, and so does every absolute
 * link into the repository (`<repository>/blob/main/<path>#anchor`). In the
 * tarballs: the README that npm shows for each package links only to files
 * inside that tarball, or by absolute URL (the file lists come from
 * `npm pack --dry-run --json`, nothing is packed). Every package.json names
 * the one repository these URLs point into.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "@jest/globals";
import { marked, type Token, type Tokens } from "marked";

const REPO = path.resolve(__dirname, "..", "..");

const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  ...readdirSync(path.join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  "runtime/README.md",
  "redis/README.md",
];

/** Each package's folder in the repository, by name. */
const PACKAGES: Readonly<Record<string, string>> = {
  flowsmith: "",
  "@flowsmith/runtime": "runtime",
  "@flowsmith/redis": "redis",
};

interface PackageJson {
  readonly name: string;
  readonly repository?: { readonly type?: string; readonly url?: string; readonly directory?: string };
}

function packageJson(folder: string): PackageJson {
  return JSON.parse(readFileSync(path.join(REPO, folder, "package.json"), "utf8")) as PackageJson;
}

/** `https://github.com/<owner>/<name>`, from the root package.json's `repository`. */
const REPOSITORY = (packageJson("").repository?.url ?? "").replace(/^git\+/, "").replace(/\.git$/, "");

interface Link {
  readonly page: string;
  readonly href: string;
}

/** Where a link points: a file or folder of the repository (posix, relative to it) and an anchor, or elsewhere. */
type Target =
  | { readonly kind: "repository"; readonly file: string; readonly anchor: string | undefined }
  | { readonly kind: "elsewhere" };

/** GitHub's anchor for a heading: lower case, punctuation and symbols dropped (but `-` and `_`), spaces as `-`. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

interface Page {
  readonly links: readonly Link[];
  readonly anchors: ReadonlySet<string>;
}

const pages = new Map<string, Page>();

function readPage(page: string): Page {
  const known = pages.get(page);
  if (known) return known;
  const tokens = marked.lexer(readFileSync(path.join(REPO, page), "utf8"));
  const links: Link[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  // Synchronous: the callback returns nothing, so neither does walkTokens.
  void marked.walkTokens(tokens, (token) => {
    if (token.type === "link") links.push({ page, href: (token as Tokens.Link).href });
    if (token.type === "heading") {
      const base = slug(plainText((token as Tokens.Heading).tokens));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${String(count)}`);
    }
  });
  const read = { links, anchors };
  pages.set(page, read);
  return read;
}

/** A heading's text as GitHub slugs it: code spans by their raw text, links by their text. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === "codespan") return token.raw.replace(/`/g, "");
      if (token.type === "escape") return (token as Tokens.Escape).text;
      const children = (token as { tokens?: Token[] }).tokens;
      if (children) return plainText(children);
      // raw: marked's `text` has HTML entities (`&#39;` for an apostrophe), GitHub slugs the characters.
      return token.raw;
    })
    .join("");
}

function targetOf(link: Link): Target {
  const [address = "", anchor] = link.href.split("#", 2);
  for (const kind of ["blob", "tree"]) {
    const prefix = `${REPOSITORY}/${kind}/main/`;
    if (link.href.startsWith(prefix))
      return { kind: "repository", file: decodeURIComponent(address.slice(prefix.length)), anchor };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.href)) return { kind: "elsewhere" };
  const file =
    address === ""
      ? link.page
      : path.posix.normalize(path.posix.join(path.posix.dirname(link.page), decodeURIComponent(address)));
  return { kind: "repository", file, anchor };
}

/** What is wrong with a link, read in the repository; undefined when it resolves. */
function problemInRepository(link: Link): string | undefined {
  const target = targetOf(link);
  if (target.kind === "elsewhere") return undefined;
  if (target.file.startsWith("../")) return `${link.href}: leaves the repository`;
  if (!existsSync(path.join(REPO, target.file))) return `${link.href}: no file ${target.file}`;
  if (target.anchor === undefined) return undefined;
  if (!target.file.endsWith(".md")) return `${link.href}: an anchor into ${target.file}, which is not a page`;
  if (!readPage(target.file).anchors.has(target.anchor))
    return `${link.href}: ${target.file} has no heading #${target.anchor}`;
  return undefined;
}

test.each([
  ["Flows from the service (`source.api`)", "flows-from-the-service-sourceapi"],
  ["--check and the manifest", "--check-and-the-manifest"],
  ["Auth host `{auth_url}`", "auth-host-auth_url"],
  ["outputDir is flowsmith's folder", "outputdir-is-flowsmiths-folder"],
  [
    "Checks before sending (`RequestValidationError`, nothing sent)",
    "checks-before-sending-requestvalidationerror-nothing-sent",
  ],
])("the anchor of heading %j is #%s", (heading, anchor) => {
  const [token] = marked.lexer(`## ${heading}\n`);
  expect(token?.type === "heading" ? slug(plainText((token as Tokens.Heading).tokens)) : undefined).toBe(anchor);
});

describe.each(PAGES)("%s", (page) => {
  test("every relative link, #anchor and link into the repository resolves", () => {
    const problems = readPage(page).links.flatMap((link) => problemInRepository(link) ?? []);
    expect(problems).toEqual([]);
  });
});

describe("the packages", () => {
  /** What `npm pack` would put in each tarball, by package name. */
  let packed: ReadonlyMap<string, readonly string[]>;

  beforeAll(() => {
    // --ignore-scripts: prepack would build; which files the READMEs may link to does not depend on it.
    const json = execFileSync(
      "npm",
      ["pack", "--dry-run", "--json", "--ignore-scripts", "--workspaces", "--include-workspace-root"],
      {
        cwd: REPO,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const listed = JSON.parse(json) as { name: string; files: { path: string }[] }[];
    packed = new Map(listed.map((entry) => [entry.name, entry.files.map((file) => file.path)]));
  }, 60_000);

  test("npm pack lists every package", () => {
    expect([...packed.keys()].sort()).toEqual(Object.keys(PACKAGES).sort());
  });

  test.each(Object.entries(PACKAGES))("%s names the repository the docs link into", (name, folder) => {
    expect(REPOSITORY).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    const json = packageJson(folder);
    expect(json.name).toBe(name);
    expect(json.repository).toEqual({
      type: "git",
      url: `git+${REPOSITORY}.git`,
      ...(folder === "" ? {} : { directory: folder }),
    });
  });

  test.each(Object.entries(PACKAGES))(
    "%s: its packed README links inside the tarball, or by absolute URL",
    (name, folder) => {
      const files = packed.get(name) ?? [];
      const readme = folder === "" ? "README.md" : `${folder}/README.md`;
      expect(files).toContain("README.md");
      const problems = readPage(readme).links.flatMap((link) => {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link.href) || link.href.startsWith("#")) return [];
        const target = path.posix.normalize(
          path.posix.join(path.posix.dirname(readme), link.href.split("#", 1)[0] ?? ""),
        );
        const inTarball = path.posix.relative(folder === "" ? "." : folder, target);
        const shipped = files.some((file) => file === inTarball || file.startsWith(`${inTarball}/`));
        return shipped
          ? []
          : [`${link.href}: ${inTarball} is not in the ${name} tarball (link it by ${REPOSITORY}/blob/main/...)`];
      });
      expect(problems).toEqual([]);
    },
  );
});
