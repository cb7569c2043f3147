import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** `/sign/<token>...` and `/flow/<token>...`: the token is a person's only credential, kept out of logs. */
const SIGNING_TOKEN = /^(\/(?:sign|flow)\/)[^/?#]+/;

/**
 * The links the account pages send by e-mail (confirm an address, reset a password, take an
 * invitation), under a locale prefix too: whoever holds one within its life acts as its
 * addressee, so a log reader must not see it.
 */
const ACCOUNT_LINK = /^((?:\/(?:da|en))?\/user\/(?:confirm|invitation|password\/reset)\/)[^/?#]+/;

/**
 * A signed download URL's `signature` (and S3's `X-Amz-Signature`): within its expiry it opens
 * the document to whoever holds it, so a log reader must not be able to rebuild the URL.
 */
const URL_SIGNATURE = /([?&](?:signature|x-amz-signature)=)[^&#]*/gi;

/**
 * The eID callback (signing-eid-routes.ts): no token in its path, and in its query the broker's
 * one-time `code` and the login's `state`, which find and finish a login under way.
 */
const EID_CALLBACK = /^\/sign\/eid\/callback(?=[?#]|$)/;
const EID_CALLBACK_PARAMS = /([?&](?:code|state)=)[^&#]*/g;

/**
 * The dashboard's single sign-on (sso-pages.tsx): the callback's one-time `code` and `state`,
 * as the eID's, and the start's `email` (a person's address is not the log's business).
 */
const SSO = /^\/user\/login\/sso(?:\/callback)?(?=[?#]|$)/;
const SSO_PARAMS = /([?&](?:code|state|email)=)[^&#]*/g;

/**
 * The URL as logged: a signing link's token, an account link's token, the eID and single
 * sign-on callbacks' code and state, and a download URL's signature replaced.
 */
export function redactedUrl(url: string): string {
  if (EID_CALLBACK.test(url)) return url.replace(EID_CALLBACK_PARAMS, '$1[redacted]');
  if (SSO.test(url)) return url.replace(SSO_PARAMS, '$1[redacted]');
  return url
    .replace(SIGNING_TOKEN, '$1[token]')
    .replace(ACCOUNT_LINK, '$1[token]')
    .replace(URL_SIGNATURE, '$1[redacted]');
}

/**
 * A child of `logger` whose `req` serializer (Fastify's "incoming request" lines and error lines
 * carry the request) writes the URL redacted; otherwise the fields Fastify's own writes.
 */
export function withRedactedUrls(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child(
    {},
    {
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactedUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket ? req.socket.remotePort : undefined,
        }),
      },
    },
  );
}
