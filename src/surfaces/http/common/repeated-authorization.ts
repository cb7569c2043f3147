import type { FastifyReply, FastifyRequest } from 'fastify';
import { answer, invalid } from './url-surface.js';

/**
 * A root `onRequest` hook that refuses a request carrying `Authorization` more than once, with
 * 400 in its surface's shape, before any authentication. Node keeps the first of repeated
 * `Authorization` headers and drops the rest, while a proxy in front may read the last: the two
 * would disagree on who is calling, and a key or an admin password could be checked for one
 * caller and the request served for another. Only the raw header list still shows the repeat.
 */
export async function refuseRepeatedAuthorization(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'authorization') count++;
  if (count < 2) return undefined;
  request.log.info({ count }, 'request refused: Authorization header repeated');
  return answer(
    request,
    reply,
    invalid([
      {
        field: 'Authorization',
        message: `sent ${count} times; send the header once, with one credential`,
      },
    ]),
  );
}
