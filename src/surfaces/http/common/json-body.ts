import type { FastifyInstance } from 'fastify';
import { DocpipeError } from '../../../base/errors/index.js';
import { textNestsDeeperThan } from '../../../base/files/index.js';

/**
 * How deep a JSON request body may nest. A convert body is four levels (the body, its documents,
 * a document's tags, a tag) and a tag's value may nest 16 more (the tags' own limit), so 32
 * leaves room; a hostile body nested millions of levels deep is refused at level 33.
 */
export const MAX_BODY_JSON_DEPTH = 32;

/**
 * A JSON body nested past MAX_BODY_JSON_DEPTH. A typed `validation-failed`, so that every
 * surface's error handler answers it in its own shape, and a 400 for Fastify's default handler
 * on routes without one.
 */
export class JsonTooDeepError extends DocpipeError {
  readonly statusCode = 400;
  readonly code = 'DOCPIPE_JSON_TOO_DEEP';

  constructor() {
    super('validation-failed', [
      {
        field: 'body',
        message: `nests arrays or objects more than ${MAX_BODY_JSON_DEPTH} levels deep; send the values as the endpoint's schema describes them`,
      },
    ]);
  }
}

/**
 * Fastify's JSON parser (the body limit cut while reading, the empty body and malformed JSON
 * refused, `__proto__` refused) behind a depth check of the raw text: parsing a body of millions
 * of nested objects held the event loop, and every other client, for seconds.
 */
export function parseJsonBodiesBoundedInDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (textNestsDeeperThan(text, MAX_BODY_JSON_DEPTH)) {
      done(new JsonTooDeepError(), undefined);
      return;
    }
    // Fastify's parser answers through `done` (its type allows a promise, it returns none).
    void parse(request, text, done);
  });
}
