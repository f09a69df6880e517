/**
 * Makes a chart's SVG inert before it is saved or inlined into report.html. Data (model names, task ids)
 * reaches the SVG only as text and attribute values, which vega escapes, so `javascript:` or ` onerror=`
 * in a model name is harmless text: the check reads the markup (elements and attribute names), never the
 * text. Whatever could run script or load a resource is removed, with a warning, instead of failing the
 * report. Control characters in text and attribute values are shown as `\xNN` (`visibleText`): XML
 * forbids most of them, and resvg refuses an SVG that holds one.
 */
import { visibleText } from "../util/visible-text.ts";

/** Elements vega's SVG renderer writes. Anything else (script, foreignObject, a, image, use…) is removed. */
const ELEMENTS = new Set([
  "svg",
  "g",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "title",
  "desc",
  "defs",
  "clipPath",
  "linearGradient",
  "radialGradient",
  "stop",
]);

/** Attributes whose value CSS reads, where `url(…)` can load a resource. */
const CSS_VALUED = /^(style|fill|stroke|clip-path|mask|filter|marker(-start|-mid|-end)?|cursor)$/i;
const EXTERNAL = /url\(\s*['"]?(?!#)|@import|expression\(|javascript:/i;

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=/>"']+(?:\s*=\s*(?:"[^"]*"|'[^']*'))?)*)\s*(\/?)>|<|[^<]+/g;
const ATTRIBUTE = /\s+([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'))?/g;

export interface SafeSvg {
  readonly svg: string;
  /** What was removed, one line each (empty for vega's own output). */
  readonly warnings: readonly string[];
}

function attributes(raw: string, tag: string, warn: (w: string) => void): string {
  let out = "";
  for (const [all, name = "", value = ""] of raw.matchAll(ATTRIBUTE)) {
    if (/^on/i.test(name) || /href$/i.test(name)) warn(`removed attribute ${name} of <${tag}>`);
    else if (CSS_VALUED.test(name) && EXTERNAL.test(value))
      warn(`removed ${name} of <${tag}>: external reference`);
    else out += value === "" ? all : all.slice(0, -value.length) + visibleText(value, "\t\n");
  }
  return out;
}

/** The SVG with everything that could run script or load a resource removed. */
export function sanitizeSvg(svg: string): SafeSvg {
  const warnings: string[] = [];
  const warn = (w: string) => {
    if (!warnings.includes(w)) warnings.push(w);
  };
  const body = svg.replace(/^\s*<\?xml[^>]*>\s*/, "");
  let out = "";
  let skip = 0; // depth inside a removed element
  for (const m of body.matchAll(TOKEN)) {
    const [token, close, tag, attrs = "", selfClose] = m;
    if (tag === undefined) {
      if (token === "<") warn("escaped a stray <");
      else if (token.startsWith("<")) warn("removed a comment, declaration or CDATA section");
      if (skip === 0) out += token === "<" ? "&lt;" : token.startsWith("<") ? "" : visibleText(token, "\t\n");
    } else if (skip > 0) {
      if (selfClose !== "/") skip += close === "/" ? -1 : 1;
    } else if (!ELEMENTS.has(tag)) {
      warn(`removed <${tag}>`);
      if (close !== "/" && selfClose !== "/") skip = 1;
    } else {
      out += close === "/" ? `</${tag}>` : `<${tag}${attributes(attrs, tag, warn)}${selfClose}>`;
    }
  }
  if (!/^<svg[\s>]/.test(out)) {
    warn("not an SVG document");
    return { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>', warnings };
  }
  return { svg: out, warnings };
}
