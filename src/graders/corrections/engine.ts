/** The corrected grader's code: `grader.ts` imports it when a run selects the grader. */
export { gradeTau3 } from "../tau3/evaluate.ts";
export { correctTask } from "./apply.ts";
export { loadCorrectionsDir } from "./builtin.ts";
export { evaluateNlCurated } from "./nl-curated.ts";
