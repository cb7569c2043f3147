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
 * A JSON body with a member `__proto__`, or a `constructor` holding a `prototype`: valid JSON, but
 * code that copies such a body into an object would change the prototype of every object.
 * Fastify refuses it as "not valid JSON", which sends the caller looking for a syntax error.
 */
export class JsonPrototypeMemberError extends DocpipeError {
  readonly statusCode = 400;
  readonly code = 'DOCPIPE_JSON_PROTOTYPE_MEMBER';

  constructor(member: string) {
    super('validation-failed', [
      {
        field: 'body',
        message: `has a member ${member}, which docpipe refuses (it could change the prototype of objects built from the body); no endpoint takes one: remove it or rename it`,
      },
    ]);
  }
}

/**
 * The forbidden member of a body Fastify refused, if that was why: `text` is valid JSON (parsed
 * again with JSON.parse, which keeps `__proto__` as a plain member) and holds one. Only refused
 * bodies are parsed again, and they passed the bounds of jsonTextPasses.
 */
function prototypeMember(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (Object.hasOwn(next, '__proto__')) return '"__proto__"';
    const ctor = (next as Record<string, unknown>)['constructor'];
    if (Object.hasOwn(next, 'constructor') && typeof ctor === 'object' && ctor !== null) {
      if (Object.hasOwn(ctor, 'prototype')) return '"constructor" with a "prototype"';
    }
    // Not spread: a list of 200,000 items as arguments overflows the stack.
    for (const item of Object.values(next)) pending.push(item);
  }
  return undefined;
}

/**
 * Fastify's JSON parser (the body limit cut while reading, the empty body of a route that takes
 * one and malformed JSON refused, `__proto__` refused) behind a check of the raw text's depth and number of values:
 * parsing a body of millions of nested objects, or of millions of members, held the event loop,
 * and every other client, for seconds. A body refused for a `__proto__` member is told so.
 */
export function parseJsonBodiesBounded(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    // A route that takes no body (POST /v3/api/cases/{id}/send) is called by many clients with
    // `Content-Type: application/json` and nothing after it: that is no body, not broken JSON.
    if (text.trim() === '' && request.routeOptions.schema?.body === undefined) {
      done(null, undefined);
      return;
    }
    const passed = jsonTextPasses(text, {
      maxDepth: MAX_BODY_JSON_DEPTH,
      maxValues: MAX_BODY_JSON_VALUES,
    });
    if (passed !== undefined) {
      done(passed === 'depth' ? new JsonTooDeepError() : new JsonTooLargeError(), undefined);
      return;
    }
    // Fastify's parser answers through `done` (its type allows a promise, it returns none).
    void parse(request, text, (err, parsed) => {
      const member =
        err && (err as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY'
          ? prototypeMember(text)
          : undefined;
      if (member !== undefined) done(new JsonPrototypeMemberError(member), undefined);
      else done(err, parsed);
    });
  });
}
