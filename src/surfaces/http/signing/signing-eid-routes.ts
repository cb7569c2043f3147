import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { CprCipher } from '../../../service/cpr/index.js';
import type { Database } from '../../../service/db/index.js';
import {
  EID_PENDING_TTL_MS,
  cprMatches,
  isEidBrokerUnavailableError,
  isEidError,
  pendingOf,
  type EidBrokers,
} from '../../../service/eid/index.js';
import {
  readSigningSession,
  signRecipient,
  SigningFailure,
  type SignOutcome,
} from '../../../service/signing/index.js';
import type { HttpApp } from '../common/create-app.js';
import { PAGE_HEADERS, messagePage } from './signing-page.js';
import { SigningToken } from './signing-api-schema.js';
import type { SigningMisses } from './signing-misses.js';

export interface SigningEidOptions {
  db: Kysely<Database>;
  brokers: EidBrokers;
  /** The installation's public URL: the broker sends signers back under it. */
  publicUrl: string;
  misses: SigningMisses;
  /** Decrypts a recipient's stored CPR number to compare with the broker's; none: no CPR check possible. */
  cprCipher?: CprCipher;
  onCompleted?: (outcome: SignOutcome) => Promise<void>;
  now?: () => Date;
}

/** The callback every broker is registered with: one fixed URI, the state finds the login. */
export const EID_CALLBACK_PATH = '/sign/eid/callback';
/**
 * A cookie that brings the signer back to their page when the login ends in anything but a
 * signature (cancelled, someone else's eID). Scoped to the callback's path, HttpOnly, and only
 * for the login's minutes; it holds the signing token, which the link itself holds anyway.
 */
const RETURN_COOKIE = 'docpipe_sign_return';
/**
 * The browser that started a login: a random value the start sets (HttpOnly, SameSite=Lax so
 * that the broker's top-level redirect back brings it, scoped to the callback's path), whose
 * SHA-256 is kept beside the state. The callback signs only when the cookie it brings is that
 * value (RFC 6749 10.12): a broker URL started by someone else and sent to a victim comes back
 * to a browser without it, and signs nothing. A new start in the same browser replaces it.
 */
const BROWSER_COOKIE = 'docpipe_eid_browser';
/**
 * Logins under way kept per recipient: a start past this deletes the recipient's oldest, so
 * that a link opened in a loop writes no more rows than this (two devices, a retry, a tab).
 */
export const MAX_PENDING_LOGINS = 3;

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const stateHash = sha256;

/**
 * eID signing from the signing page: `GET /sign/{token}/eid?scheme=...` starts a login at the
 * scheme's broker (openid-client, through service/eid) and keeps what the callback is checked
 * against in `signing_logins`, found by the SHA-256 of the OAuth state, with the SHA-256 of the
 * starting browser's cookie (at most MAX_PENDING_LOGINS a recipient); `GET /sign/eid/callback`
 * finishes it once (the row is taken as it is read, so a replayed callback finds nothing), in
 * the browser that started it only, compares the CPR number when the case asked for one, and
 * records the signature with the broker's claims.
 */
export function signingEidRoutes(app: HttpApp, options: SigningEidOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  const { db, brokers, misses } = options;
  const callbackUrl = new URL(EID_CALLBACK_PATH.slice(1), withSlash(options.publicUrl)).href;
  const secure = options.publicUrl.startsWith('https:');

  const page = (reply: FastifyReply, code: number, kind: 'notFound' | 'failed', lang?: string) =>
    reply
      .code(code)
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(messagePage(kind, lang));

  app.get(
    '/sign/:token/eid',
    {
      schema: {
        tags: ['signing'],
        operationId: 'signingEidStart',
        summary: 'Start signing with an eID: a redirect to the scheme’s broker',
        security: [],
        params: Type.Object({ token: SigningToken }),
        querystring: Type.Object({ scheme: Type.String({ maxLength: 200 }) }),
        response: {
          302: { description: 'To the broker’s login' },
          404: { description: 'The link opens nothing, or the scheme is not this recipient’s' },
          503: { description: 'The broker does not answer' },
        },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { scheme } = request.query;
      const session = await readSigningSession(db, token, now());
      if (!session) {
        if (!(await misses.missed(request, reply))) return page(reply, 404, 'notFound');
        return reply;
      }
      if (!session.mayAct || !session.recipient.methods.includes(scheme) || !brokers.serves(scheme))
        return page(reply, 404, 'notFound', session.language);
      let started;
      try {
        started = await brokers.start(scheme, { redirectUri: callbackUrl });
      } catch (err) {
        if (!isEidBrokerUnavailableError(err)) throw err;
        request.log.warn({ err }, 'signing: the eID broker does not answer');
        return page(reply, 503, 'failed', session.language);
      }
      const at = now();
      const browser = randomBytes(32).toString('base64url');
      const recipientId = session.recipient.id;
      await db
        .insertInto('signing_logins')
        .values({
          state_hash: stateHash(started.pending.state),
          company_id: session.company,
          case_id: session.caseId,
          recipient_id: recipientId,
          pending: JSON.stringify(started.pending),
          expires_at: new Date(at.getTime() + EID_PENDING_TTL_MS),
          browser_hash: sha256(browser),
        })
        .execute();
      // Logins that were never finished go as new ones start: the table holds minutes of them,
      // and a few of each recipient's (the newest: expiry is the start plus the same minutes).
      await db.deleteFrom('signing_logins').where('expires_at', '<', at).execute();
      await db
        .deleteFrom('signing_logins')
        .where('recipient_id', '=', recipientId)
        .where(
          'state_hash',
          'not in',
          db
            .selectFrom('signing_logins')
            .select('state_hash')
            .where('recipient_id', '=', recipientId)
            .orderBy('expires_at', 'desc')
            .limit(MAX_PENDING_LOGINS),
        )
        .execute();
      const cookie = (name: string, value: string) =>
        `${name}=${value}; Path=${EID_CALLBACK_PATH}; Max-Age=${EID_PENDING_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
      return reply
        .header('set-cookie', [cookie(RETURN_COOKIE, token), cookie(BROWSER_COOKIE, browser)])
        .headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
        .redirect(started.url, 302);
    },
  );

  app.get(
    EID_CALLBACK_PATH,
    {
      schema: {
        tags: ['signing'],
        operationId: 'signingEidCallback',
        summary: 'Where the eID broker sends the signer back',
        security: [],
        querystring: Type.Object({
          state: Type.Optional(Type.String({ maxLength: 512 })),
          code: Type.Optional(Type.String({ maxLength: 4096 })),
          error: Type.Optional(Type.String({ maxLength: 256 })),
          error_description: Type.Optional(Type.String({ maxLength: 2048 })),
          iss: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
        response: {
          302: {
            description:
              'Signed: to the recipient’s redirectUrl or the thank-you page; else back to the signing page',
          },
          404: { description: 'No login under way has this state' },
        },
      },
    },
    async (request, reply) => {
      const back = returnPath(request);
      const state = request.query.state;
      if (!state) return page(reply, 404, 'notFound');
      const login = await db
        .deleteFrom('signing_logins')
        .where('state_hash', '=', stateHash(state))
        .returningAll()
        .executeTakeFirst();
      if (!login || login.expires_at.getTime() < now().getTime()) {
        if (!(await misses.missed(request, reply))) return page(reply, 404, 'notFound');
        return reply;
      }
      // The login is taken whatever follows: its code came to this browser, and a callback in
      // another one must leave nothing that the cookie's holder could finish later.
      void reply.header(
        'set-cookie',
        `${BROWSER_COOKIE}=; Path=${EID_CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`,
      );
      if (!sameBrowser(request, login.browser_hash)) {
        request.log.warn('signing: an eID login came back to a browser that did not start it');
        return reply
          .header('cache-control', 'no-store')
          .redirect(back ? `${back}?eid=elsewhere` : '/sign/done?eid=elsewhere', 302);
      }
      const query = new URL(request.url, 'http://callback').searchParams;
      // The page starts an eID login only once every must-be-read document is read (its eID
      // links do nothing before), as it sends documentsRead with a drawn signature: the login
      // having started stands for that, and without it such a case could never sign by eID.
      const shown = await db
        .selectFrom('case_documents')
        .select('index')
        .where('company_id', '=', login.company_id)
        .where('case_id', '=', login.case_id)
        .execute();
      let outcome: SignOutcome;
      try {
        const identity = await brokers.finish(query, pendingOf(login.pending));
        const { cpr, claims, ...about } = identity;
        outcome = await signRecipient(
          db,
          { company: login.company_id, caseId: login.case_id, recipientId: login.recipient_id },
          {
            method: 'eid',
            identity: {
              scheme: identity.scheme,
              subject: identity.subject,
              claims: {
                ...claims,
                broker: about.broker,
                issuer: about.issuer,
                acr: about.acr,
                authTime: about.authTime,
              },
              ...(cpr !== undefined ? { cpr } : {}),
            },
          },
          {
            ip: request.ip,
            userAgent: String(request.headers['user-agent'] ?? '').slice(0, 512),
            now: now(),
            documentsRead: shown.map((d) => d.index),
            ...(options.cprCipher ? { cprMatches: cprCheck(options.cprCipher) } : {}),
          },
        );
      } catch (err) {
        const reason = eidOutcomeOf(err);
        request.log.warn({ reason }, 'signing: an eID login did not sign');
        return reply
          .header('cache-control', 'no-store')
          .redirect(back ? `${back}?eid=${reason}` : `/sign/done?eid=${reason}`, 302);
      }
      request.log.info(
        { case: outcome.caseId, recipient: outcome.recipientId, completed: outcome.completed },
        'signing: a recipient signed with an eID',
      );
      if (outcome.completed && options.onCompleted) await options.onCompleted(outcome);
      const redirect = outcome.redirectUrl;
      return reply
        .header(
          'set-cookie',
          `${RETURN_COOKIE}=; Path=${EID_CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`,
        )
        .header('cache-control', 'no-store')
        .redirect(
          redirect ?? `/sign/done?eid=signed&lang=${encodeURIComponent(outcome.language)}`,
          302,
        );
    },
  );
  return Promise.resolve();
}

/** The signing page to go back to, from the return cookie, when it holds a token. */
function returnPath(request: FastifyRequest): string | undefined {
  const token = cookieOf(request, RETURN_COOKIE);
  return token ? `/sign/${token}` : undefined;
}

/** Whether the browser cookie `request` brings is the one the login was started with. */
function sameBrowser(request: FastifyRequest, stored: Buffer | null): boolean {
  const value = cookieOf(request, BROWSER_COOKIE);
  if (value === undefined || stored === null || stored.length !== 32) return false;
  // Equal lengths (two SHA-256s), compared in the same time wherever they differ.
  return timingSafeEqual(sha256(value), stored);
}

/** A cookie of ours: base64url, as long as a token or a browser value is. */
function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const cookie = request.headers.cookie ?? '';
  return new RegExp(`(?:^|;\\s*)${name}=([A-Za-z0-9_-]{20,128})(?:;|$)`).exec(cookie)?.[1];
}

/** A word the page shows for a login that did not sign (its `?eid=` parameter). */
function eidOutcomeOf(
  err: unknown,
): 'cancelled' | 'mismatch' | 'unavailable' | 'failed' | 'closed' {
  if (err instanceof SigningFailure)
    return err.kind === 'identity-mismatch'
      ? 'mismatch'
      : err.kind === 'link-not-found'
        ? 'closed'
        : 'failed';
  if (isEidBrokerUnavailableError(err)) return 'unavailable';
  if (isEidError(err)) return err.reason === 'cancelled' ? 'cancelled' : 'failed';
  throw err;
}

function cprCheck(cipher: CprCipher) {
  return (encrypted: Buffer, company: string, claimed: string): boolean => {
    try {
      return cprMatches(cipher.decrypt(encrypted, company), claimed);
    } catch {
      return false;
    }
  };
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
