// Worker threads start without the main thread's TypeScript loader: register tsx, then load.
import { register } from "tsx/esm/api";

register();
await import("../cli/grading-thread.ts");
