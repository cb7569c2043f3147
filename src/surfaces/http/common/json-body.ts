import type { FastifyInstance } from 'fastify';
import { DocpipeError } from '../../../base/errors/index.js';
import { jsonTextPasses } from '../../../base/files/index.js';

/**
 * How deep a JSON request body may nest. A convert body is four levels (the body, its documents,
 * a document's tags, a tag) and a tag's value may nest 16 more (the tags' own limit), so 32
 * leaves room; a hostile body nested millions of levels deep is refused at level 33.
 */
export const MAX_BODY_JSON_DEPTH = 32;

/**
 * How many members and items a JSON request body may hold in all. A tag list is at most 100,000
 * characters (DOCPIPE_MAX_TAGS_CHARS), so about 50,000 values, and a hundred documents add a few
 * hundred more: 200,000 leaves room. A body of millions of members side by side (a 63 MB object
 * of 6.5 million keys took 16 s to parse, a list of 44 million zeros ran the server out of
 * memory while its schema errors were collected) is refused before it is parsed.
 */
export const MAX_BODY_JSON_VALUES = 200_000;

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

/** A JSON body of more than MAX_BODY_JSON_VALUES members and items, refused like JsonTooDeepError. */
export class JsonTooLargeError extends DocpipeError {
  readonly statusCode = 400;
  readonly code = 'DOCPIPE_JSON_TOO_MANY_VALUES';

  constructor() {
    super('validation-failed', [
      {
        field: 'body',
        message: `holds more than ${MAX_BODY_JSON_VALUES} members and items in all; send the values as the endpoint's schema describes them, or fewer of them per request`,
      },
    ]);
  }
}

/**
 * Fastify's JSON parser (the body limit cut while reading, the empty body and malformed JSON
 * refused, `__proto__` refused) behind a check of the raw text's depth and number of values:
 * parsing a body of millions of nested objects, or of millions of members, held the event loop,
 * and every other client, for seconds.
 */
export function parseJsonBodiesBounded(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const passed = jsonTextPasses(text, {
      maxDepth: MAX_BODY_JSON_DEPTH,
      maxValues: MAX_BODY_JSON_VALUES,
    });
    if (passed !== undefined) {
      done(passed === 'depth' ? new JsonTooDeepError() : new JsonTooLargeError(), undefined);
      return;
    }
    // Fastify's parser answers through `done` (its type allows a promise, it returns none).
    void parse(request, text, done);
  });
}
