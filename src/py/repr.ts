/** Python `repr()` of strings and string lists (tau2 puts a Python list literal in the judge prompt). */
import { pyReprString } from "./builtins.ts";

export const pyStrRepr = pyReprString;

export const pyListRepr = (items: readonly string[]): string => `[${items.map(pyStrRepr).join(", ")}]`;
