/**
 * Many literal strings looked for in one pass over a text (Aho-Corasick):
 * time linear in the text whatever the strings, where an alternation of them
 * in one regular expression tries each string at each position. The scan
 * also reports what no regular expression or search package does: how long
 * the text's longest ending is that begins one of the strings, which is a
 * secret cut through at the end of a cut text (redaction.ts).
 */

/** The automaton's state from the character it reads: one map for every node, keyed node * 2^16 + UTF-16 code. */
const CODES = 0x10000;

export class LiteralSearch {
  private readonly next = new Map<number, number>();
  /** For each node: the node of its longest proper ending that is also in the trie. */
  private readonly fail: Int32Array;
  /** For each node: the length of the text it stands for. */
  private readonly depth: Int32Array;
  /** For each node: the length of the longest string that ends its text, 0 when none does. */
  private readonly found: Int32Array;

  constructor(strings: Iterable<string>) {
    const depth = [0];
    const ends = [false];
    const children: number[][] = [[]];
    for (const string of strings) {
      let node = 0;
      for (let i = 0; i < string.length; i++) {
        const key = node * CODES + string.charCodeAt(i);
        let child = this.next.get(key);
        if (child === undefined) {
          child = depth.length;
          depth.push(i + 1);
          ends.push(false);
          children.push([]);
          this.next.set(key, child);
          (children[node] as number[]).push(string.charCodeAt(i), child);
        }
        node = child;
      }
      if (string.length > 0) ends[node] = true;
    }
    this.depth = Int32Array.from(depth);
    this.fail = new Int32Array(depth.length);
    this.found = new Int32Array(depth.length);
    // Breadth first: a node's fail link points at a shallower node, whose own is then known.
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head] as number;
      const edges = children[node] as number[];
      for (let e = 0; e < edges.length; e += 2) {
        const code = edges[e] as number;
        const child = edges[e + 1] as number;
        this.fail[child] = node === 0 ? 0 : this.step(this.fail[node] as number, code);
        this.found[child] = ends[child] ? (depth[child] as number) : (this.found[this.fail[child]] as number);
        queue.push(child);
      }
    }
  }

  /**
   * Calls `onFound(end, length)` at each end of a string found in `text`
   * (the longest one ending there), and returns the length of the text's
   * longest ending that begins one of the strings (0 when none).
   */
  scan(text: string, onFound: (end: number, length: number) => void): number {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.step(node, text.charCodeAt(i));
      const length = this.found[node] as number;
      if (length > 0) onFound(i + 1, length);
    }
    return this.depth[node] as number;
  }

  /** Whether any of the strings occurs in `text`. */
  occursIn(text: string): boolean {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.step(node, text.charCodeAt(i));
      if ((this.found[node] as number) > 0) return true;
    }
    return false;
  }

  private step(from: number, code: number): number {
    for (let node = from; ; node = this.fail[node] as number) {
      const child = this.next.get(node * CODES + code);
      if (child !== undefined) return child;
      if (node === 0) return 0;
    }
  }
}
