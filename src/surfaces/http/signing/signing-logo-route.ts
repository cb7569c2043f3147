import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { readSigningSession } from '../../../service/signing/index.js';
import type { Database } from '../../../service/db/index.js';
import type { HttpApp } from '../common/create-app.js';
import { PAGE_HEADERS } from './signing-page.js';
import type { SigningMisses } from './signing-misses.js';

export interface SigningLogoOptions {
  db: Kysely<Database>;
  misses?: SigningMisses;
  now: () => Date;
  /** Answers a link that opens nothing (the signing pages' 404 page). */
  notFound: (reply: FastifyReply, language?: string) => FastifyReply;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * `GET /sign/{token}/logo`: the case's `settings.logo` for its signing page. Bytes are served as
 * the type their first bytes show (PNG or JPEG, whatever the case claimed), with `nosniff`. A URL
 * (one of this service's, checked when the case was made) is followed by path only, so that the
 * browser stays on the origin it opened the page on, whichever of the service's names that was.
 */
export function signingLogoRoute(app: HttpApp, options: SigningLogoOptions): void {
  app.get(
    '/sign/:token/logo',
    {
      schema: {
        tags: ['signing'],
        operationId: 'signingLogo',
        summary: 'The company logo of a signing page',
        description:
          'The case’s `settings.logo`: a PNG or JPEG (by its bytes), or a redirect to the path of the service URL it names. A link that opens nothing, or a case without a logo, is a 404 page.',
        security: [],
        params: Type.Object({ token: Type.String({ maxLength: 128 }) }),
        response: {
          200: {
            description: 'The logo',
            content: {
              'image/png': { schema: Type.String({ format: 'binary' }) },
              'image/jpeg': { schema: Type.String({ format: 'binary' }) },
            },
          },
          302: { description: 'The logo is at this path of the service' },
          404: {
            description: 'No logo, or the link opens nothing',
            content: { 'text/html': { schema: Type.String() } },
          },
        },
      },
    },
    async (request, reply) => {
      const session = await readSigningSession(options.db, request.params.token, options.now());
      if (!session) {
        if (options.misses && (await options.misses.missed(request, reply))) return reply;
        return options.notFound(reply);
      }
      const logo = session.logo;
      if (logo === null) return options.notFound(reply, session.language);
      if (/^[a-z][a-z0-9+.-]*:/i.test(logo)) {
        const path = samePath(logo);
        if (!path) return options.notFound(reply, session.language);
        return reply.headers(PAGE_HEADERS).redirect(path, 302);
      }
      const bytes = Buffer.from(logo.replace(/\s+/g, ''), 'base64');
      const type = startsWith(bytes, PNG)
        ? 'image/png'
        : startsWith(bytes, JPEG)
          ? 'image/jpeg'
          : undefined;
      if (!type) return options.notFound(reply, session.language);
      return reply.headers(PAGE_HEADERS).type(type).send(bytes);
    },
  );
}

/** The path and query of an http(s) URL, never one a browser would read as another host. */
function samePath(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const path = `${parsed.pathname}${parsed.search}`;
  // `//host` and `/\host` are other hosts to a browser; URL's pathname never starts so, but a
  // redirect that could leave the origin is not worth trusting to that.
  return /^\/(?![/\\])/.test(path) ? path : undefined;
}

function startsWith(bytes: Buffer, magic: Buffer): boolean {
  return bytes.byteLength >= magic.byteLength && bytes.subarray(0, magic.byteLength).equals(magic);
}
