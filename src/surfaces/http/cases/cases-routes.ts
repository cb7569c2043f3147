import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocpipeError, isDocpipeError, type FailureDetail } from '../../../base/errors/index.js';
import { visibleDocument, type DocumentLibrary } from '../../../document/library/index.js';
import {
  CaseBodySchema,
  LibraryCaseBodySchema,
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  caseBodyRuleProblems,
  type CaseBody,
  type CaseInput,
  type LibraryCaseBody,
  type CaseListFilters,
  type CaseService,
  type CaseState,
} from '../../../service/cases/index.js';
import { apiKeyOf } from '../common/api-key.js';
import type { HttpApp } from '../common/create-app.js';
import { attachedValidationDetails, reportedDetails } from '../common/validation-details.js';
import { convertSignal } from '../convert/convert-deadline.js';
import { NoQuerySchema, V3FailureSchema } from '../documents/documents-schema.js';
import { CREATE_CASE_PATH, casesErrorHandler } from './cases-errors.js';
import {
  CaseCreatedSchema,
  CaseListQuerySchema,
  CaseListSchema,
  CaseOneSchema,
  CaseParamsSchema,
  CaseSentSchema,
  DocumentParamsSchema,
} from './cases-schema.js';
import { parseCreatedAfter } from './created-after.js';

/** What the routes ask of the case service (CaseService; a fake in unit tests). */
export type CaseApi = Pick<CaseService, 'createCase' | 'getCase' | 'listCases' | 'sendCase'>;

export interface CasesRoutesOptions {
  cases: CaseApi;
  /** The document library, for POST /v3/api/documents/{id}/cases. */
  library: Pick<DocumentLibrary, 'get'>;
  /** The base of the URLs the service issues (signing links, logo URLs). */
  publicUrl: string;
  /**
   * The largest request body (config.http.bodyLimitBytes): a case's documents travel in it as
   * base64, far past the server's small default. @defaultValue the instance's body limit
   */
  bodyLimitBytes?: number;
  /**
   * How long a create may wait for its documents; past it, the render jobs not started are
   * withdrawn and the answer is the `deadline` outage (nothing was written). @defaultValue 60 000
   */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The v3 cases (spec 2.2, 4.4): `POST /v3/api/cases`, `GET /v3/api/cases`,
 * `GET /v3/api/cases/{id}` and `POST /v3/api/documents/{id}/cases`, for the company of the key. The route's part of create rule 1
 * (structure, every problem at once) is here: the schema's findings and the rules beside it are
 * gathered into one `validation-failed`, so that a body wrong in both ways hears of both. The
 * rest of the rules, in order, is CaseService.createCase's.
 */
// async, so that a throw (bad options) rejects the registration instead of escaping avvio.
// eslint-disable-next-line @typescript-eslint/require-await
export async function casesRoutes(app: HttpApp, options: CasesRoutesOptions): Promise<void> {
  app.setErrorHandler(casesErrorHandler);
  const failures = {
    400: V3FailureSchema,
    401: V3FailureSchema,
    403: V3FailureSchema,
    429: V3FailureSchema,
    500: V3FailureSchema,
    503: V3FailureSchema,
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  app.post(
    CREATE_CASE_PATH,
    {
      ...(options.bodyLimitBytes !== undefined ? { bodyLimit: options.bodyLimitBytes } : {}),
      // The schema's findings reach the handler, which adds the rules' and answers them at once.
      attachValidation: true,
      schema: {
        tags: ['v3 cases'],
        operationId: 'createCase',
        summary: 'Create a signing case',
        description:
          'Creates the case only when every check passes (spec 4.4): the body (every problem at once), then folder, preset, templates and sender, then every document through the pipeline. A 4xx means nothing was created; a retried 201 creates a second case.',
        security: [{ bearer: [] }],
        body: CaseBodySchema,
        querystring: NoQuerySchema,
        response: { 201: CaseCreatedSchema, ...failures, 413: V3FailureSchema },
      },
    },
    async (request, reply) => {
      const body = checkedBody<CaseBody>(request);
      const created = await createCase(request, reply, body);
      return reply
        .code(201)
        .header('Location', `/v3/api/cases/${encodeURIComponent(created.case.id)}`)
        .send({ case: created.case });
    },
  );

  app.post(
    '/v3/api/documents/:id/cases',
    {
      ...(options.bodyLimitBytes !== undefined ? { bodyLimit: options.bodyLimitBytes } : {}),
      attachValidation: true,
      schema: {
        tags: ['v3 cases'],
        operationId: 'createCaseFromDocument',
        summary: 'Create a signing case from a library document',
        description:
          "Fills the library document (its current version, or versionId) with the case's tags and creates the case from it, under the rules of POST /v3/api/cases. 404 document-not-found when the library has no such document.",
        security: [{ bearer: [] }],
        params: DocumentParamsSchema,
        body: LibraryCaseBodySchema,
        querystring: NoQuerySchema,
        response: {
          201: CaseCreatedSchema,
          ...failures,
          404: V3FailureSchema,
          413: V3FailureSchema,
        },
      },
    },
    async (request, reply) => {
      const { versionId, ...rest } = checkedBody<LibraryCaseBody>(request);
      // Absent or another company's: 404 document-not-found at `id`, before anything else is
      // looked up.
      const document = await visibleDocument(
        options.library,
        apiKeyOf(request).company,
        request.params.id,
        'id',
      );
      const body: CaseInput = {
        ...rest,
        documents: [
          {
            name: document.name,
            documentId: document.id,
            ...(versionId !== undefined ? { versionId } : {}),
          },
        ],
      };
      const created = await createCase(request, reply, body).catch((err: unknown) => {
        throw isDocpipeError(err) ? asLibraryCaseFailure(err) : err;
      });
      return reply
        .code(201)
        .header('Location', `/v3/api/cases/${encodeURIComponent(created.case.id)}`)
        .send({ case: created.case });
    },
  );

  /** The case service's create for the key's company, its wait bounded by the deadline. */
  async function createCase(request: FastifyRequest, reply: FastifyReply, body: CaseInput) {
    const key = apiKeyOf(request);
    const wait = convertSignal(reply, timeoutMs);
    try {
      return await options.cases.createCase(
        key.company,
        { id: key.id, ...(key.userId !== undefined ? { userId: key.userId } : {}) },
        body,
        { publicUrl: options.publicUrl, requestId: request.id, signal: wait.signal },
      );
    } finally {
      wait.done();
    }
  }

  app.get(
    '/v3/api/cases',
    {
      attachValidation: true,
      schema: {
        tags: ['v3 cases'],
        operationId: 'listCases',
        summary: "List the company's cases, newest first",
        description:
          'Filters by state, folder, referenceId and createdAfter; no search by title or recipient. Pages with a cursor: pass nextCursor as cursor until an answer has none.',
        security: [{ bearer: [] }],
        querystring: CaseListQuerySchema,
        response: { 200: CaseListSchema, ...failures },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const { filters, cursor, limit } = checkedQuery(request);
      const page = await options.cases.listCases(key.company, filters, {
        limit,
        ...(cursor !== undefined ? { cursor } : {}),
      });
      return reply.code(200).send(page);
    },
  );

  app.post(
    '/v3/api/cases/:id/send',
    {
      schema: {
        tags: ['v3 cases'],
        operationId: 'sendCase',
        summary: 'Send a draft',
        description:
          'A draft (state: draft) becomes open: its signing links work from now for its expiresInDays, its first group is invited, its reminders are scheduled, and case.sent is its event. The answer is the case with delivery, the first attempt over each channel, as at creation. A case that is not a draft is validation-failed at state; a draft without recipients or documents is validation-failed naming them.',
        security: [{ bearer: [] }],
        params: CaseParamsSchema,
        querystring: NoQuerySchema,
        response: { 200: CaseSentSchema, ...failures, 404: V3FailureSchema },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const sent = await options.cases.sendCase(key.company, request.params.id);
      return reply.code(200).send(sent);
    },
  );

  app.get(
    '/v3/api/cases/:id',
    {
      schema: {
        tags: ['v3 cases'],
        operationId: 'getCase',
        summary: 'One case of the company',
        security: [{ bearer: [] }],
        params: CaseParamsSchema,
        querystring: NoQuerySchema,
        response: { 200: CaseOneSchema, ...failures, 404: V3FailureSchema },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const found = await options.cases.getCase(key.company, request.params.id);
      return reply.code(200).send({ case: found });
    },
  );
}

/** The body when it is sound, else `validation-failed` with the schema's and the rules' problems. */
function checkedBody<T>(request: FastifyRequest): T {
  const problems = [
    ...attachedValidationDetails(request, 'body'),
    ...caseBodyRuleProblems(request.body),
  ];
  if (problems.length > 0)
    throw new DocpipeError('validation-failed', reportedDetails(problems, 'body'));
  return request.body as T;
}

/**
 * A failure of a case made from the path's library document, its details pointing into this
 * request rather than the `documents[0]` the service was given: the version at `versionId`, the
 * document's fields at `tags.<field>`, the document itself at `id` (the path parameter). A message
 * names the path it is about (`documents[0].tags[1] (agreement_date): ...`): it says the
 * request's (`tags[1]`), as the field does.
 */
function asLibraryCaseFailure(err: DocpipeError): DocpipeError {
  const field = (f: string) => {
    // The service names the document (`documents[0]`, spec 7.2) for a version it lacks; here
    // the path names the document, and the version is this request's `versionId`.
    if (f === 'documents[0]' && err.slug === 'document-version-not-found') return 'versionId';
    if (f === 'documents' || f === 'documents[0]') return 'id';
    if (f.startsWith('documents[0].')) return f.slice('documents[0].'.length);
    return f;
  };
  const details = err.details.map((d) => ({
    ...d,
    field: field(d.field),
    message: d.message.replace(SERVICE_DOCUMENT_PATH, '$1'),
  }));
  return new DocpipeError(err.slug, details, { cause: err, retryable: err.retryable });
}

/** `documents[0].` where a path begins in a message: not after a name's letters or a dot. */
const SERVICE_DOCUMENT_PATH = /(^|[^\w.\]])documents\[0\]\./g;

interface ListQuery {
  filters: CaseListFilters;
  cursor?: string;
  limit: number;
}

/** The list's parameters, or `validation-failed` naming each bad one (7.2: its name is the field). */
function checkedQuery(request: FastifyRequest): ListQuery {
  const problems: FailureDetail[] = [...attachedValidationDetails(request, 'querystring')];
  const query = (request.query ?? {}) as Record<string, unknown>;
  const filters: CaseListFilters = {};
  if (typeof query.createdAfter === 'string') {
    const parsed = parseCreatedAfter(query.createdAfter);
    if (parsed instanceof Date) filters.createdAfter = parsed;
    else if (!problems.some((p) => p.field === 'createdAfter'))
      problems.push({ field: 'createdAfter', message: parsed.problem });
  }
  let limit = DEFAULT_PAGE_LIMIT;
  if (typeof query.limit === 'string' && /^[0-9]+$/.test(query.limit)) {
    limit = Number(query.limit);
    if (limit < 1 || limit > MAX_PAGE_LIMIT)
      problems.push({
        field: 'limit',
        message: `must be from 1 to ${MAX_PAGE_LIMIT} (got ${query.limit})`,
      });
  }
  if (problems.length > 0)
    throw new DocpipeError('validation-failed', reportedDetails(problems, 'querystring'));
  if (typeof query.state === 'string') filters.state = query.state as CaseState;
  if (typeof query.folder === 'string') filters.folder = query.folder;
  if (typeof query.referenceId === 'string') filters.referenceId = query.referenceId;
  const cursor = typeof query.cursor === 'string' ? query.cursor : undefined;
  return { filters, limit, ...(cursor !== undefined ? { cursor } : {}) };
}
