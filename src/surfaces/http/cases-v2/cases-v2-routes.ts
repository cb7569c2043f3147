import { OUTAGES } from '../../../base/errors/index.js';
import type { CaseService, V2CaseStatus } from '../../../service/cases/index.js';
import { apiKeyOf } from '../common/api-key.js';
import type { HttpApp } from '../common/create-app.js';
import { convertSignal } from '../convert/convert-deadline.js';
import { casesV2ErrorHandler } from './cases-v2-errors.js';
import {
  AnyQuerySchema,
  CaseIdParamsSchema,
  CaseIdsParamsSchema,
  CompanyParamsSchema,
  V2CaseCreatedSchema,
  V2CaseErrorsSchema,
  V2CaseListSchema,
  V2CaseOneSchema,
  V2CreateBodySchema,
  V2DeletedSchema,
  V2ErrorObjectSchema,
  V2ListQuerySchema,
  V2MessageSchema,
} from './cases-v2-schema.js';

/** What the routes ask of the case service (CaseService; a fake in unit tests). */
export type CaseV2Api = Pick<
  CaseService,
  'createV2Case' | 'listV2Cases' | 'getV2Cases' | 'getV2Case' | 'deleteCase'
>;

export interface CasesV2RoutesOptions {
  cases: CaseV2Api;
  /** The base of the URLs the service issues (signing links, logo URLs). */
  publicUrl: string;
  /** The largest request body (config.http.bodyLimitBytes): documents travel in it as base64. */
  bodyLimitBytes?: number;
  /** How long a create may wait for its documents. @defaultValue 60 000 */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** v2's answers when nothing is found (spec 7.1). */
const CASES_NOT_FOUND = { message: 'Cases not found' } as const;
const CASE_NOT_FOUND = { message: 'Case not found' } as const;

/**
 * The v2 case endpoints (spec 4.2) for the company in the path, which the authentication hook in
 * front holds to the key's (400 `Invalid company id` otherwise): create through the v3 create
 * path under v2's rules (CaseService.createV2Case), list, read several, read one, delete. Every
 * failure in v2's shapes (cases-v2-errors.ts).
 */
// async, so that a throw (bad options) rejects the registration instead of escaping avvio.
// eslint-disable-next-line @typescript-eslint/require-await
export async function casesV2Routes(app: HttpApp, options: CasesV2RoutesOptions): Promise<void> {
  app.setErrorHandler(casesV2ErrorHandler(OUTAGES['queue-unavailable'].retryAfterSeconds));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const errors = V2CaseErrorsSchema;
  const failures = {
    400: { anyOf: [errors, V2ErrorObjectSchema] },
    401: errors,
    403: errors,
    429: errors,
    500: errors,
    503: errors,
  };
  const tags = ['v2 cases'];
  const security = [{ bearer: [] }];

  app.post(
    '/api/v2/:company/case/create',
    {
      ...(options.bodyLimitBytes !== undefined ? { bodyLimit: options.bodyLimitBytes } : {}),
      // The service checks the body (v2's rules, every problem at its v2 path): the schema here
      // describes it for the OpenAPI document, and its findings are the service's to say.
      attachValidation: true,
      schema: {
        tags,
        operationId: 'createCaseV2',
        summary: 'Create a signing case (v2)',
        description:
          'The v2 body (or the same wrapped in values), extra members ignored, mapped to the v3 case (spec 9) and created by the same path: an unknown folder takes the default folder, recipients[].signing defaults to false, cases live 90 days, the language is settings.lang else Danish. 200 {data, notices}; a 4xx means nothing was created.',
        security,
        params: CompanyParamsSchema,
        querystring: AnyQuerySchema,
        body: V2CreateBodySchema,
        response: { 200: V2CaseCreatedSchema, ...failures, 413: errors },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const wait = convertSignal(reply, timeoutMs);
      try {
        const created = await options.cases.createV2Case(
          key.company,
          { id: key.id, ...(key.userId !== undefined ? { userId: key.userId } : {}) },
          request.body,
          { publicUrl: options.publicUrl, requestId: request.id, signal: wait.signal },
        );
        return await reply.code(200).send(created);
      } finally {
        wait.done();
      }
    },
  );

  app.get(
    '/api/v2/:company/cases/get',
    {
      schema: {
        tags,
        operationId: 'listCasesV2',
        summary: "List the company's cases (v2)",
        description:
          'Newest first; status signed, denied or pending (a draft or open case), folder by name or id, limit (default 100) cases a page, index the page from 0. 404 {message: "Cases not found"} when nothing matches.',
        security,
        params: CompanyParamsSchema,
        querystring: V2ListQuerySchema,
        response: { 200: V2CaseListSchema, ...failures, 404: V2MessageSchema },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const q = request.query as Record<string, string | undefined>;
      const cases = await options.cases.listV2Cases(key.company, {
        ...(q.status !== undefined ? { status: q.status as V2CaseStatus } : {}),
        ...(q.limit !== undefined ? { limit: Number(q.limit) } : {}),
        ...(q.index !== undefined ? { index: Number(q.index) } : {}),
        ...(q.folder !== undefined ? { folder: q.folder } : {}),
      });
      if (cases.length === 0) return reply.code(404).send(CASES_NOT_FOUND);
      return reply.code(200).send({ status: 'company_found', cases });
    },
  );

  app.get(
    '/api/v2/:company/cases/:case_ids/get',
    {
      schema: {
        tags,
        operationId: 'getCasesV2',
        summary: 'Several cases by id (v2)',
        description:
          'case_ids is a comma-separated list; the ones that are not cases of the company are left out. 404 {message: "Cases not found"} when none is.',
        security,
        params: CaseIdsParamsSchema,
        querystring: AnyQuerySchema,
        response: { 200: V2CaseListSchema, ...failures, 404: V2MessageSchema },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const ids = request.params.case_ids.split(',').filter((id) => id.trim() !== '');
      const cases = await options.cases.getV2Cases(key.company, ids);
      if (cases.length === 0) return reply.code(404).send(CASES_NOT_FOUND);
      return reply.code(200).send({ status: 'cases_found', cases });
    },
  );

  app.get(
    '/api/v2/:company/case/:case_id/get',
    {
      schema: {
        tags,
        operationId: 'getCaseV2',
        summary: 'One case (v2)',
        description:
          'The case: _id, title, type, createdAt, updatedAt and its settings (v2 names). A case that is absent or another company’s answers 200 {message: "Case not found"}, as v2 always did on this endpoint (spec 4.2).',
        security,
        params: CaseIdParamsSchema,
        querystring: AnyQuerySchema,
        response: { 200: V2CaseOneSchema, ...failures },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const found = await options.cases.getV2Case(key.company, request.params.case_id);
      if (!found) return reply.code(200).send(CASE_NOT_FOUND);
      return reply.code(200).send({ status: 'case_found', case: found });
    },
  );

  app.get(
    '/api/v2/:company/case/:case_id/delete',
    {
      schema: {
        tags,
        operationId: 'deleteCaseV2',
        summary: 'Delete a case (v2, with GET)',
        description:
          'Deletes the case, its recipients, documents and events, and its stored PDFs. A case that is absent or another company’s deletes nothing: 200 with deletedCount 0.',
        security,
        params: CaseIdParamsSchema,
        querystring: AnyQuerySchema,
        response: { 200: V2DeletedSchema, ...failures },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const result = await options.cases.deleteCase(key.company, request.params.case_id);
      return reply.code(200).send({
        status: result.deletedCount > 0 ? 'case_deleted' : 'case_not_found',
        return: result,
      });
    },
  );
}
