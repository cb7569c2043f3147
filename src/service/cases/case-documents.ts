import { DocpipeError, type Failure, type FailureDetail } from '../../base/errors/index.js';
import { anchorField, anchorName, type SignaturePlace } from '../../document/anchors/index.js';
import { companyLibrary, type DocumentLibrary } from '../../document/library/index.js';
import type { TagInput } from '../../document/values/index.js';
import type {
  DocpipeClient,
  DocumentInput,
  DocumentJobResult,
  RequestOptions,
} from '../../jobs/queue/index.js';
import { noteworthyNotices, type RenderEvidence } from '../../render/pipeline/index.js';
import type { DocumentNotice } from './case-answer.js';
import type { Storage } from '../../render/storage/index.js';
import type { CaseInput } from './case-input.js';
import { caseDocumentKey, discardRender } from './case-storage.js';
import { caseDocumentUrl, notStored } from './case-document-url.js';
import { givenPlaceProblems, pageSizesOf, storedPlace } from './case-places.js';

/** A case document ready to be written: its stored PDF (a case's own copy) or its URL. */
export interface ProducedDocument {
  index: number;
  name: string;
  source: 'content' | 'url' | 'library';
  storageKey: string | null;
  url: string | null;
  sha256: string | null;
  bytes: number | null;
  pages: number | null;
  libraryDocumentId: string | null;
  libraryVersionId: string | null;
  /** Where the signers sign: the anchors of a template, the text tags of a PDF; empty: none. */
  places: SignaturePlace[];
  /** v2 `documentMustBeRead`. */
  mustBeRead: boolean;
  /** The render's evidence (hashes, fonts, pages, versions); null for a URL document. */
  evidence: RenderEvidence | null;
}

export interface ProduceContext {
  company: string;
  caseId: string;
  client: Pick<DocpipeClient, 'render' | 'renderDocumentSet'>;
  storage: Storage;
  library: DocumentLibrary;
  request: RequestOptions;
  /** The base of the URLs this docpipe issues: a `url` under it is one of its stored documents. */
  publicUrl: string;
  /** The secret of its signed download URLs; absent: such a URL is refused, not taken. */
  signingSecret?: string;
  /** The clock signed URLs expire by. @defaultValue now */
  now?: Date;
}

/** What rule 3 made, and how to take it back if the case is not written after all. */
export interface ProducedDocuments {
  documents: ProducedDocument[];
  /**
   * What the renders said a reader should know (a value not shown, characters no font draws, a
   * font replaced, an empty page), each at its document's place in the case.
   */
  notices: DocumentNotice[];
  /** Removes the case's copies and the renders this request made. Never throws. */
  discard(): Promise<void>;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * spec 4.4's documents, all of a case at once: `content` (sniffed: a PDF or a real .docx, a
 * .docx filled with the tags and converted), a `url` docpipe issued (an upload, a render, a
 * case's document: read from storage, never over HTTP, and produced like `content`, since spec
 * 4.3 makes an upload's url a document source) and library documents (looked up first, so that a
 * missing document or version names `documents[i]`; filled strictly, every field must get a
 * value) go through the pipeline as one document set; any other `url` is kept by reference and
 * never fetched, and refuses `tags` it could not be filled with (case-document-url.ts says
 * which URLs are docpipe's and whose). Every failure of every document comes back in one
 * DocpipeError, the first failing document's slug with every failing document's details. The
 * PDFs are copied to the case's own keys; nothing stays stored when this fails.
 */
export async function produceDocuments(
  body: CaseInput,
  context: ProduceContext,
): Promise<ProducedDocuments> {
  const given = body.documents ?? [];
  const failures: { index: number; failure: Failure }[] = [];
  const inputs: { index: number; input: DocumentInput }[] = [];
  // Each document's reference is resolved at once (storage, the library): a case of several
  // documents waits for the slowest, not for their sum. Their order is kept.
  const prepared = await Promise.all(
    given.map(async (doc, index) => {
      const mine = {
        failures: [] as { index: number; failure: Failure }[],
        inputs: [] as { index: number; input: DocumentInput }[],
      };
      const field = `documents[${index}]`;
      const tags: TagInput[] | undefined = doc.tags ?? body.tags;
      if (doc.url !== undefined) {
        const input = await urlInput(doc.url, doc.name, doc.tags !== undefined, field, context);
        if ('failure' in input) mine.failures.push({ index, failure: input.failure });
        else if (!input.input && doc.places !== undefined)
          mine.failures.push({
            index,
            failure: {
              error: 'validation-failed',
              details: [
                {
                  field: `${field}.places`,
                  message:
                    "places need a document docpipe has read: this url is another host's, kept by reference, so its pages are not known. Send the PDF as content, or upload it and send the url that answers",
                },
              ],
            },
          });
        else if (input.input)
          mine.inputs.push({
            index,
            input: { ...input.input, ...(tags ? { tags } : {}), options: FIND_PLACES },
          });
        return mine;
      }
      if (doc.content !== undefined) {
        const text = doc.content.replace(/\s+/g, '');
        if (!BASE64.test(text) || text.length % 4 !== 0) {
          mine.failures.push({
            index,
            failure: {
              error: 'validation-failed',
              details: [{ field: `${field}.content`, message: 'is not base64' }],
            },
          });
          return mine;
        }
        const content = Buffer.from(text, 'base64');
        mine.inputs.push({
          index,
          input: { name: doc.name, content, ...(tags ? { tags } : {}), options: FIND_PLACES },
        });
        return mine;
      }
      if (doc.documentId !== undefined) {
        try {
          // The library as the case's company sees it: another company's document is absent.
          const version = await companyLibrary(context.library, context.company).getVersion(
            doc.documentId,
            doc.versionId,
            field,
          );
          mine.inputs.push({
            index,
            input: {
              name: doc.name,
              documentId: doc.documentId,
              versionId: version.versionId,
              ...(tags ? { tags } : {}),
              options: FIND_PLACES,
            },
          });
        } catch (err) {
          if (!(err instanceof DocpipeError)) throw err;
          mine.failures.push({ index, failure: err.toFailure() });
        }
      }
      return mine;
    }),
  );
  for (const p of prepared) {
    failures.push(...p.failures);
    inputs.push(...p.inputs);
  }

  let results: DocumentJobResult[] = [];
  if (inputs.length > 0) {
    try {
      // A lone document is a set of one (the same answer and failure, at documents[0]) without
      // the flow's parent job and its second worker round trip, as the convert endpoint does.
      results =
        inputs.length === 1
          ? [await context.client.render(inputs[0]!.input, context.request)]
          : await context.client.renderDocumentSet(
              inputs.map((i) => i.input),
              context.request,
            );
    } catch (err) {
      if (!(err instanceof DocpipeError)) throw err;
      // The set numbers its documents from 0; here they sit at their place in the case.
      failures.push(
        ...renumbered(
          err.toFailure(),
          inputs.map((i) => i.index),
        ).map((f) => ({
          index: f.index,
          failure: f.failure,
        })),
      );
    }
  }
  const renders = results.flatMap((r) =>
    r.kind === 'rendered' && !r.result.cached ? [r.result.key] : [],
  );
  const copies: string[] = [];
  const discard = async () => {
    await Promise.all([
      ...copies.map((k) => context.storage.delete(k).catch(() => undefined)),
      ...renders.map((k) => discardRender(context.storage, k).catch(() => undefined)),
    ]);
  };
  for (const [i, r] of results.entries())
    if (r.kind === 'rendered') {
      const index = inputs[i]!.index;
      const own = given[index]!.places;
      // Places given win over the document's anchors, whose own problems then do not matter.
      if (own !== undefined) {
        const pdf = await context.storage.get(r.result.key);
        if (!pdf) throw new Error(`${r.field}: the rendered PDF ${r.result.key} is gone`);
        const details = givenPlaceProblems(
          own.map(storedPlace),
          await pageSizesOf(pdf),
          body.recipients ?? [],
          `documents[${index}]`,
        );
        if (details.length > 0)
          failures.push({ index, failure: { error: 'validation-failed', details } });
        continue;
      }
      const problems = placeProblems(r.result.places ?? [], body.recipients ?? []);
      if (problems.length > 0)
        failures.push({
          index: inputs[i]!.index,
          failure: {
            error: 'document-production-failed',
            details: problems.map((p) => ({
              field: anchorField(`documents[${inputs[i]!.index}]`, p.anchor),
              message: p.message,
            })),
          },
        });
    }
  if (failures.length > 0) {
    await discard();
    throw joined(failures);
  }

  try {
    const byIndex = new Map(inputs.map((input, i) => [input.index, results[i]!]));
    const documents: ProducedDocument[] = [];
    for (const [index, doc] of given.entries()) {
      const common = {
        index,
        name: doc.name,
        libraryDocumentId: null,
        libraryVersionId: null,
        places: [] as SignaturePlace[],
        mustBeRead: doc.mustBeRead === true,
        evidence: null,
      };
      const result = byIndex.get(index);
      if (result === undefined) {
        documents.push({
          ...common,
          source: 'url',
          storageKey: null,
          url: doc.url!,
          sha256: null,
          bytes: null,
          pages: null,
        });
        continue;
      }
      if (result.kind !== 'rendered')
        throw new Error(`${result.field}: the queue answered a URL for a document sent as bytes`);
      const key = caseDocumentKey(context.company, context.caseId, index);
      copies.push(key);
      // Inside the store: on S3 the bytes never come to docpipe and back.
      if (!(await context.storage.copy(result.result.key, key)))
        throw new Error(`${result.field}: the rendered PDF ${result.result.key} is gone`);
      const input = inputs.find((i) => i.index === index)!.input;
      documents.push({
        ...common,
        source: doc.content !== undefined ? 'content' : doc.url !== undefined ? 'url' : 'library',
        storageKey: key,
        url: null,
        sha256: result.result.sha256,
        bytes: result.result.bytes,
        pages: result.result.pages,
        places: doc.places?.map(storedPlace) ?? result.result.places ?? [],
        evidence: result.result.evidence ?? null,
        ...(input.documentId !== undefined
          ? { libraryDocumentId: input.documentId, libraryVersionId: input.versionId ?? null }
          : {}),
      });
    }
    const places = inputs.map((i) => i.index);
    const notices = results.flatMap((r, i) =>
      r.kind === 'rendered'
        ? noteworthyNotices(r.result.notices ?? []).map((n): DocumentNotice => {
            const own = `documents[${places[i]!}]`;
            return { ...n, field: 'field' in n ? (atCasePlace(n.field, places) ?? own) : own };
          })
        : [],
    );
    return { documents, notices, discard };
  } catch (err) {
    await discard();
    throw err;
  }
}

/**
 * A `url` document's input: docpipe's stored document by its key (or its bytes, for a case's
 * document), nothing for another host's URL (kept by reference), or why it cannot be taken.
 */
async function urlInput(
  url: string,
  name: string,
  ownTags: boolean,
  field: string,
  context: ProduceContext,
): Promise<{ input?: DocumentInput } | { failure: Failure }> {
  const source = await caseDocumentUrl(url, field, {
    company: context.company,
    publicUrl: context.publicUrl,
    ...(context.signingSecret !== undefined ? { signingSecret: context.signingSecret } : {}),
    storage: context.storage,
    now: context.now ?? new Date(),
  });
  if (source.kind === 'refused') return { failure: source.failure };
  if (source.kind === 'foreign') {
    if (!ownTags) return {};
    return {
      failure: {
        error: 'validation-failed',
        details: [
          {
            field: `${field}.tags`,
            message:
              "tags need a document docpipe can fill: this url is another host's, kept by reference and never read. Send the .docx as content, or upload it (POST /v3/company/{company}/file/upload) and send the url that answers",
          },
        ],
      },
    };
  }
  const gone = notStored(field);
  if (source.read === 'bytes') {
    const content = await context.storage.get(source.key);
    return content ? { input: { name, content } } : { failure: gone };
  }
  // Looked at, not read: the worker reads it.
  return (await context.storage.stat(source.key))
    ? { input: { name, storageKey: source.key } }
    : { failure: gone };
}

/** Every document of a case is searched for its signature places (text tags of a PDF too). */
const FIND_PLACES = { places: true } as const;

/**
 * Places that name no signer of the case: an anchor for the 3rd recipient of a case of two, or
 * for a recipient who only receives a copy. Each anchor once, however many pages show it.
 */
function placeProblems(
  places: readonly SignaturePlace[],
  recipients: readonly { name: string; signing?: boolean }[],
): { anchor: string; message: string }[] {
  const problems = new Map<string, string>();
  for (const place of places) {
    const anchor = anchorName(place);
    if (problems.has(anchor)) continue;
    const recipient = recipients[place.recipient - 1];
    if (!recipient)
      problems.set(
        anchor,
        `names recipient ${place.recipient}, but the case has ${recipients.length}; add the recipient or change the anchor`,
      );
    else if (recipient.signing === false)
      problems.set(
        anchor,
        `names recipient ${place.recipient} (${recipient.name}), who receives a copy and does not sign; set signing or change the anchor`,
      );
  }
  return [...problems].map(([anchor, message]) => ({ anchor, message }));
}

/** A set's failure split by document, each detail moved from `documents[j]` to its case index. */
function renumbered(failure: Failure, places: number[]): { index: number; failure: Failure }[] {
  const byIndex = new Map<number, FailureDetail[]>();
  const unplaced: FailureDetail[] = [];
  for (const d of failure.details) {
    const field = atCasePlace(d.field, places);
    if (field === undefined) {
      unplaced.push(d);
      continue;
    }
    const place = Number(/^documents\[(\d+)\]/.exec(field)![1]);
    byIndex.set(place, [...(byIndex.get(place) ?? []), { field, message: d.message }]);
  }
  const out = [...byIndex].map(([index, details]) => ({
    index,
    failure: { error: failure.error, details },
  }));
  if (unplaced.length > 0)
    out.push({ index: places[0] ?? 0, failure: { error: failure.error, details: unplaced } });
  return out;
}

/** A field of the document set (`documents[k]...`) at the set's k-th document's place in the case. */
function atCasePlace(field: string, places: readonly number[]): string | undefined {
  const m = /^documents\[(\d+)\]/.exec(field);
  const place = m ? places[Number(m[1])] : undefined;
  return place === undefined ? undefined : `documents[${place}]${field.slice(m![0].length)}`;
}

/** Every failing document in one answer: the first one's slug, every one's details, in order. */
function joined(failures: { index: number; failure: Failure }[]): DocpipeError {
  const ordered = [...failures].sort((a, b) => a.index - b.index);
  const retryable = ordered.some((f) => f.failure.retryable === true);
  return new DocpipeError(
    ordered[0]!.failure.error,
    ordered.flatMap((f) => f.failure.details),
    retryable ? { retryable } : undefined,
  );
}
