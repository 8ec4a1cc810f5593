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
  /** For each node: the index of the string that ends there, -1 when none does. */
  private readonly ends: Int32Array;
  /** For each node: the nearest node along its fail links where a string ends, -1 when none. */
  private readonly nextEnd: Int32Array;

  /** `strings`, each once: a string's index in it is what `scan` reports. */
  constructor(strings: readonly string[]) {
    const depth = [0];
    const ends = [-1];
    const children: number[][] = [[]];
    strings.forEach((string, index) => {
      let node = 0;
      for (let i = 0; i < string.length; i++) {
        const key = node * CODES + string.charCodeAt(i);
        let child = this.next.get(key);
        if (child === undefined) {
          child = depth.length;
          depth.push(i + 1);
          ends.push(-1);
          children.push([]);
          this.next.set(key, child);
          (children[node] as number[]).push(string.charCodeAt(i), child);
        }
        node = child;
      }
      if (string.length > 0) ends[node] = index;
    });
    this.depth = Int32Array.from(depth);
    this.ends = Int32Array.from(ends);
    this.fail = new Int32Array(depth.length);
    this.nextEnd = new Int32Array(depth.length).fill(-1);
    // Breadth first: a node's fail link points at a shallower node, whose own is then known.
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head] as number;
      const edges = children[node] as number[];
      for (let e = 0; e < edges.length; e += 2) {
        const child = edges[e + 1] as number;
        const fail = node === 0 ? 0 : this.step(this.fail[node] as number, edges[e] as number);
        this.fail[child] = fail;
        this.nextEnd[child] = (this.ends[fail] as number) >= 0 ? fail : (this.nextEnd[fail] as number);
        queue.push(child);
      }
    }
  }

  /**
   * Calls `onFound(end, index)` for each string found in `text`, by where it
   * ends there and its index, until onFound returns true; returns the length
   * of the text's longest ending that begins one of the strings (0 when none).
   */
  scan(text: string, onFound: (end: number, index: number) => boolean): number {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.step(node, text.charCodeAt(i));
      for (let at = (this.ends[node] as number) >= 0 ? node : (this.nextEnd[node] as number); at > 0; at = this.nextEnd[at] as number) {
        if (onFound(i + 1, this.ends[at] as number)) return 0;
      }
    }
    return this.depth[node] as number;
  }

  private step(from: number, code: number): number {
    for (let node = from; ; node = this.fail[node] as number) {
      const child = this.next.get(node * CODES + code);
      if (child !== undefined) return child;
      if (node === 0) return 0;
    }
  }
}
