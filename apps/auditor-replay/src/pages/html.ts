/**
 * Escapes text for HTML element content and attribute values.
 *
 * @param text - any text
 * @returns the escaped text
 * @example escapeHtml('<b>') // '&lt;b&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** The inline style sheet every page shares: readable tables, check colours, one miner page at a time by `:target` (the rest of the report hidden meanwhile). */
export const PAGE_CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem 2rem;color:#1d1d1f;max-width:1200px}
h1{font-size:1.45rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}h3{font-size:1.05rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f5}td.num{text-align:right;font-variant-numeric:tabular-nums}
.hk{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.ok{background:#d4edda}.fail{background:#f8d7da}.skip{color:#777}.invalid{background:#fff3cd}
tr.mismatch td.status{background:#f8d7da}tr.invalid td.status{background:#fff3cd}tr.ok td.status{background:#d4edda}
.verdict{font-weight:bold;padding:.4rem .8rem;display:inline-block;border-radius:4px}.v0{background:#d4edda}.v1{background:#f8d7da}.v2{background:#fff3cd}
.root{border-left:4px solid #c0392b;background:#fdf0ef;padding:.4rem .8rem;margin:.5rem 0}
ul.mm{font-family:ui-monospace,monospace;font-size:12px;padding-left:1.2rem}ul.mm li{margin:2px 0;word-break:break-word}
details{margin:.3rem 0}summary{cursor:pointer}
svg text{font:11px system-ui,sans-serif;fill:#333}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:middle}
.miner-page{display:none}.miner-page:target,.miner-page.standalone{display:block}
body:has(.miner-page:target)>*:not(.miner-page:target){display:none}
.story p{margin:.35rem 0}nav a{margin-right:1rem}
`;

/**
 * Wraps a body into one self-contained HTML document (inline CSS, no script, no external asset).
 *
 * @param title - the page title (escaped here)
 * @param body - the body markup (already escaped)
 * @returns the document
 * @example htmlDocument('report', '<p>ok</p>')
 */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}</style></head><body>
${body}
</body></html>
`;
}

/**
 * An HTML id for a miner's page (hotkeys are base58: safe in ids and fragments).
 *
 * @param hotkey - the miner hotkey
 * @returns `miner-<hotkey>`
 * @example minerAnchor('5F…') // 'miner-5F…'
 */
export function minerAnchor(hotkey: string): string {
  return `miner-${hotkey.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** A colour per series index (deterministic, spread around the hue circle). */
export function seriesColour(i: number): string {
  return `hsl(${Math.round((i * 137.508) % 360)} 65% 40%)`;
}
