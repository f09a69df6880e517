/** Grading progress on the caller's stream (stderr): a bar on a terminal, plain periodic lines in logs. */
import { SingleBar } from "cli-progress";
import { terminalSafe } from "../formats/terminal-text.ts";

export interface Progress {
  start(total: number): void;
  tick(file: string, simulations: number): void;
  stop(): void;
}

/** `everyMs`: the interval between plain lines when `stream` is not a terminal (0 = a line per file). */
export function stderrProgress(stream: NodeJS.WriteStream, everyMs = 2000): Progress {
  if (stream.isTTY) {
    const bar = new SingleBar({
      stream,
      format: "grading {bar} {value}/{total} files | {sims} simulations | {file}",
      hideCursor: true,
      noTTYOutput: true,
    });
    let sims = 0;
    return {
      start: (total) => bar.start(total, 0, { sims, file: "" }),
      tick: (file, n) => {
        sims += n;
        bar.increment(1, { sims, file: terminalSafe(file).slice(-50) });
      },
      stop: () => bar.stop(),
    };
  }
  let done = 0;
  let total = 0;
  let sims = 0;
  let last = 0;
  return {
    start(t) {
      total = t;
      last = Date.now();
      stream.write(`grading ${t} files\n`);
    },
    tick(file, n) {
      done++;
      sims += n;
      if (Date.now() - last >= everyMs || done === total) {
        last = Date.now();
        stream.write(`graded ${done}/${total} files, ${sims} simulations (last: ${terminalSafe(file)})\n`);
      }
    },
    stop() {},
  };
}
