import type { SigningView } from '../../../service/cases/index.js';

/** The page's words; a case in another language gets English until it has its own. */
const WORDS = {
  da: {
    heading: 'Dokumenter til underskrift',
    recipient: 'Modtager',
    status: 'Status',
    pending: 'Afventer',
    signed: 'Underskrevet',
    denied: 'Afvist',
    page: 'Side',
    of: 'af',
    notShown: 'Dokumentet kan ikke vises her.',
    morePages: 'Flere sider end vist her.',
    soon: 'Underskrift på denne side kommer snart.',
    notFoundTitle: 'Linket virker ikke',
    notFound:
      'Dette link til underskrift findes ikke. Tjek at hele linket er kopieret, eller bed afsenderen om et nyt.',
    failedTitle: 'Siden kan ikke vises lige nu',
    failed: 'Prøv igen om lidt.',
  },
  en: {
    heading: 'Documents to sign',
    recipient: 'Recipient',
    status: 'Status',
    pending: 'Pending',
    signed: 'Signed',
    denied: 'Declined',
    page: 'Page',
    of: 'of',
    notShown: 'This document cannot be shown here.',
    morePages: 'More pages than shown here.',
    soon: 'Signing on this page is coming soon.',
    notFoundTitle: 'This link does not work',
    notFound:
      'No signing link like this exists. Check that the whole link was copied, or ask the sender for a new one.',
    failedTitle: 'The page cannot be shown right now',
    failed: 'Please try again in a moment.',
  },
} as const;

type Words = (typeof WORDS)[keyof typeof WORDS];

/** Pages shown per document: a page image each, drawn on request; past this, a note. */
export const MAX_SHOWN_PAGES = 100;

/** The answer headers of every signing page and image: no third party, no referrer, no cache. */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

export function wordsFor(language: string | undefined): Words {
  return language?.toLowerCase().startsWith('da') ? WORDS.da : WORDS.en;
}

/** Text for HTML content and quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * The recipient's page: the case title, their name and status, and each document's pages as
 * images. The image URLs are relative to the page's own (`<token>/documents/...`, the page being
 * `/sign/<token>`), so they follow whichever host the link named. Every value is escaped.
 */
export function signingPage(view: SigningView, token: string): string {
  const w = wordsFor(view.language);
  const documents = view.documents.map((d) => {
    const name = `<h2>${escapeHtml(d.name)}</h2>`;
    if (!d.storageKey || !d.pages)
      return `<section>${name}<p>${escapeHtml(w.notShown)}</p></section>`;
    const shown = Math.min(d.pages, MAX_SHOWN_PAGES);
    const images = Array.from({ length: shown }, (_, i) => {
      const alt = `${d.name}, ${w.page} ${i + 1} ${w.of} ${d.pages}`;
      return `<img src="${escapeHtml(encodeURIComponent(token))}/documents/${d.index}/pages/${i + 1}.png" alt="${escapeHtml(alt)}" loading="lazy">`;
    });
    const more = d.pages > shown ? `<p>${escapeHtml(w.morePages)}</p>` : '';
    return `<section>${name}${images.join('')}${more}</section>`;
  });
  return layout(
    view.language,
    view.title,
    `<h1>${escapeHtml(view.title)}</h1>
<p class="meta">${escapeHtml(w.heading)}</p>
<dl><dt>${escapeHtml(w.recipient)}</dt><dd class="recipient">${escapeHtml(view.recipient.name)}</dd>
<dt>${escapeHtml(w.status)}</dt><dd class="status">${escapeHtml(w[view.recipient.status])}</dd></dl>
${documents.join('\n')}
<p class="meta">${escapeHtml(w.soon)}</p>`,
  );
}

/** The page for a token no recipient has, or one that failed: the same look, no details. */
export function messagePage(kind: 'notFound' | 'failed', language?: string): string {
  const w = wordsFor(language);
  const title = kind === 'notFound' ? w.notFoundTitle : w.failedTitle;
  return layout(
    language ?? 'en',
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(w[kind])}</p>`,
  );
}

function layout(language: string, title: string, body: string): string {
  const lang = /^[A-Za-z-]{2,12}$/.test(language) ? language : 'en';
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;background:#f4f4f5;color:#18181b;font:16px/1.5 system-ui,sans-serif}
main{max-width:52rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.6rem;margin:.5rem 0}
h2{font-size:1.1rem;margin:2rem 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{color:#52525b}dd{margin:0}
.meta{color:#52525b}
img{display:block;width:100%;height:auto;margin:0 0 1rem;background:#fff;box-shadow:0 1px 3px #0003}
</style>
</head>
<body><main>
${body}
</main></body>
</html>
`;
}
