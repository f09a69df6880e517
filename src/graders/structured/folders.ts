/** The repository's requirement fixtures and policy clauses: the structured grader's defaults. */
import { fileURLToPath } from "node:url";

export const BUILTIN_REQUIREMENTS_DIR = fileURLToPath(new URL("../../../requirements", import.meta.url));
export const BUILTIN_POLICIES_DIR = fileURLToPath(new URL("../../../policies", import.meta.url));
