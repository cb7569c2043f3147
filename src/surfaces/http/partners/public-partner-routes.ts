import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../../service/db/index.js';
import { MAX_REF_CHARS, findReferrer, partnerLogo } from '../../../service/partners/index.js';
import type { AdminAttempts } from '../common/admin-attempts.js';
import type { HttpApp } from '../common/create-app.js';

export interface PublicPartnerOptions {
  db: Kysely<Database>;
  /** This service's public base URL: the logo's address. */
  publicUrl: string;
  /** Lookups per client address a minute; undefined: not limited. */
  lookups: AdminAttempts | undefined;
}

const Params = Type.Object({ ref: Type.String({ minLength: 1, maxLength: MAX_REF_CHARS }) });

const PartnerAnswer = Type.Union(
  [
    Type.Object(
      {
        isPartner: Type.Literal(true),
        name: Type.String(),
        logo: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
          description: "The partner's logo (PNG or JPEG), or null when it has none",
        }),
        webhookEnabled: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    Type.Object({ isPartner: Type.Literal(false) }, { additionalProperties: false }),
  ],
  { description: 'An active partner, or `{isPartner: false}` for anything else' },
);

const TooMany = Type.Object({
  error: Type.Literal('rate-limited'),
  details: Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
});

/**
 * Spec 4.5: `GET /v3/public/partner/{ref}` and its logo, without authentication. `ref` is a
 * referral code (any case) or a company id. An active partner (spec 2.5's isPartner, the company
 * not disabled) answers `{isPartner: true, name, logo, webhookEnabled}`; anything else (an
 * unknown ref, a company that is no partner or is disabled) answers `{isPartner: false}`, 200
 * alike, after the same one query, so that neither the answer nor its time tells which
 * companies exist. Counted per client address (DOCPIPE_PARTNER_LOOKUPS_PER_MINUTE): 429 past it.
 */
export function publicPartnerRoutes(app: HttpApp, options: PublicPartnerOptions): Promise<void> {
  /** The seconds a client must wait, or undefined; every lookup counts. */
  const limited = async (ip: string) => options.lookups?.failed(ip);
  const tooMany = (seconds: number) => ({
    error: 'rate-limited' as const,
    details: [
      {
        field: 'ref',
        message: `too many partner lookups from this address: try again in ${seconds} s`,
      },
    ],
  });

  app.get(
    '/v3/public/partner/:ref',
    {
      schema: {
        tags: ['partners'],
        operationId: 'publicPartner',
        summary: 'Look up a referral partner',
        description:
          'Whether a referral code or a company id names an active partner, with its name, logo and whether it can receive `partner.customer.registered`. Anything else answers `{isPartner: false}`, also with 200. Counted per client address; 429 `rate-limited` with `Retry-After` past the limit.',
        security: [],
        params: Params,
        response: { 200: PartnerAnswer, 429: TooMany },
      },
    },
    async (request, reply) => {
      const wait = await limited(request.ip);
      if (wait !== undefined)
        return reply.code(429).header('retry-after', String(wait)).send(tooMany(wait));
      const found = await findReferrer(options.db, request.params.ref);
      reply.header('cache-control', 'no-store');
      if (!found?.activePartner) return { isPartner: false as const };
      return {
        isPartner: true as const,
        name: found.name,
        logo: found.hasLogo
          ? `${options.publicUrl}/v3/public/partner/${encodeURIComponent(request.params.ref)}/logo`
          : null,
        webhookEnabled: found.webhookEnabled,
      };
    },
  );

  app.get(
    '/v3/public/partner/:ref/logo',
    {
      schema: {
        tags: ['partners'],
        operationId: 'publicPartnerLogo',
        summary: "A referral partner's logo",
        description:
          'The logo of the active partner `ref` names (a PNG or a JPEG, by its bytes); 404 for anything else.',
        security: [],
        params: Params,
        response: {
          200: {
            description: 'The logo',
            content: {
              'image/png': { schema: Type.String({ format: 'binary' }) },
              'image/jpeg': { schema: Type.String({ format: 'binary' }) },
            },
          },
          404: {
            description: 'No active partner with a logo',
            content: {
              'application/json': { schema: Type.Object({ error: Type.Literal('not-found') }) },
            },
          },
          429: {
            description: 'Too many lookups',
            content: { 'application/json': { schema: TooMany } },
          },
        },
      },
    },
    async (request, reply) => {
      const wait = await limited(request.ip);
      if (wait !== undefined)
        return reply.code(429).header('retry-after', String(wait)).send(tooMany(wait));
      const logo = await partnerLogo(options.db, request.params.ref);
      if (!logo) return reply.code(404).send({ error: 'not-found' as const });
      return reply
        .headers({ 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=300' })
        .type(logo.type)
        .send(
          // Fastify sends a Buffer as its bytes; the schema's binary string stands for them.
          logo.bytes as unknown as string,
        );
    },
  );
  return Promise.resolve();
}
