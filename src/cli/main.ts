/** The `tau-rescore` process: the real stdout, stderr, environment and signals, handed to `runCli`. */
import { stopOpenStores } from "../store/open-stores.ts";
import { removeVariantOverlays } from "../util/overlay-root.ts";
import type { Signals } from "./io.ts";
import { runCli } from "./program.ts";

// However the process ends (a signal's handler exits through here, a closed pipe): the queries of open
// stores are stopped, as `process.exit` waits for a running one, and the variant overlays, this
// process's own, are removed.
process.on("exit", () => {
  stopOpenStores();
  removeVariantOverlays();
});

// A closed pipe (`tau-rescore ... | head`) is a normal way to stop reading, not an error.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

const signals: Signals = {
  once(signal, handler) {
    process.once(signal, handler);
    return () => process.removeListener(signal, handler);
  },
  onExit(hook) {
    process.on("exit", hook);
    return () => process.removeListener("exit", hook);
  },
  exit: (code) => process.exit(code),
};

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signals,
  stdin: process.stdin,
  today: () => new Date().toISOString().slice(0, 10),
});
