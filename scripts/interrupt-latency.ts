/**
 * `npx tsx scripts/interrupt-latency.ts (--experiment F | --db F) [--after 1000] [--signal SIGTERM] [--html]`
 *
 * How fast does a long `report` stop when asked? Starts it into a temporary folder, sends the signal
 * after `--after` ms, and prints how long the process took to exit after it, with its exit code.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    experiment: { type: "string" },
    db: { type: "string" },
    after: { type: "string", default: "1000" },
    signal: { type: "string", default: "SIGTERM" },
    html: { type: "boolean", default: false },
  },
});
if ((args.experiment === undefined) === (args.db === undefined)) {
  process.stderr.write("interrupt-latency: pass --experiment F or --db F\n");
  process.exit(2);
}
const tmp = mkdtempSync(join(tmpdir(), "interrupt-latency-"));
const source = args.experiment === undefined ? ["--db", args.db] : ["--experiment", args.experiment];
const argv = ["report", ...source, "--out", join(tmp, "report"), ...(args.html ? ["--html"] : [])];
const child = spawn(process.execPath, ["bin/tau-rescore.js", ...(argv as string[])], {
  stdio: ["ignore", "ignore", "pipe"],
});
let stderr = "";
child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
let sentAt: number | null = null;
const timer = setTimeout(() => {
  sentAt = performance.now();
  child.kill(args.signal as NodeJS.Signals);
}, Number(args.after));
child.on("exit", (code, signal) => {
  const exited = performance.now();
  clearTimeout(timer);
  rmSync(tmp, { recursive: true, force: true });
  const how = code === null ? `signal ${signal}` : `code ${code}`;
  if (sentAt === null) console.log(`report finished before the signal (${how})`);
  else console.log(`${args.signal} → exit in ${((exited - sentAt) / 1000).toFixed(2)} s, ${how}`);
  const last = stderr.trim().split("\n").at(-1);
  if (last !== undefined && last !== "") console.log(`last stderr line: ${last}`);
});
