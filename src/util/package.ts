/** This tool's version: package.json's (a test checks), in run ids, `--version` and the curated sets' names. */
export const TOOL_VERSION = "0.1.0";
