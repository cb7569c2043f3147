import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RequestPayload,
  RouteOptions,
} from 'fastify';

/**
 * Requests that asked `Expect: 100-continue` and have not been told to go on. Node adds one here
 * only for HTTP/1.1 requests whose Expect names 100-continue (its `checkContinue` event).
 */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** Methods whose body Fastify never reads (its own `bodyless` list). */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * A caller that sends `Expect: 100-continue` waits for `100 Continue` before it sends its body,
 * so that a request refused on its headers costs it nothing. Node answers 100 at once, before any
 * hook ran: a 5 GB body got 100 and then 413, and a request without a key 100 and then 401, so
 * the caller was told to send what would be refused.
 *
 * Here Node leaves the 100 to docpipe (a `checkContinue` listener), and it is sent last thing
 * before the body is read: after every hook of the route (authentication, the rate limit, an
 * upload's media type), as a preParsing hook appended to each route's own, and only when the
 * body will be read: a method that has a body, a media type the route parses, and a
 * Content-Length within the route's body limit (past it the parser answers 413 without reading;
 * the multipart upload's parser holds the same limit). A request refused before then gets its
 * answer without a 100, and its connection closes (early-answer.ts).
 *
 * Installed on the root instance before any route, so every route, those added later included,
 * gets it.
 */
export function continueWhenBodyIsRead(app: FastifyInstance): void {
  app.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    awaitingContinue.add(request);
    app.server.emit('request', request, response);
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    const own = route.preParsing;
    route.preParsing = [
      ...(own === undefined ? [] : Array.isArray(own) ? own : [own]),
      sendContinue,
    ];
  });
}

/** The route's last preParsing hook: the body is read next. */
function sendContinue(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: RequestPayload,
  done: (err: Error | null, payload?: RequestPayload) => void,
): void {
  if (awaitingContinue.delete(request.raw) && bodyWillBeRead(request)) reply.raw.writeContinue();
  done(null, payload);
}

function bodyWillBeRead(request: FastifyRequest): boolean {
  if (BODYLESS_METHODS.has(request.method)) return false;
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > request.routeOptions.bodyLimit) return false;
  const mediaType = request.headers['content-type']?.split(';', 1)[0]!.trim().toLowerCase();
  // Without a parser for its media type, Fastify answers 415 without reading.
  return !!mediaType && request.server.hasContentTypeParser(mediaType);
}
