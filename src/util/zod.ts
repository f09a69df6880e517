/**
 * The zod every module of the package uses: the part of zod's API the package calls, as one namespace.
 * The build bundles this module into one file (`scripts/bundle-zod.mjs`). zod's own entry loads about
 * a hundred modules, and its `z` carries every locale; naming only what is used lets the bundle leave
 * the rest out (600 kB to 160 kB), which a short command pays for in start-up. A schema that needs a
 * part of zod not listed in `zod-api.ts` is a compile error where it is used: add its name there.
 */
export * as z from "./zod-api.ts";
