/** The progress line of a long run, driven by an injected clock: what a terminal and a CI log each get. */
import { createProgressLine } from "../../cli/progress-line";

function recorder(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) }, written };
}

const step = (done: number, flow = `flow-${done}`) => ({ done, total: 100, flow });

describe("createProgressLine", () => {
  it("on a terminal: nothing for a short run; then one line rewritten in place, at most every 50 ms, erased at the end", () => {
    let now = 0;
    const { stream, written } = recorder(true);
    const line = createProgressLine(stream, "generating", () => now);
    now = 100;
    line.update(step(1));
    expect(written).toEqual([]);
    now = 400;
    line.update(step(2, "signing"));
    now = 420;
    line.update(step(3));
    now = 460;
    line.update(step(4));
    line.end();
    expect(written).toEqual([
      "\r\x1b[2K  generating 2/100  signing",
      "\r\x1b[2K  generating 4/100  flow-4",
      "\r\x1b[2K",
    ]);
  });

  it("in a log: a plain line at most every 2 s, nothing to erase", () => {
    let now = 0;
    const { stream, written } = recorder(false);
    const line = createProgressLine(stream, "checking", () => now);
    for (const [at, done] of [
      [500, 1],
      [2100, 2],
      [3000, 3],
      [4200, 4],
    ] as const) {
      now = at;
      line.update(step(done));
    }
    line.end();
    expect(written).toEqual(["  checking 2/100...\n", "  checking 4/100...\n"]);
  });

  it("a short run on a terminal prints nothing at all", () => {
    const { stream, written } = recorder(true);
    const line = createProgressLine(stream, "generating", () => 10);
    line.update(step(1));
    line.end();
    expect(written).toEqual([]);
  });
});
