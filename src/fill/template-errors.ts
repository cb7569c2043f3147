import type { FailureDetail } from '../errors/index.js';
import { unescapeXml } from '../opc/index.js';
import type { DocxPackage } from '../sniff/index.js';
import { PART_ORDER, partKind } from './parts.js';

/** One problem docxtemplater found in a template, in terms a template author can act on. */
export interface TemplateProblem {
  /** docxtemplater's error id: `unclosed_tag`, `unopened_tag`, `unclosed_loop`, ... */
  id: string;
  tag: string;
  part: string;
  file: string;
  excerpt: string;
  explanation: string;
  /** Where in the part's text docxtemplater found it: two places for a pair of section tags. */
  offsets: number[];
}

interface DxtErrorLike {
  message?: string;
  properties?: {
    id?: string;
    xtag?: string;
    file?: string;
    offset?: number | number[];
    explanation?: string;
    errors?: DxtErrorLike[];
  };
}

/** Whether an error came from docxtemplater's template checks rather than from our code. */
export function isTemplateError(err: unknown): boolean {
  const e = err as { name?: unknown; properties?: { id?: unknown } } | undefined;
  const name = e?.name;
  if (name === 'TemplateError' || name === 'XTTemplateError' || name === 'RenderingError')
    return true;
  // docxtemplater throws XML it cannot read (a stray end tag) as its own internal error; the
  // fault is the template's, not docpipe's.
  return name === 'InternalError' && e?.properties?.id === 'malformed_xml';
}

const EXCERPT_BEFORE = 25;
const EXCERPT_AFTER = 40;

/** Turns docxtemplater's (multi) error into every problem, with part and surrounding text. */
export function templateProblems(
  err: unknown,
  pkg: DocxPackage,
  xmlOf: (file: string) => string | undefined,
): TemplateProblem[] {
  const e = err as DxtErrorLike;
  const list = e.properties?.errors?.length ? e.properties.errors : [e];
  const texts = new Map<string, string>();
  const problems = list.map((item) => {
    const p = item.properties ?? {};
    const file = p.file ?? '';
    let text = texts.get(file);
    if (text === undefined) {
      text = visibleText(xmlOf(file) ?? '');
      texts.set(file, text);
    }
    const offset = Array.isArray(p.offset) ? p.offset[0] : p.offset;
    return {
      id: p.id ?? 'template_error',
      tag: p.xtag ?? '',
      part: file ? partKind(pkg, file) : 'other',
      file,
      excerpt: excerpt(text, offset, p.xtag ?? ''),
      explanation: p.explanation ?? item.message ?? 'template error',
      offsets: (Array.isArray(p.offset) ? p.offset : [p.offset]).filter(
        (o): o is number => typeof o === 'number',
      ),
    };
  });
  // Body first, then headers, footers and the rest, as a reader goes through the document.
  return problems.sort((a, b) => PART_ORDER.indexOf(a.part) - PART_ORDER.indexOf(b.part));
}

export function templateProblemDetails(
  problems: TemplateProblem[],
  field: string,
): FailureDetail[] {
  return problems.map((p) => ({
    field,
    message: `${p.explanation}${p.file ? ` in ${p.part} (${p.file})` : ''}${p.excerpt ? `, near "${p.excerpt}"` : ''}`,
  }));
}

/**
 * The text docxtemplater measures offsets in: the content of text runs (w:t, a:t) in document
 * order, without separators.
 */
function visibleText(xml: string): string {
  let out = '';
  for (const m of xml.matchAll(/<(?:w|a|m):t(?:\s[^>]*)?>([^<]*)<\/(?:w|a|m):t>/g))
    out += unescapeXml(m[1] ?? '');
  if (out) return out;
  // Property parts hold their text directly in their elements.
  return unescapeXml(xml.replace(/<[^>]*>/g, ''));
}

function excerpt(text: string, offset: number | undefined, tag: string): string {
  if (!text) return '';
  let at = typeof offset === 'number' && offset >= 0 && offset <= text.length ? offset : -1;
  if (tag && (at === -1 || !text.slice(Math.max(0, at - 5), at + tag.length + 10).includes(tag))) {
    const found = text.indexOf(tag);
    if (found !== -1) at = found;
  }
  if (at === -1) at = 0;
  const start = Math.max(0, at - EXCERPT_BEFORE);
  const end = Math.min(text.length, at + EXCERPT_AFTER);
  const body = text.slice(start, end).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
