import { isDocpipeError } from '../../../base/errors/index.js';
import type { InnerField, TemplateField } from '../../../document/fields/index.js';
import type { FieldsOptions } from '../../../document/inspect/index.js';
import {
  companyLibrary,
  resolveTemplate,
  type DocumentLibrary,
  type LibraryDocument,
} from '../../../document/library/index.js';
import { apiKeyOf } from '../common/api-key.js';
import type { HttpApp } from '../common/create-app.js';
import { BrokenLibraryDocumentError, documentsErrorHandler } from './documents-errors.js';
import {
  DocumentListSchema,
  DocumentOneSchema,
  DocumentParamsSchema,
  NoQuerySchema,
  V3FailureSchema,
} from './documents-schema.js';

/** What reads a template's fields: the preparer (PreparePool or InlinePreparer), off the event loop. */
export interface FieldReader {
  fields(bytes: Uint8Array, options?: FieldsOptions): Promise<TemplateField[]>;
}

export interface DocumentsRoutesOptions {
  library: DocumentLibrary;
  preparer: FieldReader;
}

/**
 * `GET /v3/api/documents` and `GET /v3/api/documents/{id}` (spec 4.4): the read-only document
 * library, and one document with its versions and the fields its current version needs filled
 * (as `docpipe fields` reads them). Failures answer in the v3 envelope (spec 7.2).
 *
 * The company comes from the key (spec 4.4): a key sees the shared documents and its company's
 * own (document.json's `companies`); another company's document answers 404 like an absent one
 * ("absent or not visible").
 */
// async, so that a throw (bad options) rejects the registration instead of escaping avvio.
// eslint-disable-next-line @typescript-eslint/require-await
export async function documentsRoutes(
  app: HttpApp,
  options: DocumentsRoutesOptions,
): Promise<void> {
  app.setErrorHandler(documentsErrorHandler);
  const failures = { 400: V3FailureSchema, 401: V3FailureSchema, 429: V3FailureSchema };
  app.get(
    '/v3/api/documents',
    {
      schema: {
        tags: ['v3 library'],
        operationId: 'listDocuments',
        summary: 'List the document library',
        security: [{ bearer: [] }],
        querystring: NoQuerySchema,
        response: { 200: DocumentListSchema, ...failures, 500: V3FailureSchema },
      },
    },
    async (request, reply) => {
      const documents = await companyLibrary(options.library, apiKeyOf(request).company).list();
      return reply.code(200).send({ documents: documents.map(summary) });
    },
  );
  app.get(
    '/v3/api/documents/:id',
    {
      schema: {
        tags: ['v3 library'],
        operationId: 'getDocument',
        summary: 'One library document and the fields it needs filled',
        security: [{ bearer: [] }],
        params: DocumentParamsSchema,
        querystring: NoQuerySchema,
        response: {
          200: DocumentOneSchema,
          ...failures,
          404: V3FailureSchema,
          500: V3FailureSchema,
        },
      },
    },
    async (request, reply) => {
      // Found as every door finds a template: its current version with its settings, in the
      // library as the key's company sees it.
      const template = await resolveTemplate(
        { documentId: request.params.id },
        { library: companyLibrary(options.library, apiKeyOf(request).company), libraryField: 'id' },
      );
      const fields = await options.preparer
        .fields(template.bytes, {
          delimiters: template.settings.delimiters,
          fields: template.settings.fields,
        })
        .catch((err: unknown) => {
          throw isDocpipeError(err) ? new BrokenLibraryDocumentError(err) : err;
        });
      return reply.code(200).send({
        document: {
          ...summary(template.document!),
          fields: fields.map(({ tag, kind, count, within, type, format, description, inner }) =>
            definedOnly({
              tag,
              kind,
              count,
              within,
              type,
              format,
              description,
              inner: inner?.map(innerField),
            }),
          ),
        },
      });
    },
  );
}

function summary(document: LibraryDocument) {
  const { id, name, description, versions, currentVersion, signers } = document;
  return definedOnly({
    id,
    name,
    description,
    versions,
    currentVersion,
    // Recipients 1..n have places; a list's rows (the last entry) sign after them, without.
    signers: signers?.filter((s) => s.list === undefined).length,
    signerRoles: signers,
  });
}

/** An inner field as the reply shows it: how each tag is used stays with `docpipe fields`. */
function innerField(field: InnerField): ReplyInnerField {
  const { tag, kind, count, path, type, format, description, inner } = field;
  return definedOnly({
    tag,
    kind,
    count,
    path,
    type,
    format,
    description,
    inner: inner?.map(innerField),
  });
}

interface ReplyInnerField extends Omit<InnerField, 'usedAs' | 'inner'> {
  inner?: ReplyInnerField[];
}

/** The reply's schema has no nulls: members without a value are left out. */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
