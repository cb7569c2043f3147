import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminAttempts } from './admin-attempts.js';

/** The user name of the admin credential (HTTP Basic); the password is DOCPIPE_ADMIN_PASSWORD. */
export const ADMIN_USER = 'admin';

/**
 * Whether a request carries the admin credential: HTTP Basic, user `admin`, the configured
 * password. Compared as SHA-256 digests in constant time, so neither the length nor any prefix of
 * the password leaks through timing.
 */
export function hasAdminCredential(request: FastifyRequest, password: string): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'base64').toString('utf8');
  const expected = `${ADMIN_USER}:${password}`;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * An onRequest hook that answers 401 with a Basic challenge (so that a browser asks for the
 * credential) unless the request carries the admin credential. With `attempts`, wrong tries are
 * counted per client address (request.ip, the peer of the connection), and an address past its
 * allowance gets 429 with `Retry-After` for the rest of its minute, whatever it sends.
 */
export function requireAdmin(password: string, attempts?: AdminAttempts) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const granted = hasAdminCredential(request, password);
    if (attempts !== undefined) {
      const wait = granted ? await attempts.waitFor(request.ip) : await attempts.failed(request.ip);
      if (wait !== undefined) {
        request.log.warn({ address: request.ip }, 'admin credential: too many wrong tries');
        await reply
          .code(429)
          .header('Retry-After', String(wait))
          .send({
            message: `more than ${attempts.perMinute} wrong admin credentials a minute came from this address; try again in ${wait} s (Retry-After)`,
          });
        return;
      }
    }
    if (granted) return;
    await reply
      .code(401)
      .header('WWW-Authenticate', 'Basic realm="docpipe admin", charset="UTF-8"')
      .send({
        message: `this needs the admin credential: HTTP Basic, user "${ADMIN_USER}" and the password in DOCPIPE_ADMIN_PASSWORD`,
      });
  };
}
