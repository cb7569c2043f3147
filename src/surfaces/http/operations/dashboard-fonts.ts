import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Bull Board's typefaces, IBM Plex Sans and Mono in the weights its page asks a public font
 * service for, as the @fontsource packages ship them (SIL Open Font License). docpipe serves
 * them itself: a dashboard on a closed network gets its fonts, and no third party learns who
 * looks at it.
 */
const FACES = [
  { family: '@fontsource/ibm-plex-sans', weights: [400, 500, 600] },
  { family: '@fontsource/ibm-plex-mono', weights: [400, 500] },
] as const;

export interface DashboardFonts {
  /** One stylesheet of every face; its font URLs are `fonts/<file>`, relative to it. */
  css: string;
  /** Each font file the stylesheet names, by file name: where it lies on disk. */
  files: ReadonlyMap<string, string>;
}

const FONT_URL = /url\(\.\/files\/([\w.-]+\.woff2?)\)/g;

/** The stylesheet and font files, read once from the installed packages. */
export function loadDashboardFonts(): DashboardFonts {
  const require = createRequire(import.meta.url);
  const files = new Map<string, string>();
  const sheets: string[] = [];
  for (const { family, weights } of FACES) {
    const folder = dirname(require.resolve(`${family}/package.json`));
    for (const weight of weights) {
      const css = readFileSync(join(folder, `${weight}.css`), 'utf8');
      sheets.push(
        css.replace(FONT_URL, (_match, file: string) => {
          files.set(file, join(folder, 'files', file));
          return `url(fonts/${file})`;
        }),
      );
    }
  }
  return { css: sheets.join('\n'), files };
}

/**
 * What the board's page may load, said to the browser as its Content-Security-Policy: everything
 * from docpipe's origin, nothing from any other, so that an asset a later Bull Board links from
 * elsewhere is refused by the browser rather than fetched. Bull Board styles elements inline and
 * shows data: images; it runs no inline script (its UI config is a JSON block, not run).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** Any `<link>` whose address leaves the page's origin (`https://…`, `//…`), with what follows it. */
const OFF_ORIGIN_LINK = /<link\b[^>]*\bhref="(?:[a-z][\w+.-]*:)?\/\/[^"]*"[^>]*>\s*/gi;

/**
 * The board's page with every link to another origin dropped (Bull Board's public font
 * stylesheet and any preconnect to it) and docpipe's own font stylesheet linked instead. The page
 * has `<base href="/admin/queues/">`, so `fonts.css` is served beside it.
 */
export function withLocalFonts(html: string): string {
  const local = '<link href="fonts.css" rel="stylesheet">';
  const kept = html.replace(OFF_ORIGIN_LINK, '');
  return kept.includes('</head>') ? kept.replace('</head>', `${local}</head>`) : local + kept;
}
