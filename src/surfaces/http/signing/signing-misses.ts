import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminAttempts } from '../common/admin-attempts.js';

/**
 * Signing-page requests whose token opens nothing, counted per client address (the admin
 * credential's counter, under its own name): past the allowance a token that opens nothing gets
 * 429 instead of 404 for the rest of the address's minute, so that tokens cannot be guessed at the
 * speed of the network. A token that opens something is always served: the count is only asked
 * after the link was read, because behind a proxy or a NAT one address is many people, and one
 * person's mistyped links must not lock the others out of their own (a guesser learns nothing
 * from that: a right guess of 256 random bits is not what the limit is for).
 */
export interface SigningMisses {
  /** Counts a miss; answers 429 and returns true when it was past the allowance. */
  missed(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

export const TOO_MANY = {
  error: 'too-many-requests',
  message:
    'Too many signing links that do not work were tried from this address; wait a minute and try again.',
};

/** SigningMisses over a counter; none counts nothing (DOCPIPE_SIGNING_MISSES_PER_MINUTE=0). */
export function signingMisses(counter: AdminAttempts | undefined): SigningMisses {
  return {
    async missed(request, reply) {
      const wait = counter ? await counter.failed(request.ip) : undefined;
      if (wait === undefined) return false;
      request.log.warn({ address: request.ip }, 'signing: too many misses');
      void reply.code(429).header('retry-after', String(wait)).send(TOO_MANY);
      return true;
    },
  };
}
