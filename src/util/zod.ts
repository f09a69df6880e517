/**
 * The zod every module of the package uses. The build bundles this module into one file
 * (`scripts/bundle-zod.mjs`): zod's own entry loads about a hundred modules, every locale among them,
 * which cost a short command about as much start-up as Node itself.
 */
export { z } from "zod";
