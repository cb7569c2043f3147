import type { FastifyReply } from 'fastify';
import { OUTAGES } from '../../../base/errors/index.js';
import type { FormService } from '../../../service/forms/index.js';
import { apiKeyOf } from '../common/api-key.js';
import type { HttpApp } from '../common/create-app.js';
import { convertSignal } from '../convert/convert-deadline.js';
import { formsErrorHandler, NO_ID_PROVIDED } from './forms-errors.js';
import {
  FormParamsSchema,
  FormSchema,
  FormSubmitBodySchema,
  SubmitReplySchema,
  TagListSchema,
  V2ErrorListSchema,
  V2ErrorObjectSchema,
} from './forms-schema.js';

/** What the routes ask of the form service (FormService; a fake in unit tests). */
export type FormApi = Pick<FormService, 'getForm' | 'getTags' | 'submit'>;

export interface FormsRoutesOptions {
  forms: FormApi;
  /** The base of the URLs the service issues (signing links). */
  publicUrl: string;
  /** The largest request body (config.http.bodyLimitBytes). */
  bodyLimitBytes?: number;
  /** How long a submit may wait for its documents. @defaultValue 60 000 */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The v2 forms (spec 4.1) of the company in the path, which the authentication hook in front
 * holds to the key's (400 `Invalid company id` otherwise): a form, its tags, and submit. A blank
 * form id is 7.1's `{message: 'Bad request', errors: ['No ID provided']}`; every other failure
 * in v2's shapes (forms-errors.ts).
 */
// async, so that a throw (bad options) rejects the registration instead of escaping avvio.
// eslint-disable-next-line @typescript-eslint/require-await
export async function formsRoutes(app: HttpApp, options: FormsRoutesOptions): Promise<void> {
  app.setErrorHandler(formsErrorHandler(OUTAGES['queue-unavailable'].retryAfterSeconds));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const failures = {
    400: { anyOf: [V2ErrorListSchema, V2ErrorObjectSchema] },
    401: V2ErrorListSchema,
    403: V2ErrorListSchema,
    429: V2ErrorListSchema,
    500: V2ErrorListSchema,
    503: V2ErrorListSchema,
  };

  /** A blank form id answered as 7.1 says; true when it was. */
  const blankId = (formId: string, reply: FastifyReply): boolean => {
    if (formId.trim() !== '') return false;
    void reply.code(400).send(NO_ID_PROVIDED);
    return true;
  };

  app.get(
    '/api/v2/:company/forms/:form_id/get',
    {
      schema: {
        tags: ['v2 forms'],
        operationId: 'getForm',
        summary: 'A form of the company',
        description:
          'The form with its title, folder, settings, TagDefinitions, preset recipients and documents. An absent form, or another company’s, is 400 "Form not found".',
        security: [{ bearer: [] }],
        params: FormParamsSchema,
        response: { 200: FormSchema, ...failures },
      },
    },
    async (request, reply) => {
      if (blankId(request.params.form_id, reply)) return reply;
      const key = apiKeyOf(request);
      return reply.send(await options.forms.getForm(key.company, request.params.form_id));
    },
  );

  app.get(
    '/api/v2/:company/forms/:form_id/tags/get',
    {
      schema: {
        tags: ['v2 forms'],
        operationId: 'getFormTags',
        summary: "A form's TagDefinitions",
        description:
          'The tags its templates use, each with its type and default (null: none; submit must send it).',
        security: [{ bearer: [] }],
        params: FormParamsSchema,
        response: { 200: TagListSchema, ...failures },
      },
    },
    async (request, reply) => {
      if (blankId(request.params.form_id, reply)) return reply;
      const key = apiKeyOf(request);
      return reply.send(await options.forms.getTags(key.company, request.params.form_id));
    },
  );

  app.post(
    '/api/v2/:company/forms/:form_id/submit',
    {
      ...(options.bodyLimitBytes !== undefined ? { bodyLimit: options.bodyLimitBytes } : {}),
      // The service checks the body whole, the schema's problems with its rules in one answer.
      attachValidation: true,
      schema: {
        tags: ['v2 forms'],
        operationId: 'submitForm',
        summary: "Fill a form's templates and create a case from them",
        description:
          'The TagInputs (over the form’s defaults) fill its templates; the case is created as v2 case create does, under spec 3’s state rules: state open (default) or draft, autoSend default true (false for a draft), recipient url for open cases only, redirectUrl echoed, needsCpr requires cpr (stored encrypted, never answered), order the legacy name of group. Every problem at once with its path; a 4xx creates nothing.',
        security: [{ bearer: [] }],
        params: FormParamsSchema,
        body: FormSubmitBodySchema,
        response: { 200: SubmitReplySchema, ...failures, 413: V2ErrorListSchema },
      },
    },
    async (request, reply) => {
      if (blankId(request.params.form_id, reply)) return reply;
      const key = apiKeyOf(request);
      const wait = convertSignal(reply, timeoutMs);
      try {
        const submitted = await options.forms.submit(
          key.company,
          { id: key.id, ...(key.userId !== undefined ? { userId: key.userId } : {}) },
          request.params.form_id,
          request.body,
          { publicUrl: options.publicUrl, requestId: request.id, signal: wait.signal },
        );
        return reply.code(200).send(submitted);
      } finally {
        wait.done();
      }
    },
  );
}
