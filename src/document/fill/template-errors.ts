import type { FailureDetail } from '../../base/errors/index.js';
import type { DocxPackage } from '../../formats/sniff/index.js';
import { PartParagraphs, type ParagraphSpot } from './part-paragraphs.js';
import { PART_ORDER, partKind, type PartKind } from '../fields/index.js';
import { delimiterHint, tagSpan } from './tag-span.js';
import type { Delimiters } from './delimiters.js';

/** One problem docxtemplater found in a template, in terms a template author can act on. */
export interface TemplateProblem {
  /** docxtemplater's error id: `unclosed_tag`, `unopened_tag`, `unclosed_loop`, ... */
  id: string;
  /** The tag's name as far as its paragraph holds it (docxtemplater's reaches into the next). */
  tag: string;
  part: string;
  file: string;
  /** The text around the problem, never past the end of its paragraph. */
  excerpt: string;
  explanation: string;
  /** Where in the part's text docxtemplater found it: two places for a pair of section tags. */
  offsets: number[];
  /**
   * The paragraphs of the part it is in, counted from 1 as `docpipe lint` counts them; none
   * when it is in none (a document property).
   */
  paragraphs?: number[];
  /** What the author may have meant, when the problem looks like a known mistake. */
  hint?: string;
  /** On a tag written with its delimiters doubled (`{{name}}` for `{ }`): those delimiters. */
  doubled?: Delimiters;
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

/**
 * Turns docxtemplater's (multi) error into every problem, each with its part, its paragraph and
 * the text around it, in plain words for the errors of tags and delimiters.
 */
export function templateProblems(
  err: unknown,
  pkg: DocxPackage,
  xmlOf: (file: string) => string | undefined,
  delimiters: Delimiters,
): TemplateProblem[] {
  const e = err as DxtErrorLike;
  const list = e.properties?.errors?.length ? e.properties.errors : [e];
  // A part's text is read once per failure, however many problems it has.
  const parts = new Map<string, PartParagraphs>();
  const texts = (file: string) => {
    let map = parts.get(file);
    if (!map) parts.set(file, (map = new PartParagraphs(xmlOf(file) ?? '')));
    return map;
  };
  const problems = withoutFallbackCopies(
    list.map((item) => oneProblem(item, pkg, texts, delimiters)),
  );
  // Body first, then headers, footers and the rest, as a reader goes through the document.
  problems.sort((a, b) => order(a) - order(b));
  // Once is enough: a template written for {{ }} has the mistake at every tag.
  let hinted = false;
  for (const problem of problems) {
    if (problem.hint && hinted) delete problem.hint;
    hinted ||= problem.hint !== undefined;
  }
  return problems;
}

const order = (p: TemplateProblem) => PART_ORDER.indexOf(p.part as PartKind);

/** A problem, and whether it is in Word's fallback copy of a text box. */
interface Found {
  problem: TemplateProblem;
  copy: boolean;
}

/**
 * Every problem comes of tags written with doubled delimiters: a template made for `{{ }}`
 * filled with `{ }`. One problem says so, with the delimiter hint, instead of two per tag.
 */
function oneCause(problems: TemplateProblem[], { start, end }: Delimiters): TemplateProblem {
  const first = problems[0]!;
  const tags = problems.filter((p) => p.id === 'duplicate_open_tag').length;
  const pair = `${start}${start} ${end}${end}`;
  return {
    ...first,
    id: 'doubled_delimiters',
    explanation: `${tags} tags are written with "${pair}" delimiters, but the template is filled with "${start} ${end}", so each reads as a broken tag; the first is`,
    hint: `if the template uses "${pair}", set "delimiters": "${pair}" in its document.json or pass --delimiters "${pair}"; else write its tags ${start}name${end}`,
  };
}

/**
 * Word keeps a text box twice (mc:Choice, and mc:Fallback for older readers), and docxtemplater
 * reports a problem in each copy: the copy's is left out when the original has it.
 */
function withoutFallbackCopies(found: Found[]): TemplateProblem[] {
  const key = (p: TemplateProblem) => `${p.id}\u0000${p.file}\u0000${p.excerpt}`;
  const originals = new Set(found.filter((f) => !f.copy).map((f) => key(f.problem)));
  return found.filter((f) => !f.copy || !originals.has(key(f.problem))).map((f) => f.problem);
}

function oneProblem(
  item: DxtErrorLike,
  pkg: DocxPackage,
  texts: (file: string) => PartParagraphs,
  delimiters: Delimiters,
): Found {
  const p = item.properties ?? {};
  const file = p.file ?? '';
  const id = p.id ?? 'template_error';
  const xtag = p.xtag ?? '';
  const offsets = (Array.isArray(p.offset) ? p.offset : [p.offset]).filter(
    (o): o is number => typeof o === 'number',
  );
  const map = file ? texts(file) : undefined;
  const spots = map
    ? offsets.map((o) => map.locate(o)).filter((s): s is ParagraphSpot => s !== undefined)
    : [];
  const base: Pick<TemplateProblem, 'id' | 'part' | 'file' | 'offsets' | 'paragraphs'> = {
    id,
    part: file ? partKind(pkg, file) : 'other',
    file,
    offsets,
    paragraphs: [
      ...new Set(spots.map((s) => s.paragraph.index).filter((i): i is number => i !== null)),
    ],
  };
  // The location follows the explanation: docxtemplater's own may end its sentence.
  const fallback = (p.explanation ?? item.message ?? 'template error').replace(/\.\s*$/, '');
  const spot = spots[0];
  // Offsets that fall in no text (docxtemplater has none for some errors) leave the excerpt out.
  if (!spot)
    return { problem: { ...base, tag: xtag, excerpt: '', explanation: fallback }, copy: false };
  const span = tagSpan(id, spot, delimiters);
  const text = spot.paragraph.text;
  const shown = span ? text.slice(span.from, span.to) : '';
  const doubledHint = id.startsWith('duplicate_') ? delimiterHint(shown, delimiters) : undefined;
  const hint = id === 'duplicate_open_tag' ? doubledHint : undefined;
  const problem: TemplateProblem = {
    ...base,
    tag: id === 'unclosed_tag' && span ? shown.slice(delimiters.start.length) : xtag,
    excerpt: paragraphExcerpt(text, span?.from ?? spot.at, span?.to ?? spot.at),
    explanation: plainExplanation(id, shown, delimiters) ?? fallback,
    ...(hint ? { hint } : {}),
    ...(doubledHint ? { doubled: delimiters } : {}),
  };
  return { problem, copy: spot.paragraph.inFallback };
}

/** docxtemplater's explanations of delimiter errors quote a tag cut at 30 characters; ours whole. */
function plainExplanation(
  id: string,
  shown: string,
  { start, end }: Delimiters,
): string | undefined {
  if (!shown) return undefined;
  switch (id) {
    case 'unclosed_tag':
      return `The tag "${shown}" is not closed: "${end}" is missing after it`;
    case 'unopened_tag':
      return `The tag "${shown}" is not opened: "${start}" is missing before it`;
    case 'duplicate_open_tag':
      return `The tag "${shown}" opens with "${start}" twice`;
    case 'duplicate_close_tag':
      return `The tag "${shown}" closes with "${end}" twice`;
    default:
      return undefined;
  }
}

/**
 * The problems as failure details, one each; when every one comes of tags written with doubled
 * delimiters (a template made for `{{ }}` filled with `{ }`), one detail says so instead of two
 * per tag. Lint takes the problems themselves and reports that cause its own way.
 */
export function templateProblemDetails(
  problems: TemplateProblem[],
  field: string,
): FailureDetail[] {
  const delimiters = problems[0]?.doubled;
  const shown =
    delimiters && problems.length > 2 && problems.every((p) => p.doubled)
      ? [oneCause(problems, delimiters)]
      : problems;
  return shown.map((p) => ({ field, message: problemMessage(p) }));
}

/**
 * `The tag "{name" is not closed: "}" is missing after it in body paragraph 3
 * (word/document.xml), near "Dear {name and welcome"`.
 */
function problemMessage(p: TemplateProblem): string {
  const list = p.paragraphs ?? [];
  const paragraphs =
    list.length === 0
      ? ''
      : list.length === 1
        ? ` paragraph ${list[0]}`
        : ` paragraphs ${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
  const where = p.file ? ` in ${p.part}${paragraphs} (${p.file})` : '';
  const near = p.excerpt ? `, near "${p.excerpt}"` : '';
  return `${p.explanation}${where}${near}${p.hint ? `; ${p.hint}` : ''}`;
}

/**
 * The paragraph's (or property's) text around `[from, to)`, cut at whole words where it can be,
 * spaces collapsed, `…` where text was left out.
 */
function paragraphExcerpt(text: string, from: number, to: number): string {
  let start = Math.max(0, from - EXCERPT_BEFORE);
  let end = Math.min(text.length, Math.max(to, from + EXCERPT_AFTER));
  if (start > 0) {
    const space = text.slice(start, from).search(/\s/);
    if (space !== -1) start += space + 1;
  }
  if (end < text.length) {
    const space = text.slice(Math.max(to, from), end).search(/\s\S*$/);
    if (space !== -1) end = Math.max(to, from) + space;
  }
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
