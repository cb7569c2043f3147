import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DocpipeError } from '../../../base/errors/index.js';
import type { Storage } from '../../../render/storage/index.js';
import type { CprCipher } from '../../../service/cpr/index.js';
import type { Database } from '../../../service/db/index.js';
import {
  IDEMPOTENCY_HEADER,
  WebflowBodySchema,
  createWebflow,
  getWebflow,
  idempotencyKeyProblem,
} from '../../../service/webflows/index.js';
import { apiKeyOf } from '../common/api-key.js';
import type { HttpApp } from '../common/create-app.js';
import { attachedValidationDetails, reportedDetails } from '../common/validation-details.js';
import { documentsErrorHandler } from '../documents/index.js';
import { NoQuerySchema, V3FailureSchema } from '../documents/documents-schema.js';
import {
  IdempotencyHeadersSchema,
  WebflowCreatedSchema,
  WebflowOneSchema,
  WebflowParamsSchema,
} from './webflows-schema.js';

export interface WebflowsRoutesOptions {
  db: Kysely<Database>;
  /** The installation's signing secret, from which each person's link token is derived. */
  signingSecret: string;
  /** Where a flow with `case` keeps its own copies of its form's templates. */
  storage: Storage;
  /** Encrypts the CPR numbers of a `case` member's recipients; absent: none may be sent. */
  cipher?: CprCipher;
  /** The clock. @defaultValue the system's */
  now?: () => Date;
}

/**
 * The v3 web-flows (issue 36): `POST /v3/api/webflows` and `GET /v3/api/webflows/{id}`, for the
 * company of the key, over the service's createWebflow and getWebflow. The body's structure
 * and the idempotency key are checked here together, every problem at once; the rest is the
 * service's.
 */
// async, so that a throw (bad options) rejects the registration instead of escaping avvio.
// eslint-disable-next-line @typescript-eslint/require-await
export async function webflowsRoutes(app: HttpApp, options: WebflowsRoutesOptions): Promise<void> {
  // The v3 failure shape, typed failures and outages, as the library's and the cases' routes.
  app.setErrorHandler(documentsErrorHandler);
  const failures = {
    400: V3FailureSchema,
    401: V3FailureSchema,
    403: V3FailureSchema,
    429: V3FailureSchema,
    500: V3FailureSchema,
    503: V3FailureSchema,
  };
  const deps = {
    db: options.db,
    signingSecret: options.signingSecret,
    storage: options.storage,
    ...(options.cipher ? { cipher: options.cipher } : {}),
    ...(options.now ? { now: options.now } : {}),
  };

  app.post(
    '/v3/api/webflows',
    {
      attachValidation: true,
      schema: {
        tags: ['v3 webflows'],
        operationId: 'createWebflow',
        summary: 'Ask people for information: create a web-flow',
        description:
          'Creates the flow from a published form with "webflow": true, one link per recipient. The Idempotency-Key header is required: the same key with the same body within 24 hours answers the first flow again (201, the same id, nothing made or sent again); with another body, 409 idempotency-conflict. After a 500, retry with the same key: the flow may already be saved. docs/webflows.md describes the payloads.',
        security: [{ bearer: [] }],
        headers: IdempotencyHeadersSchema,
        body: WebflowBodySchema,
        querystring: NoQuerySchema,
        response: {
          201: WebflowCreatedSchema,
          ...failures,
          404: V3FailureSchema,
          409: V3FailureSchema,
        },
      },
    },
    async (request, reply) => {
      const idempotencyKey = headerOf(request, IDEMPOTENCY_HEADER);
      const keyProblem = idempotencyKeyProblem(idempotencyKey);
      const problems = [
        ...attachedValidationDetails(request, 'body'),
        ...(keyProblem ? [keyProblem] : []),
      ];
      if (problems.length > 0)
        throw new DocpipeError('validation-failed', reportedDetails(problems, 'body'));
      const key = apiKeyOf(request);
      const created = await createWebflow(deps, {
        company: key.company,
        ...(key.userId !== undefined ? { keyUserId: key.userId } : {}),
        idempotencyKey,
        body: request.body,
      });
      return reply
        .code(201)
        .header('Location', `/v3/api/webflows/${encodeURIComponent(created.webflow.id)}`)
        .send({
          webflow: created.webflow,
          ...(created.notices.length > 0 ? { notices: created.notices } : {}),
        });
    },
  );

  app.get(
    '/v3/api/webflows/:id',
    {
      schema: {
        tags: ['v3 webflows'],
        operationId: 'getWebflow',
        summary: 'One web-flow of the company, with its progress and answers',
        description:
          "404 webflow-not-found for an id that is no flow of the company's; 403 sender-not-in-company when the flow's sender has been removed from the company.",
        security: [{ bearer: [] }],
        params: WebflowParamsSchema,
        querystring: NoQuerySchema,
        response: { 200: WebflowOneSchema, ...failures, 404: V3FailureSchema },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const webflow = await getWebflow(deps, key.company, request.params.id);
      return reply.code(200).send({ webflow });
    },
  );
}

/** A header's value, or undefined when it is absent (a repeated header is its first value). */
function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
