// Runs the thread entry from the TypeScript sources (tests, `tsx`): Node 20 does not pass the parent's
// loader to a worker, so the thread registers tsx itself. Never built into dist/.
import { register } from "tsx/esm/api";

register();
await import("./thread-entry.ts");
