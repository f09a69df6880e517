/**
 * Text widths from the DejaVu Sans TTF files themselves. Headless vega has no canvas to measure text
 * and guesses 0.8 em per character, which cuts long model names early and misplaces titles; the
 * real advance widths (from the font's `cmap` and `hmtx` tables) make the layout match the PNG.
 */
import { readFileSync } from "node:fs";

interface Font {
  readonly unitsPerEm: number;
  /** Advance width of a code point, in font units. */
  advance(codePoint: number): number;
}

function tableOffsets(buf: Buffer): Map<string, number> {
  const tables = new Map<string, number>();
  const count = buf.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const rec = 12 + 16 * i;
    tables.set(buf.toString("latin1", rec, rec + 4), buf.readUInt32BE(rec + 8));
  }
  return tables;
}

/** Code point → glyph id from a format 4 (BMP) cmap subtable. */
function format4(buf: Buffer, at: number): (cp: number) => number {
  const segCount = buf.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + 2 * segCount + 2;
  const deltas = starts + 2 * segCount;
  const rangeOffsets = deltas + 2 * segCount;
  return (cp) => {
    for (let s = 0; s < segCount; s++) {
      if (cp > buf.readUInt16BE(ends + 2 * s)) continue;
      const start = buf.readUInt16BE(starts + 2 * s);
      if (cp < start) return 0;
      const delta = buf.readInt16BE(deltas + 2 * s);
      const ro = buf.readUInt16BE(rangeOffsets + 2 * s);
      if (ro === 0) return (cp + delta) & 0xffff;
      const glyph = buf.readUInt16BE(rangeOffsets + 2 * s + ro + 2 * (cp - start));
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}

export function loadFont(path: string): Font {
  const buf = readFileSync(path);
  const t = tableOffsets(buf);
  const head = t.get("head");
  const hhea = t.get("hhea");
  const hmtx = t.get("hmtx");
  const cmap = t.get("cmap");
  if (head === undefined || hhea === undefined || hmtx === undefined || cmap === undefined)
    throw new Error(`${path}: not a TrueType font with head/hhea/hmtx/cmap tables`);
  const unitsPerEm = buf.readUInt16BE(head + 18);
  const metrics = buf.readUInt16BE(hhea + 34);
  let glyphOf: ((cp: number) => number) | undefined;
  for (let i = 0; i < buf.readUInt16BE(cmap + 2); i++) {
    const rec = cmap + 4 + 8 * i;
    const sub = cmap + buf.readUInt32BE(rec + 4);
    // Unicode BMP: (3, 1) Windows or (0, 3) Unicode platform.
    const unicode = [buf.readUInt16BE(rec), buf.readUInt16BE(rec + 2)].join(",");
    if ((unicode === "3,1" || unicode === "0,3") && buf.readUInt16BE(sub) === 4) glyphOf = format4(buf, sub);
  }
  if (glyphOf === undefined) throw new Error(`${path}: no Unicode BMP cmap`);
  const lookup = glyphOf;
  const cache = new Map<number, number>();
  return {
    unitsPerEm,
    advance(cp) {
      let w = cache.get(cp);
      if (w === undefined) {
        const glyph = cp > 0xffff ? 0 : lookup(cp);
        // Glyphs past numberOfHMetrics share the last advance width.
        w = buf.readUInt16BE(hmtx + 4 * Math.min(glyph, metrics - 1));
        cache.set(cp, w);
      }
      return w;
    },
  };
}

/** Width in pixels of `text` at `fontSize` px. */
export function textWidth(font: Font, text: string, fontSize: number): number {
  let units = 0;
  for (const ch of text) units += font.advance(ch.codePointAt(0) ?? 0);
  return (units / font.unitsPerEm) * fontSize;
}
