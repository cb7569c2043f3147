import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { PngThreadBusyError, type PngThread } from '../../../formats/raster/index.js';
import { isDocpipeError } from '../../../base/errors/index.js';
import { writtenDate, writtenLanguage } from '../../../base/util/index.js';
import { DEFAULT_TIME_ZONE } from '../../../document/fill/index.js';
import type { Database } from '../../../service/db/index.js';
import {
  denyRecipient,
  isEidScheme,
  MAX_DENIAL_REASON_CHARS,
  readSigningSession,
  shownText,
  signRecipient,
  SigningFailure,
  type SignatureMark,
  type SigningSession,
  type SignOutcome,
} from '../../../service/signing/index.js';
import type { AdminAttempts } from '../common/admin-attempts.js';
import { isBodyTooLarge, bodyTooLargeDetail } from '../common/body-limit.js';
import type { HttpApp } from '../common/create-app.js';
import { validationDetails } from '../common/validation-details.js';
import { csrfTokenFor, csrfTokenMatches } from './csrf-token.js';
import {
  DenyBodySchema,
  MAX_SIGNATURE_HEIGHT,
  MAX_SIGNATURE_IMAGE_BYTES,
  MAX_SIGNATURE_PIXELS,
  MAX_SIGNATURE_WIDTH,
  MAX_TYPED_NAME_CHARS,
  SessionSchema,
  SIGN_BODY_LIMIT,
  SignBodySchema,
  SigningErrorSchema,
  SigningToken,
} from './signing-api-schema.js';
import type { SigningMisses } from './signing-misses.js';
import { Type } from 'typebox';

export interface SigningApiOptions {
  db: Kysely<Database>;
  /** The HMAC secret of the CSRF tokens (the server's signed-URL secret). */
  secret: string;
  misses: SigningMisses;
  /** Sign requests counted per link (by recipient id), before an image is decoded; none counts nothing. */
  attempts?: AdminAttempts;
  /** Where drawn signatures are decoded: a thread with a time budget. */
  images: PngThread;
  /** Told after the last signer signed (the transaction committed): sealing is due. */
  onCompleted?: (outcome: SignOutcome) => Promise<void>;
  /** @defaultValue () => new Date() */
  now?: () => Date;
  /**
   * `DOCPIPE_TIME_ZONE`: the zone of the dates the answer writes out (`expiresOn`), as the
   * e-mails write them.
   * @defaultValue DEFAULT_TIME_ZONE ('Europe/Copenhagen')
   */
  timeZone?: string;
}

const NOT_FOUND = {
  error: 'signing-link-not-found',
  message:
    'This signing link does not open anything: it may be mistyped or already used, or its case may be closed. Ask the sender for a new link.',
};
const TOO_MANY_SIGNS = {
  error: 'too-many-requests',
  message:
    'This signing link was sent too many signatures in a minute; wait a minute and sign again.',
};
const BUSY = {
  error: 'server-busy',
  message: 'The server is decoding many signatures just now; try again in a few seconds.',
};
const CSRF = {
  error: 'csrf-token-invalid',
  message:
    'The request did not carry this page’s CSRF token (X-CSRF-Token); reload the page and try again.',
};
/** A user agent is kept for the audit trail; a longer one is cut, not refused. */
const MAX_USER_AGENT_CHARS = 512;

const errors = (description: string) => ({ description, ...SigningErrorSchema });

/**
 * The signing page's JSON API (load, sign, deny), public like the page: the link's token is the
 * credential, and sign and deny also need the page's CSRF token. Every token that opens nothing
 * (wrong, used, of a denied or expired case) gets the same 404 and counts as a miss for its
 * address (signing-misses.ts). Described in the OpenAPI document, so that a caller can embed
 * signing in its own page.
 */
export function signingApiRoutes(app: HttpApp, options: SigningApiOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const { db, secret, misses } = options;

  app.setErrorHandler((err, request, reply) => {
    const validation = (err as { validation?: Parameters<typeof validationDetails>[0] }).validation;
    if (validation)
      return reply.code(400).send({
        error: 'validation-failed',
        message: 'The request is not one this API takes; see details.',
        details: validationDetails(validation, 'body'),
      });
    if (isBodyTooLarge(err as { code?: string }))
      return reply.code(413).send({
        error: 'validation-failed',
        message: 'The request body is too large.',
        details: [bodyTooLargeDetail(request, 'send a smaller signature image')],
      });
    // The body parser's refusals (nested too deep, a `__proto__` member, not JSON, another media
    // type) are the request's mistakes, in the status the parser gives them.
    if (isDocpipeError(err) && err.status < 500)
      return reply.code(err.status).send({
        error: err.slug,
        message: 'The request body is not one this API takes; see details.',
        details: err.details,
      });
    const status = (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return reply.code(status).send({
        error: 'validation-failed',
        message: 'The request body is not one this API takes; see details.',
        details: [{ field: 'body', message: (err as Error).message }],
      });
    request.log.error({ err }, 'the signing API failed');
    return reply
      .code(500)
      .send({ error: 'internal-error', message: 'Signing failed on our side; try again.' });
  });

  /** The session, or undefined after answering 404 or 429 (a miss counted). */
  const sessionOr = async (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
  ): Promise<SigningSession | undefined> => {
    const session = await readSigningSession(db, token, now());
    if (session) return session;
    if (!(await misses.missed(request, reply))) void reply.code(404).send(NOT_FOUND);
    return undefined;
  };

  /** Whether the CSRF token is right; else answers 403 (a miss: a guesser has none). */
  const csrfOk = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
    if (csrfTokenMatches(secret, token, request.headers['x-csrf-token'])) return true;
    if (!(await misses.missed(request, reply))) void reply.code(403).send(CSRF);
    return false;
  };

  const failed = async (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    if (!(err instanceof SigningFailure)) throw err;
    switch (err.kind) {
      case 'link-not-found':
        if (!(await misses.missed(request, reply))) return reply.code(404).send(NOT_FOUND);
        return reply;
      case 'not-your-turn':
        return reply
          .code(409)
          .send({ error: 'not-your-turn', message: err.message, waitingFor: err.waitingFor });
      case 'invalid':
        return reply
          .code(400)
          .send({ error: 'validation-failed', message: err.message, details: err.details });
      case 'identity-mismatch':
        return reply.code(403).send({ error: 'identity-mismatch', message: err.message });
      case 'not-signing':
        return reply.code(409).send({ error: 'not-signing', message: err.message });
    }
  };

  const context = (request: FastifyRequest) => ({
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, MAX_USER_AGENT_CHARS),
    now: now(),
  });

  app.get(
    '/sign/:token/api',
    {
      schema: {
        tags: ['signing'],
        operationId: 'signingLoad',
        summary: 'What a recipient’s signing link opens',
        description:
          'The case, the recipient, their documents with page images and signature places, whose turn it is, and the CSRF token that sign and deny need. Every token that opens nothing (wrong, used, of a denied or expired case) is the same 404.',
        security: [],
        params: Type.Object({ token: SigningToken }),
        response: {
          200: SessionSchema,
          404: errors('The link opens nothing'),
          429: errors('Too many links that open nothing from this address'),
        },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const session = await sessionOr(request, reply, token);
      if (!session) return reply;
      return reply
        .header('cache-control', 'no-store')
        .send(sessionAnswer(session, token, secret, timeZone));
    },
  );

  app.post(
    '/sign/:token/api/sign',
    {
      bodyLimit: SIGN_BODY_LIMIT,
      schema: {
        tags: ['signing'],
        operationId: 'signingSign',
        summary: 'Sign: a drawn signature, or the typed name',
        description:
          'Records the recipient’s signature once: a retried or concurrent request gets the 404 of a used link. An eID signature starts at `eidStart` instead. Needs `X-CSRF-Token`.',
        security: [],
        params: Type.Object({ token: SigningToken }),
        headers: Type.Object({ 'x-csrf-token': Type.Optional(Type.String()) }),
        body: SignBodySchema,
        response: {
          200: Type.Object({
            status: Type.Literal('signed'),
            completed: Type.Boolean({ description: 'every signer has signed' }),
            redirectUrl: Type.Union([Type.String(), Type.Null()]),
          }),
          400: errors('The image, the name or documentsRead is not right; see details'),
          403: errors('No or a wrong CSRF token, or the eID is someone else'),
          404: errors('The link opens nothing'),
          409: errors('Not this recipient’s turn (waitingFor), or nothing for them to sign'),
          413: errors('The body is too large'),
          429: errors(
            'Too many links that open nothing from this address, or too many signs sent on this link in a minute',
          ),
          503: errors('Too many signature images being decoded at once; retry after Retry-After'),
        },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      if (!(await csrfOk(request, reply, token))) return reply;
      // The link is read and the request counted before anything costs more than a lookup: an
      // image is decoded only for a link that opens, within the link's own allowance.
      const session = await sessionOr(request, reply, token);
      if (!session) return reply;
      const wait = await options.attempts?.failed(session.recipient.id);
      if (wait !== undefined) {
        request.log.warn({ case: session.caseId }, 'signing: too many signs on one link');
        return reply.code(429).header('retry-after', String(wait)).send(TOO_MANY_SIGNS);
      }
      const body = request.body;
      let mark: SignatureMark;
      if (body.method === 'draw') {
        const base64 = body.image.replace(/^data:image\/png;base64,/, '').replace(/\s+/g, '');
        let image;
        try {
          image = await options.images.reencode(Buffer.from(base64, 'base64'), {
            maxBytes: MAX_SIGNATURE_IMAGE_BYTES,
            maxWidth: MAX_SIGNATURE_WIDTH,
            maxHeight: MAX_SIGNATURE_HEIGHT,
            maxPixels: MAX_SIGNATURE_PIXELS,
            trimToInk: true,
          });
        } catch (err) {
          if (!(err instanceof PngThreadBusyError)) throw err;
          return reply.code(503).header('retry-after', '5').send(BUSY);
        }
        if ('problem' in image)
          return reply.code(400).send({
            error: 'validation-failed',
            message: 'The signature image cannot be used.',
            details: [{ field: 'image', message: image.problem }],
          });
        mark = { method: 'draw', image: image.png };
      } else {
        const name = shownText(body.name, 'name', MAX_TYPED_NAME_CHARS);
        if ('problem' in name)
          return reply.code(400).send({
            error: 'validation-failed',
            message: 'The typed name cannot be used.',
            details: [name.problem],
          });
        mark = { method: 'typed', name: name.text };
      }
      let outcome: SignOutcome;
      try {
        outcome = await signRecipient(db, { token }, mark, {
          ...context(request),
          documentsRead: body.documentsRead ?? [],
        });
      } catch (err) {
        return failed(request, reply, err);
      }
      request.log.info(
        { case: outcome.caseId, recipient: outcome.recipientId, completed: outcome.completed },
        'signing: a recipient signed',
      );
      if (outcome.completed && options.onCompleted) await options.onCompleted(outcome);
      return reply.send({
        status: 'signed',
        completed: outcome.completed,
        redirectUrl: outcome.redirectUrl,
      });
    },
  );

  app.post(
    '/sign/:token/api/deny',
    {
      schema: {
        tags: ['signing'],
        operationId: 'signingDeny',
        summary: 'Deny, with a reason: the case ends as denied',
        description: 'Needs `X-CSRF-Token`. The reason is shown to the sender as text.',
        security: [],
        params: Type.Object({ token: SigningToken }),
        headers: Type.Object({ 'x-csrf-token': Type.Optional(Type.String()) }),
        body: DenyBodySchema,
        response: {
          200: Type.Object({ status: Type.Literal('denied') }),
          400: errors('The reason is empty, too long, or holds control characters'),
          403: errors('No or a wrong CSRF token'),
          404: errors('The link opens nothing'),
          409: errors('Nothing for this recipient to deny'),
          429: errors('Too many links that open nothing from this address'),
        },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      if (!(await csrfOk(request, reply, token))) return reply;
      const reason = shownText(request.body.reason, 'reason', MAX_DENIAL_REASON_CHARS);
      if ('problem' in reason)
        return reply.code(400).send({
          error: 'validation-failed',
          message: 'The reason cannot be used.',
          details: [reason.problem],
        });
      try {
        const outcome = await denyRecipient(db, token, reason.text, context(request));
        request.log.info({ case: outcome.caseId }, 'signing: a recipient denied the case');
      } catch (err) {
        return failed(request, reply, err);
      }
      return reply.send({ status: 'denied' });
    },
  );
  return Promise.resolve();
}

/** The load answer: URLs relative to the server's root, same origin as the page. */
function sessionAnswer(session: SigningSession, token: string, secret: string, timeZone: string) {
  const base = `/sign/${encodeURIComponent(token)}`;
  const hasEid = session.recipient.methods.some(isEidScheme);
  return {
    case: {
      title: session.title,
      language: session.language,
      sender: session.sender,
      message: session.message,
      expiresAt: session.expiresAt.toISOString(),
      expiresOn: writtenDate(session.expiresAt, writtenLanguage(session.language), timeZone),
      logo: session.logo === null ? null : `${base}/logo`,
    },
    recipient: {
      name: session.recipient.name,
      number: session.recipient.number,
      group: session.recipient.group,
      signing: session.recipient.signing,
      methods: session.recipient.methods,
      needsCpr: session.recipient.needsCpr,
      message: session.recipient.message,
    },
    mayAct: session.mayAct,
    waitingFor: session.waitingFor,
    documents: session.documents.map((d) => ({
      index: d.index,
      name: d.name,
      pages: d.pages,
      mustBeRead: d.mustBeRead,
      url: d.storageKey === null ? d.url : null,
      pageImages:
        d.storageKey === null || !d.pages
          ? []
          : Array.from(
              { length: Math.min(d.pages, MAX_API_PAGES) },
              (_, i) => `${base}/documents/${d.index}/pages/${i + 1}.png`,
            ),
      places: d.places,
    })),
    csrfToken: csrfTokenFor(secret, token),
    eidStart: hasEid && session.mayAct ? `${base}/eid` : null,
  };
}

/** The page images route serves this many pages of a document (signing-page.ts MAX_SHOWN_PAGES). */
const MAX_API_PAGES = 100;
