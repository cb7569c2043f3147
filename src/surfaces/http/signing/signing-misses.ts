import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminAttempts } from '../common/admin-attempts.js';

/**
 * Signing-page requests whose token opens nothing, counted per client address (the admin
 * credential's counter, under its own name): past the allowance an address gets 429 on every
 * signing route for the rest of its minute, a right token included, so that tokens cannot be
 * guessed at the speed of the network and the one answer that is not 429 tells nothing.
 */
export interface SigningMisses {
  /** Answers 429 and returns true when `request`'s address must wait. */
  refused(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
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
  const tooMany = (reply: FastifyReply, wait: number) => {
    void reply.code(429).header('retry-after', String(wait)).send(TOO_MANY);
    return true;
  };
  return {
    async refused(request, reply) {
      const wait = counter ? await counter.waitFor(request.ip) : undefined;
      return wait === undefined ? false : tooMany(reply, wait);
    },
    async missed(request, reply) {
      const wait = counter ? await counter.failed(request.ip) : undefined;
      if (wait !== undefined) request.log.warn({ address: request.ip }, 'signing: too many misses');
      return wait === undefined ? false : tooMany(reply, wait);
    },
  };
}
