import { Type, type Static } from 'typebox';
import { FieldDeclarationSchema } from '../../document/library/index.js';
import { TagInputSchema } from '../../document/values/index.js';
import { COMPANY_ID } from '../../base/tenancy/index.js';

/**
 * The job contract, version 1, as one TypeBox schema: the worker and the client validate with it,
 * the TypeScript types are derived from it, and it is plain JSON Schema for the docs. Every
 * object is closed (`additionalProperties: false`): a misspelt member would otherwise be dropped
 * silently and render a wrong document.
 */

/** Version of the job data; workers refuse versions they do not know. */
export const JOB_SCHEMA_VERSION = 1;

/** What a request id may be: short and plain, for log lines. */
export const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The field path a job answers for: `documents[2]`, `batch.documents[0]`. */
export const FIELD_PATH = /^[A-Za-z_][\w]*(\[\d+\])?(\.[A-Za-z_][\w]*(\[\d+\])?)*$/;

/** Standard base64; its size is checked apart, against the configured limit. */
export const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Longest document name (the HTTP convert contract uses the same limit). */
export const MAX_JOB_NAME_CHARS = 500;

/** Something other than white space, as `trim() !== ''` says it. */
const NOT_BLANK = '\\S';

const closed = { additionalProperties: false } as const;

export const InlineSourceSchema = Type.Object(
  {
    inline: Type.String({
      pattern: BASE64.source,
      description: 'the document as base64; small documents only (DOCPIPE_MAX_INLINE_BYTES)',
    }),
  },
  closed,
);

export const StorageKeySourceSchema = Type.Object(
  {
    storageKey: Type.String({
      minLength: 1,
      description: "a key of docpipe's storage, for documents too large to travel inline",
    }),
  },
  closed,
);

export const UrlSourceSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      description: 'an http or https URL, kept by reference and never inspected (spec 2.2)',
    }),
  },
  closed,
);

export const LibrarySourceSchema = Type.Object(
  {
    documentId: Type.String({ minLength: 1, description: 'a library document' }),
    versionId: Type.Optional(
      Type.String({ minLength: 1, description: 'its version; the latest when absent' }),
    ),
  },
  closed,
);

/** Where a document's bytes come from (spec 2.2): exactly one of the four. */
export const DocumentSourceSchema = Type.Union([
  InlineSourceSchema,
  StorageKeySourceSchema,
  UrlSourceSchema,
  LibrarySourceSchema,
]);

/** Members in the order problems are reported in. */
export const JobRenderOptionsSchema = Type.Object(
  {
    locale: Type.Optional(Type.String({ description: 'a BCP 47 locale, such as da-DK' })),
    timeZone: Type.Optional(Type.String({ description: 'an IANA time zone' })),
    strict: Type.Optional(
      Type.Boolean({ description: "values must match the template's tags exactly" }),
    ),
    pdfa: Type.Optional(Type.Boolean({ description: 'produce PDF/A' })),
    fidelity: Type.Optional(
      Type.Union([Type.Literal('report'), Type.Literal('strict')], {
        description:
          "report (notices only) or strict: refuse a font of other widths or an empty page; the worker's DOCPIPE_STRICT_FIDELITY when absent",
      }),
    ),
    places: Type.Optional(
      Type.Boolean({
        description:
          "for a PDF: find its text tags ({{sign:1}}), take them off and answer their places; a .docx's anchors are placed always",
      }),
    ),
    delimiters: Type.Optional(
      Type.Object(
        { start: Type.String(), end: Type.String() },
        { ...closed, description: 'tag delimiters, such as {{ and }}' },
      ),
    ),
    // A template's settings travel with it (resolveTemplate), so that the worker fills a
    // template sent by content as `docpipe render` fills it: its declared types and formats.
    fields: Type.Optional(
      Type.Record(Type.String({ pattern: NOT_BLANK }), FieldDeclarationSchema, {
        description:
          "the template's declared fields (its document.json's `fields`): each value's type, and the format used when a value gives none",
      }),
    ),
  },
  closed,
);

/** A document job, version 1. Members in the order problems are reported in. */
export const DocumentJobDataSchema = Type.Object(
  {
    v: Type.Literal(JOB_SCHEMA_VERSION),
    field: Type.String({
      pattern: FIELD_PATH.source,
      description: 'the field path this job answers for, such as documents[2]',
    }),
    name: Type.String({
      pattern: NOT_BLANK,
      maxLength: MAX_JOB_NAME_CHARS,
      description: "the document's name: the PDF's title",
    }),
    source: DocumentSourceSchema,
    requestId: Type.Optional(
      Type.String({
        pattern: REQUEST_ID.source,
        description: "the id of the request that asked for it: in the worker's log lines",
      }),
    ),
    company: Type.Optional(
      Type.String({
        pattern: COMPANY_ID.source,
        description: 'the company it is done for: its jobs take turns with other companies',
      }),
    ),
    waitUntil: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'when its waiter stops waiting (ms since 1970): a worker that takes the job later skips it, since nobody reads its answer; absent for batch jobs, whose results are read later',
      }),
    ),
    tags: Type.Optional(Type.Array(TagInputSchema)),
    options: Type.Optional(JobRenderOptionsSchema),
  },
  { ...closed, title: 'DocumentJobData', description: 'A docpipe document job, version 1.' },
);

export type DocumentSource = Static<typeof DocumentSourceSchema>;
export type JobRenderOptions = Static<typeof JobRenderOptionsSchema>;
export type DocumentJobData = Static<typeof DocumentJobDataSchema>;
