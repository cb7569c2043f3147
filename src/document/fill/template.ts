import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import { damagedXmlOf, escapeXml, readXmlPart } from '../../formats/opc/index.js';
import type { DocxPackage } from '../../formats/sniff/index.js';
import { writeZip, type ZipItem } from '../../formats/zip/index.js';
import {
  allowRenderAgain,
  checkDocxtemplaterInternals,
  compiledFiles,
  filesOfContentType,
  type CompiledFiles,
} from './docxtemplater-internals.js';
import {
  isTemplateError,
  templateProblemDetails,
  templateProblems,
  type TemplateProblem,
} from './template-errors.js';
import {
  CURRENT_SCOPE_TAG,
  collectFields,
  filesInOrder,
  walkTags,
  type TemplateField,
} from '../fields/index.js';
import type { Delimiters } from './delimiters.js';
import { ListRow, type ResolvedCell } from '../values/index.js';
import type { PlacedAnchor } from '../anchors/index.js';
import { anchorModule, placeAnchors } from './anchor-module.js';
import { anchorProblems, type AnchorProblem } from './anchor-problems.js';
import { normalizeTagName, type ResolvedTag } from '../values/index.js';

export type { Delimiters };

checkDocxtemplaterInternals();

export const DEFAULT_DELIMITERS: Readonly<Delimiters> = Object.freeze({ start: '{', end: '}' });

/** A template compiled once; render it with values (as often as needed), or read its fields. */
export interface CompiledTemplate {
  readonly pkg: DocxPackage;
  readonly fields: TemplateField[];
  readonly compiled: CompiledFiles;
  /**
   * The anchors every render places, in document order: the same markers each time. Empty when
   * any anchor cannot be placed (`anchorProblems` says why).
   */
  readonly anchors: readonly PlacedAnchor[];
  /** Anchors the template holds that fill cannot place; fill refuses the template for them. */
  readonly anchorProblems: readonly AnchorProblem[];
  /**
   * What keeping this template costs, in bytes: the XML docxtemplater holds plus the archive it
   * copies binary parts from.
   */
  readonly retainedBytes: number;
  /**
   * Fills `values` in and returns the .docx. May be called again while `reusable`: every call
   * renders from the compiled template, never from an earlier call's output.
   */
  /** The filled .docx; with `compress` false its changed parts are stored, not deflated. */
  render(values: Map<string, ResolvedTag>, field: string, compress?: boolean): Buffer;
  /** False once a render failed (it may have left state behind): compile the template again. */
  readonly reusable: boolean;
}

/** Thrown for a broken template, carrying every problem for the CLI's richer output. */
export class TemplateBrokenError extends DocpipeError {
  constructor(
    readonly problems: TemplateProblem[],
    field: string,
    extra: FailureDetail[] = [],
  ) {
    super('document-production-failed', [...templateProblemDetails(problems, field), ...extra]);
  }
}

/**
 * Compiles a sniffed .docx package with docxtemplater. docxtemplater only ever sees the XML
 * parts sniffing inflated and checked (through a fresh PizZip), so it never inflates untrusted
 * bytes itself; images and other binary parts are copied to the output still compressed.
 */
export function compileTemplate(
  pkg: DocxPackage,
  delimiters: Delimiters,
  field: string,
): CompiledTemplate {
  const originals = new Map<string, string>();
  const zip = new PizZip();
  let retainedBytes = pkg.archive.byteLength;
  for (const name of pkg.xmlParts) {
    const text = readXmlPart(pkg.archive, name);
    originals.set(name, text);
    retainedBytes += text.length;
    zip.file(name, text);
  }
  const state: { values: Map<string, ResolvedTag> } = { values: new Map() };
  let doc: Docxtemplater;
  try {
    doc = new Docxtemplater(zip, {
      delimiters: { start: delimiters.start, end: delimiters.end },
      paragraphLoop: true,
      linebreaks: true,
      errorLogging: false,
      stripInvalidXMLChars: true,
      // `{=[[ ]]=}` would let a template switch delimiters mid-document, and reads any tag
      // that starts with '=' (such as `{=姓名}`) as such a switch.
      syntax: { changeDelimiterPrefix: null },
      parser: (tag: string) => valueParser(normalizeTagName(tag), state),
      modules: [endnotesModule(), anchorModule()],
      nullGetter: () => '',
    });
  } catch (err) {
    if (!isTemplateError(err)) throw damagedXmlOf(err) ?? err;
    throw new TemplateBrokenError(
      templateProblems(err, pkg, (f) => originals.get(f), delimiters),
      field,
    );
  }
  const compiled = compiledFiles(doc);
  const empty = emptyTags(compiled, pkg, originals, delimiters);
  if (empty.length > 0) throw new TemplateBrokenError(empty, field);
  const fields = collectFields(compiled, pkg);
  const placed = placeAnchors(compiled, filesInOrder(compiled, pkg));
  const unplaced = anchorProblems(placed.unplaced, pkg, (f) => originals.get(f), delimiters);
  let rendered = false;
  let reusable = true;
  return {
    pkg,
    fields,
    compiled,
    anchors: unplaced.length > 0 ? [] : placed.anchors,
    anchorProblems: unplaced,
    retainedBytes,
    get reusable() {
      return reusable;
    },
    render(values, renderField, compress = true) {
      if (!this.reusable) throw new Error('this compiled template must be compiled again');
      // render() writes every templated file afresh from the compiled parts; only a flag
      // refuses a second call. The corpus test fills every template cached and afresh and
      // compares the bytes (test/integration/corpus-templates.test.ts).
      if (rendered) allowRenderAgain(doc);
      rendered = true;
      state.values = values;
      try {
        doc.render();
      } catch (err) {
        reusable = false;
        if (!isTemplateError(err)) throw err;
        throw new TemplateBrokenError(
          templateProblems(err, pkg, (f) => originals.get(f), delimiters),
          renderField,
        );
      } finally {
        // Values are not kept past the call that brought them.
        state.values = new Map();
      }
      return writeOutput(pkg, zip, originals, compress);
    },
  };
}

const ENDNOTES_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml';

/**
 * docxtemplater fills headers, footers, footnotes and comments but not endnotes; this adds the
 * endnotes parts to the files it templates. It never decides the file type itself.
 */
function endnotesModule(): Docxtemplater.DXT.Module {
  return {
    name: 'DocpipeEndnotesModule',
    getFileType({ doc }: { doc: Docxtemplater }) {
      for (const target of filesOfContentType(doc, ENDNOTES_CONTENT_TYPE)) doc.targets.push(target);
      return undefined;
    },
  };
}

/** `{}` or `{ }` names nothing; docxtemplater accepts it, a template author meant something. */
function emptyTags(
  compiled: CompiledFiles,
  pkg: DocxPackage,
  originals: Map<string, string>,
  delimiters: Delimiters,
): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  walkTags(compiled, pkg, (part, file) => {
    if (normalizeTagName(part.value) !== '') return;
    const located = templateProblems(
      {
        properties: {
          id: 'empty_tag',
          xtag: part.value,
          file,
          offset: part.offset,
          explanation: 'Empty tag: it names no field',
        },
      },
      pkg,
      (f) => originals.get(f),
      delimiters,
    );
    problems.push(...located);
  });
  return problems;
}

function valueParser(
  tag: string,
  state: { values: Map<string, ResolvedTag> },
): Docxtemplater.DXT.Parser {
  return {
    get(scope: unknown, context: Docxtemplater.DXT.ParserContext): unknown {
      if (tag === CURRENT_SCOPE_TAG) return typeof scope === 'string' ? scope : '';
      // docxtemplater asks the innermost scope first and moves outward while the answer is
      // undefined: a list row answers its own cells, the outermost scope the TagInputs. Any other
      // scope is a shown section's, which is its parent's again.
      let value: ResolvedCell | undefined;
      if (scope instanceof ListRow) value = scope.cells.get(tag);
      else if (context.num === 0) value = state.values.get(tag);
      if (!value) return undefined;
      const module = context.meta?.part?.module;
      if (module === 'loop') return value.rows ?? value.truthy;
      // A list is refused as a placeholder before rendering; should one get here, it shows nothing.
      if (value.rows) return '';
      // A raw-XML tag ({@tag}) would insert its value as markup. Values are data, so it gets a
      // paragraph holding the escaped text instead.
      if (module === 'rawxml') return rawTextParagraph(value.text);
      return value.text;
    },
  };
}

function rawTextParagraph(text: string): string {
  const runs = text
    .split('\n')
    .map((line) => `<w:t xml:space="preserve">${escapeXml(line)}</w:t>`)
    .join('<w:br/>');
  return `<w:p><w:r>${runs}</w:r></w:p>`;
}

function writeOutput(
  pkg: DocxPackage,
  zip: PizZip,
  originals: Map<string, string>,
  compress: boolean,
): Buffer {
  const items: ZipItem[] = [];
  const written = new Set<string>();
  for (const entry of pkg.archive.entries) {
    written.add(entry.name);
    const original = originals.get(entry.name);
    const now = original === undefined ? undefined : zip.file(entry.name)?.asText();
    if (now !== undefined && now !== original) {
      // Re-encoded as UTF-8; a part that declared UTF-16 (in any spelling sniffing accepts)
      // must now say so.
      const text = now.replace(
        /^(<\?xml[^>]*encoding\s*=\s*["'])utf-?16(?:le|be)?(["'])/i,
        '$1UTF-8$2',
      );
      items.push({ name: entry.name, data: Buffer.from(text, 'utf8') });
    } else {
      items.push({ name: entry.name, from: pkg.archive, entry });
    }
  }
  for (const name of Object.keys(zip.files)) {
    const file = zip.files[name];
    if (written.has(name) || !file || file.dir) continue;
    items.push({ name, data: Buffer.from(file.asText(), 'utf8') });
  }
  return writeZip(items, { compress });
}
