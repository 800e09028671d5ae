// @ts-check
/**
 * The anchors GitHub and npm give a Markdown file's headings: lowercase, punctuation dropped, spaces to
 * hyphens, and `-1`, `-2`, ... after a repeated one. Shared by the workspace's README test and the consumer
 * test of the packed tarballs, so both resolve a `#heading` link alike.
 *
 * @param {string} markdown - the file's text (pass it without fenced code blocks where those may hold `#` lines)
 * @returns {Set<string>} the slugs
 */
export function headingSlugs(markdown) {
  const slugs = new Set();
  for (const match of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = (match[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let slug = base;
    for (let i = 1; slugs.has(slug); i++) slug = `${base}-${i}`;
    slugs.add(slug);
  }
  return slugs;
}
