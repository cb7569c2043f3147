import { isIP } from 'node:net';
import { httpConnectionLimitsFrom, type HttpConnectionLimits } from './http-connections-config.js';

/** The HTTP server's settings, read with the rest of the configuration. */
export interface HttpConfig {
  /** `DOCPIPE_HTTP_HOST`: the address to listen on. @defaultValue '127.0.0.1' (this machine only) */
  host: string;
  /** `DOCPIPE_HTTP_PORT`; 0 takes a free port (logged at start). @defaultValue 8080 */
  port: number;
  /**
   * `DOCPIPE_PUBLIC_URL`: how callers reach this server, the base of every URL docpipe issues
   * (uploads, signed downloads). @defaultValue undefined: `http://<host>:<port>` it listens on
   */
  publicUrl: string | undefined;
  /** `DOCPIPE_SIGNED_URL_TTL_S`: how long a signed download URL works. @defaultValue 900 (15 minutes) */
  signedUrlTtlSeconds: number;
  /** `DOCPIPE_RATE_LIMIT_V2`: requests a minute per key on the v2 and file endpoints; 0 is off. @defaultValue 100 (spec section 8) */
  rateLimitV2: number;
  /** `DOCPIPE_RATE_LIMIT_V3`: requests a minute per key on the v3 API; 0 is off. @defaultValue 0 (spec section 8: none yet) */
  rateLimitV3: number;
  /**
   * `DOCPIPE_HTTP_BODY_LIMIT_BYTES`: the largest request body of the routes that take documents
   * (v2 convert, upload, case create on v3 and v2, form submit); the others take at most
   * SMALL_BODY_LIMIT_BYTES.
   * @defaultValue room for a document of DOCPIPE_MAX_INPUT_BYTES in base64, plus 1 MiB for the
   * rest of the body
   */
  bodyLimitBytes: number;
  /** `DOCPIPE_ADMIN_PASSWORD`: the queue dashboard's password (user `admin`). @defaultValue none: no dashboard */
  adminPassword: string | undefined;
  /**
   * `DOCPIPE_ADMIN_ATTEMPTS_PER_MINUTE`: wrong admin credentials a minute per client address
   * (dashboard and `/metrics`); past them the address gets 429 for the rest of its minute; 0 is
   * off. @defaultValue 10
   */
  adminAttemptsPerMinute: number;
  /**
   * `DOCPIPE_PARTNER_LOOKUPS_PER_MINUTE`: public partner lookups (spec 4.5) a minute per client
   * address; past them 429 for the rest of its minute; 0 is off. @defaultValue 60
   */
  partnerLookupsPerMinute: number;
  /**
   * `DOCPIPE_SIGNING_MISSES_PER_MINUTE`: signing-page requests a minute per client address with a
   * token that opens nothing; past them the address gets 429 on every signing page for the rest
   * of its minute, so that tokens cannot be guessed at the speed of the network; 0 is off.
   * @defaultValue 20
   */
  signingMissesPerMinute: number;
  /**
   * `DOCPIPE_SIGNING_ATTEMPTS_PER_MINUTE`: sign requests a minute for one signing link (each is
   * counted before its image is decoded); past them the link gets 429 for the rest of its minute.
   * Only the link's holder can spend it, so it bounds what one link costs the server, never
   * anyone else's link; 0 is off. @defaultValue 10
   */
  signingAttemptsPerMinute: number;
  /**
   * `DOCPIPE_HTTP_TRUSTED_PROXIES`: the proxies whose `X-Forwarded-For` is believed, comma
   * separated: addresses, CIDR ranges (`10.0.0.0/8`), or `loopback`, `linklocal`, `uniquelocal`.
   * A request from one of them counts as its client's address (rate limits, miss counts, the
   * audit trail); from any other address the header is ignored, as it could be made up.
   * @defaultValue none
   */
  trustedProxies: string[];
  /** `DOCPIPE_HTTP_*_TIMEOUT`, `DOCPIPE_HTTP_MAX_CONNECTIONS`: time and connections a caller may hold. */
  connections: HttpConnectionLimits;
}

/** A person mistypes a link a few times; a guesser needs millions of tries. */
export const DEFAULT_SIGNING_MISSES_PER_MINUTE = 20;
/** A signer who redraws a signature a few times; a script that sends images in a loop. */
export const DEFAULT_SIGNING_ATTEMPTS_PER_MINUTE = 10;

export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 8080;
export const DEFAULT_SIGNED_URL_TTL_S = 15 * 60;
export const DEFAULT_RATE_LIMIT_V2 = 100;
/** Enough for an operator who mistypes, far too few to guess a 12-character password. */
export const DEFAULT_ADMIN_ATTEMPTS_PER_MINUTE = 10;

/**
 * The largest body of a route that takes no document (a pre-signed URL request, the dashboard's
 * actions): their bodies are a few hundred bytes, and a large one only costs the server time.
 */
export const SMALL_BODY_LIMIT_BYTES = 64 * 1024;

/** Base64 grows bytes by a third; the rest of a body (names, tags) fits in a MiB. */
export function defaultBodyLimit(maxInputBytes: number): number {
  return Math.ceil(maxInputBytes / 3) * 4 + 1024 * 1024;
}

export function httpConfigFrom(
  env: NodeJS.ProcessEnv,
  int: (name: string, fallback: number) => number,
  count: (name: string, fallback: number) => number,
  maxInputBytes: number,
  problems: string[],
): HttpConfig {
  const host = env.DOCPIPE_HTTP_HOST || DEFAULT_HTTP_HOST;
  const port = count('DOCPIPE_HTTP_PORT', DEFAULT_HTTP_PORT);
  if (port > 65535) problems.push(`DOCPIPE_HTTP_PORT must be at most 65535 (got ${port})`);
  const publicUrl = env.DOCPIPE_PUBLIC_URL ? env.DOCPIPE_PUBLIC_URL.replace(/\/+$/, '') : undefined;
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+(\/.*)?$/.test(publicUrl))
    problems.push(`DOCPIPE_PUBLIC_URL must be an http:// or https:// URL (got "${publicUrl}")`);
  const adminPassword = env.DOCPIPE_ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 12)
    problems.push('DOCPIPE_ADMIN_PASSWORD must have at least 12 characters');
  return {
    host,
    port,
    publicUrl,
    signedUrlTtlSeconds: int('DOCPIPE_SIGNED_URL_TTL_S', DEFAULT_SIGNED_URL_TTL_S),
    rateLimitV2: count('DOCPIPE_RATE_LIMIT_V2', DEFAULT_RATE_LIMIT_V2),
    rateLimitV3: count('DOCPIPE_RATE_LIMIT_V3', 0),
    bodyLimitBytes: int('DOCPIPE_HTTP_BODY_LIMIT_BYTES', defaultBodyLimit(maxInputBytes)),
    adminPassword,
    adminAttemptsPerMinute: count(
      'DOCPIPE_ADMIN_ATTEMPTS_PER_MINUTE',
      DEFAULT_ADMIN_ATTEMPTS_PER_MINUTE,
    ),
    partnerLookupsPerMinute: count('DOCPIPE_PARTNER_LOOKUPS_PER_MINUTE', 60),
    signingMissesPerMinute: count(
      'DOCPIPE_SIGNING_MISSES_PER_MINUTE',
      DEFAULT_SIGNING_MISSES_PER_MINUTE,
    ),
    signingAttemptsPerMinute: count(
      'DOCPIPE_SIGNING_ATTEMPTS_PER_MINUTE',
      DEFAULT_SIGNING_ATTEMPTS_PER_MINUTE,
    ),
    trustedProxies: trustedProxiesFrom(env.DOCPIPE_HTTP_TRUSTED_PROXIES, problems),
    connections: httpConnectionLimitsFrom(env, int, problems),
  };
}

/** proxy-addr's names for ranges (Fastify's `trustProxy` takes them as they are). */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustedProxiesFrom(value: string | undefined, problems: string[]): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const entry of entries)
    if (!PROXY_RANGES.has(entry) && !isAddressOrRange(entry))
      problems.push(
        `DOCPIPE_HTTP_TRUSTED_PROXIES: "${entry}" is not an address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`,
      );
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  return bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

/** The base of the URLs a server on `host:port` issues: DOCPIPE_PUBLIC_URL, or its own address. */
export function publicUrlOf(http: Pick<HttpConfig, 'host' | 'publicUrl'>, port: number): string {
  if (http.publicUrl !== undefined) return http.publicUrl;
  const host = http.host === '0.0.0.0' || http.host === '::' ? '127.0.0.1' : http.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
