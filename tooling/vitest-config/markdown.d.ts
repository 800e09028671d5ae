/** The anchors GitHub and npm give a Markdown file's headings (lowercase, punctuation dropped, spaces to hyphens, `-n` after a repeat). */
export declare function headingSlugs(markdown: string): Set<string>;
