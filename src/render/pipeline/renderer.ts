import { createHash } from 'node:crypto';
import { DocpipeError } from '../../base/errors/index.js';
import type { Converter } from '../convert/index.js';
import type { Preparer } from '../prepare/index.js';
import { silentLogger, type Logger } from '../../base/log/index.js';
import { startsAsPdf } from '../../formats/sniff/index.js';
import {
  parseStorageKey,
  readRenderSidecar,
  renderKey,
  renderMarkerKey,
  renderPlacesKey,
  sidecarNeeded,
  writeRenderSidecar,
  type RenderSidecar,
  type ValueNotDrawn,
  type Storage,
} from '../storage/index.js';
import type { SignaturePlace } from '../../document/anchors/index.js';
import { placeMarkers, placeTextTags, readingText } from './signature-places.js';
import { tagsNotShown, valueNotShown } from './shown-values.js';
import { charactersNotDrawnNotice, valuesNotDrawn } from './drawn-values.js';
import { docpipeVersion, renderEvidence } from './render-evidence.js';
import { BoundedLru } from '../../base/cache/index.js';
import { renderCacheKey } from './cache-key.js';
import type { DocumentFontFacts } from '../prepare/index.js';
import { embeddedFamilies } from '../../document/harden/index.js';
import { fidelityRefusal, fidelityReport, type FidelityReport } from './fidelity-notices.js';
import type {
  Fidelity,
  RenderInput,
  RenderOptions,
  RenderResult,
  RenderStep,
} from './render-types.js';

export interface RendererDeps {
  preparer: Preparer;
  converter: Converter;
  storage: Storage;
  logger?: Logger;
  /** Producer written into produced PDFs. @defaultValue 'docpipe <version>' */
  producer?: string;
  /** Fidelity of renders whose options do not say (DOCPIPE_STRICT_FIDELITY). @defaultValue 'report' */
  fidelity?: Fidelity;
  /**
   * For tests only: leave the anchors' markers in the PDF, so that the places can be compared
   * with another tool's boxes of the same PDF. Not in the cache key: give such a renderer its
   * own storage. @defaultValue false
   */
  keepAnchorMarkers?: boolean;
}

type Rendered = Omit<RenderResult, 'cached' | 'timings'>;

/**
 * The pipeline: load, sniff, fill (docx with tags), convert, check, store. The same input bytes,
 * tag values and options are answered from storage without converting again. A failed render
 * stores nothing.
 *
 * A render is one stored object, its PDF, under a key made of the hash of everything that went
 * into it. What a cache hit reports (size, SHA-256, pages, fonts, notices) is read from that PDF
 * again, and the fonts the document asks for from its input (the prepare thread's sniff cache
 * usually holds it), so it can never disagree with them, and there is no second object to keep
 * in step: one file written per render rather than two is a few percent of throughput with
 * LibreOffice on every core, while a hit costs a read, a hash and a check (well under a
 * millisecond for W1).
 *
 * Strict fidelity (`fidelity: 'strict'`) refuses a render whose notices say its layout is not
 * the document's (a font replaced by one of other widths, an empty page) before anything is
 * stored. It is part of the cache key, so a strict render never shares with a reporting one.
 */
export class Renderer {
  private readonly inFlight = new Map<
    string,
    { running: Promise<{ meta: Rendered; cached: boolean }>; field: string }
  >();
  /**
   * The fonts each render's document asked for, by render key: a hit on a render this process
   * made needs no preparer round trip to read them again.
   */
  private readonly askedFonts = new BoundedLru<DocumentFontFacts>(ASKED_FONTS_KEPT);
  private readonly logger: Logger;

  constructor(private readonly deps: RendererDeps) {
    this.logger = deps.logger ?? silentLogger;
  }

  async render(
    input: RenderInput,
    tags: unknown,
    given: RenderOptions = {},
  ): Promise<RenderResult> {
    const options = { ...given, fidelity: given.fidelity ?? this.deps.fidelity ?? 'report' };
    const timings: Partial<Record<RenderStep, number>> = {};
    const started = performance.now();
    const hash = renderCacheKey(input.bytes, tags, options, input.name, this.deps.converter.name);
    const field = options.field || 'document';
    // Identical requests in flight share one cache lookup and one conversion; the ones that join
    // count as cached. Joined before the lookup, so that a request whose lookup is slower than
    // another's whole render still joins it rather than converting again.
    const shared = this.inFlight.get(hash);
    if (shared) {
      try {
        const { meta } = await shared.running;
        await this.keep(hash);
        timings.cache = performance.now() - started;
        return { ...reRooted(meta, shared.field, field), cached: true, timings };
      } catch (err) {
        throw renamedField(err, shared.field, field);
      }
    }
    const running = this.lookUpOrProduce(hash, input, tags, options, timings).finally(() =>
      this.inFlight.delete(hash),
    );
    this.inFlight.set(hash, { running, field });
    const { meta, cached } = await running;
    return { ...meta, cached, timings };
  }

  private async lookUpOrProduce(
    hash: string,
    input: RenderInput,
    tags: unknown,
    options: RenderOptions,
    timings: Partial<Record<RenderStep, number>>,
  ): Promise<{ meta: Rendered; cached: boolean }> {
    const started = performance.now();
    const cached = await this.fromCache(hash, input, tags, options);
    timings.cache = performance.now() - started;
    if (cached) {
      // Stored by a strict render that passed, or a reporting one: a reporting render's output
      // is kept for it whatever this request thinks of it.
      refuseIfStrict(cached.notices, options, options.field || 'document');
      await this.keep(hash);
      return { meta: cached, cached: true };
    }
    return { meta: await this.produce(hash, input, tags, options, timings), cached: false };
  }

  /**
   * Removes a rendered PDF and its sidecar, for a failed document set that created it. Outputs
   * that any other request has been given (a cache hit, a shared render) are kept: keys are
   * content hashes, so one output can answer many requests.
   */
  async discard(result: Pick<RenderResult, 'key'>): Promise<void> {
    const parsed = parseStorageKey(result.key);
    if (parsed?.kind !== 'render') throw new Error(`not a render key: ${result.key}`);
    if (await this.deps.storage.stat(renderMarkerKey(parsed.hash))) return;
    // The PDF first: a render is there when its PDF is (see writeRenderSidecar).
    await this.deps.storage.delete(result.key);
    await this.deps.storage.delete(renderPlacesKey(parsed.hash));
  }

  /**
   * Marks an output as relied upon by a request other than the one that made it. Rewritten on
   * every reuse, the marker is also what makes a reused render young again for retention (which
   * ages a render by the newer of its PDF and its marker): no other write, no stat on a hit.
   */
  private async keep(hash: string): Promise<void> {
    await this.deps.storage.put(renderMarkerKey(hash), Buffer.alloc(0), 'application/octet-stream');
  }

  private async fromCache(
    hash: string,
    input: RenderInput,
    tags: unknown,
    options: RenderOptions,
  ): Promise<Rendered | undefined> {
    const key = renderKey(hash);
    const docx = !startsAsPdf(input.bytes);
    // Writes are atomic (a temporary object, then a rename): a PDF that is there is whole. Its
    // places were written before it, so they are read after it, and only then: a miss (the usual
    // answer for values that change with every document) costs one read, not two. A PDF without
    // tags to look for has no places to read.
    const pdf = await this.deps.storage.get(key);
    if (!pdf) return undefined;
    const sidecar =
      docx || options.places ? await readRenderSidecar(this.deps.storage, hash) : NO_SIDECAR;
    if (!sidecar) {
      this.logger.warn({ key }, 'stored render places unreadable; rendering again');
      return undefined;
    }
    let pages: number;
    let report: FidelityReport;
    try {
      const [checked, asked] = await Promise.all([
        this.deps.preparer.checkPdf(pdf, 'document'),
        this.askedFonts.get(hash) ??
          (docx ? this.deps.preparer.documentFonts(input.bytes) : NO_DOCUMENT_FONTS),
      ]);
      pages = checked.pages;
      report = fidelityReport(asked.asked, checked.fonts, checked.emptyPages, asked.embedded);
    } catch (err) {
      // Only a PDF that does not check out is damaged; a failing preparer is no reason to render.
      if (!(err instanceof DocpipeError)) throw err;
      // Damaged in storage (a disk error, a hand edit): rendered again, and overwritten.
      this.logger.warn(
        { key, err: (err as Error).message },
        'stored render unreadable; rendering again',
      );
      return undefined;
    }
    const { places, notShown, notDrawn } = sidecar;
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    const notices = [
      ...report.notices,
      ...notShown.map((tag) => valueNotShown(tag, options.field ?? '')),
      ...notDrawn.map((value) => charactersNotDrawnNotice(value, options.field ?? '')),
    ];
    return {
      key,
      type: 'pdf',
      bytes: pdf.byteLength,
      sha256,
      pages,
      // The key hashes the input's bytes: a hit had the same input, PDF or .docx.
      input: docx ? 'docx' : 'pdf',
      fonts: report.fonts,
      notices,
      ...(places.length > 0 ? { places } : {}),
      evidence: renderEvidence({
        pdf,
        sha256,
        input: input.bytes,
        docx,
        tags,
        fonts: report.fonts,
        pages,
      }),
    };
  }

  private async produce(
    hash: string,
    input: RenderInput,
    tags: unknown,
    options: RenderOptions,
    timings: Partial<Record<RenderStep, number>>,
  ): Promise<Rendered> {
    const { preparer, converter, storage } = this.deps;
    // Failures of the document as a whole name it; without a path, plainly "document".
    const field = options.field || 'document';
    const step = async <T>(name: RenderStep, work: () => Promise<T>): Promise<T> => {
      const t = performance.now();
      try {
        return await work();
      } finally {
        timings[name] = performance.now() - t;
      }
    };
    const prepared = await preparer.prepare(input.bytes, tags, options);
    Object.assign(timings, prepared.timings);
    let pdf: Uint8Array;
    let pages: number;
    let report: FidelityReport;
    let places: SignaturePlace[] = [];
    let notShown: string[] = [];
    let notDrawn: ValueNotDrawn[] = [];
    if (prepared.input === 'pdf') {
      // A given PDF keeps its exact bytes (tag values are for templates and do not apply), but
      // for the text tags taken off it when its places are asked for.
      const checked = await step('check', () => preparer.checkPdf(input.bytes, field));
      pages = checked.pages;
      report = fidelityReport([], checked.fonts, checked.emptyPages);
      pdf = input.bytes;
      if (options.places) {
        const tagged = await step('places', () => placeTextTags(input.bytes, options.field ?? ''));
        pdf = tagged.pdf;
        places = tagged.places;
      }
    } else {
      if (prepared.neutralized.length > 0) {
        const cut = prepared.neutralized.map((n) => ({
          part: n.part,
          type: n.type.split('/').pop(),
          target: n.target,
        }));
        this.logger.info(
          { field, neutralized: cut },
          'external references neutralized before conversion',
        );
      }
      if (prepared.embeddedFonts.length > 0) {
        const removed = prepared.embeddedFonts.map((f) => ({
          part: f.part,
          family: f.family,
          style: f.style,
        }));
        this.logger.info({ field, removed }, 'embedded fonts removed before conversion');
      }
      const facts: DocumentFontFacts = {
        asked: prepared.fonts,
        embedded: embeddedFamilies(prepared.embeddedFonts),
      };
      const docx = prepared.docx;
      const converted = await step('convert', () =>
        converter.convert({
          docx,
          field,
          title: input.name,
          pdfa: options.pdfa,
          place: input.place,
        }),
      );
      const finished = await step('check', async () => {
        const done = await preparer.finishPdf(
          converted,
          field,
          { title: input.name, producer: this.deps.producer ?? defaultProducer() },
          options.pdfa ?? false,
        );
        const report = fidelityReport(prepared.fonts, done.fonts, done.emptyPages, facts.embedded);
        return { ...done, report };
      });
      pdf = finished.pdf;
      pages = finished.pages;
      report = finished.report;
      const { anchors, shown } = prepared;
      // Before the markers' removal, on the same text layer (textLayerOf the same bytes): the
      // pages are read once for both. Nothing to check and no anchors: no text layer at all.
      // The values are checked where a signer will read the PDF (a case's documents ask for
      // places) and where a caller asked for strict fidelity: the text layer costs about 5 ms of
      // CPU, a fifth of a plain convert, which does not pay it. Both are in the cache key.
      if (shown.length > 0 && (options.places === true || options.fidelity === 'strict')) {
        notShown = await step('values', () =>
          readingText(finished.pdf, field, 'document-production-failed', (layer) =>
            tagsNotShown(layer, shown),
          ),
        );
        const missing = notShown.map((tag) => valueNotShown(tag, options.field ?? ''));
        report = { ...report, notices: [...report.notices, ...missing] };
      }
      // Every render: a lookup per character of the values, no text layer.
      notDrawn = valuesNotDrawn(shown);
      if (notDrawn.length > 0) {
        const boxes = notDrawn.map((v) => charactersNotDrawnNotice(v, options.field ?? ''));
        report = { ...report, notices: [...report.notices, ...boxes] };
      }
      if (anchors.length > 0) {
        const placed = await step('places', () =>
          placeMarkers(finished.pdf, anchors, options.field ?? '', this.deps.keepAnchorMarkers),
        );
        pdf = placed.pdf;
        places = placed.places;
      }
      this.askedFonts.set(hash, facts, askedBytes(facts));
    }
    // Before storing: a refused render leaves nothing behind.
    refuseIfStrict(report.notices, options, field);
    const key = renderKey(hash);
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    const meta: Rendered = {
      key,
      type: 'pdf',
      bytes: pdf.byteLength,
      sha256,
      pages,
      input: prepared.input,
      ...report,
      ...(places.length > 0 ? { places } : {}),
      evidence: renderEvidence({
        pdf,
        sha256,
        input: input.bytes,
        docx: prepared.input === 'docx',
        tags,
        fonts: report.fonts,
        pages,
      }),
    };
    await step('store', async () => {
      // Before the PDF: a stored PDF always has its sidecar beside it.
      const sidecar = { places, notShown, notDrawn };
      if (sidecarNeeded(sidecar)) await writeRenderSidecar(storage, hash, sidecar);
      await storage.put(key, pdf, 'application/pdf');
    });
    this.logger.debug(
      { key, pages, input: prepared.input, notices: report.notices.map((n) => n.code) },
      'rendered',
    );
    return meta;
  }
}

function defaultProducer(): string {
  return `docpipe ${docpipeVersion()}`;
}

/** Renders whose asked fonts are kept: a worker's working set of templates and values. */
const ASKED_FONTS_KEPT = { maxEntries: 4096, maxBytes: 4 * 1024 * 1024 };

const NO_DOCUMENT_FONTS: DocumentFontFacts = { asked: [], embedded: [] };

const NO_SIDECAR: RenderSidecar = { places: [], notShown: [], notDrawn: [] };

function askedBytes(facts: DocumentFontFacts): number {
  return [...facts.asked, ...facts.embedded].reduce((sum, f) => sum + 2 * f.length + 16, 64);
}

function refuseIfStrict(
  notices: FidelityReport['notices'],
  options: RenderOptions,
  field: string,
): void {
  if (options.fidelity !== 'strict') return;
  const refusal = fidelityRefusal(notices, field);
  if (refusal) throw refusal;
}

/** A shared render's notices name the first request's document; each joiner gets its own. */
function reRooted(meta: Rendered, from: string, to: string): Rendered {
  if (from === to) return meta;
  const notices = meta.notices.map((n) =>
    (n.code === 'value-not-shown' || n.code === 'characters-not-drawn') &&
    n.field.startsWith(`${from}.`)
      ? { ...n, field: to + n.field.slice(from.length) }
      : n,
  );
  return { ...meta, notices };
}

/** A failure of a shared render names the first request's document; each joiner gets its own. */
function renamedField(err: unknown, from: string, to: string): unknown {
  if (!(err instanceof DocpipeError) || from === to) return err;
  const details = err.details.map((d) => ({
    ...d,
    field:
      d.field === from || d.field.startsWith(`${from}.`)
        ? to + d.field.slice(from.length)
        : d.field,
  }));
  return new DocpipeError(err.slug, details, { cause: err, retryable: err.retryable });
}
