/** `text` safe as HTML text and as a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * http(s) URLs in running text. The characters that usually end a sentence or close a quote
 * after a link are left out of it (`see https://x.example/a.` links `https://x.example/a`).
 */
const URL_IN_TEXT = /https?:\/\/[^\s<>"'«»“”]+/g;
const TRAILING = /[.,;:!?)\]}]+$/;

/**
 * Plain text as HTML: escaped, each paragraph (text between blank lines) a `<p>`, single line
 * breaks kept as `<br>`, and http(s) URLs made links unless `links` is false. Nothing in the
 * text becomes markup.
 */
export function textToHtml(text: string, links = true): string {
  const line = links ? linkedLine : escapeHtml;
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.replace(/^\n+|\n+$/g, ''))
    .filter((p) => p.trim() !== '')
    .map((p) => `<p style="${P_STYLE}">${p.split('\n').map(line).join('<br>\n')}</p>`)
    .join('\n');
}

function linkedLine(line: string): string {
  let html = '';
  let from = 0;
  for (const match of line.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(TRAILING, '');
    const at = match.index;
    html += escapeHtml(line.slice(from, at)) + link(url, url);
    from = at + url.length;
  }
  return html + escapeHtml(line.slice(from));
}

/** A link whose href is an http(s) URL; anything else is shown as text, never as an href. */
export function link(url: string, label: string): string {
  if (!/^https?:\/\//i.test(url)) return escapeHtml(label);
  return `<a href="${escapeHtml(url)}" style="color:#1d4ed8">${escapeHtml(label)}</a>`;
}

/** The signing link as a button (a styled link: mail clients run no scripts and few forms). */
export function button(url: string, label: string): string {
  if (!/^https?:\/\//i.test(url)) return '';
  return (
    `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="display:inline-block;` +
    `background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 24px;` +
    `border-radius:6px">${escapeHtml(label)}</a></p>`
  );
}

export const P_STYLE = 'margin:0 0 16px 0';

/** A whole HTML message: `body` (already HTML) in a plain, narrow column. */
export function htmlPage(options: {
  language: string;
  title: string;
  logoUrl?: string | null;
  company: string;
  body: string;
  footer: string;
}): string {
  const logo =
    options.logoUrl && /^https:\/\//i.test(options.logoUrl)
      ? `<p style="margin:0 0 24px 0"><img src="${escapeHtml(options.logoUrl)}" alt="${escapeHtml(options.company)}" style="max-height:48px;max-width:200px"></p>\n`
      : '';
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(options.language)}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(options.title)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#18181b">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:32px;border-radius:8px">',
    `${logo}${options.body}`,
    `<p style="margin:32px 0 0 0;font-size:12px;color:#71717a">${escapeHtml(options.footer)}</p>`,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
