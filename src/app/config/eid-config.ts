import { readFileSync } from 'node:fs';
import {
  clientKeyProblem,
  DEFAULT_EID_BROKER,
  EID_CLIENT_AUTHS,
  EID_SCHEMES,
  isEidScheme,
  issuerProblem,
  type EidBrokerConfig,
  type EidClientAuth,
  type EidConfig,
  type EidScheme,
} from '../../service/eid/index.js';

/**
 * The eID brokers (docs/signing.md#eid-signing), from the environment: one broker from the
 * `DOCPIPE_EID_*` variables, or several from the JSON file `DOCPIPE_EID_BROKERS_FILE`, never
 * both. Nothing set: no broker, and cases sign with `draw` only. Every problem is reported,
 * named by its variable (or the file's member path); a secret's value never is.
 */

/** The variables of the one-broker form. */
export const EID_VARIABLES = {
  issuer: 'DOCPIPE_EID_ISSUER',
  clientId: 'DOCPIPE_EID_CLIENT_ID',
  clientSecret: 'DOCPIPE_EID_CLIENT_SECRET',
  clientAuth: 'DOCPIPE_EID_CLIENT_AUTH',
  privateKeyFile: 'DOCPIPE_EID_PRIVATE_KEY_FILE',
  privateKeyId: 'DOCPIPE_EID_PRIVATE_KEY_ID',
  schemes: 'DOCPIPE_EID_SCHEMES',
  cprClaim: 'DOCPIPE_EID_CPR_CLAIM',
  scopes: 'DOCPIPE_EID_SCOPES',
  maxAuthAgeSeconds: 'DOCPIPE_EID_MAX_AUTH_AGE_S',
  timeoutMs: 'DOCPIPE_EID_TIMEOUT_MS',
  authorizationParams: 'DOCPIPE_EID_AUTH_PARAMS',
} as const;

export const EID_BROKERS_FILE_VARIABLE = 'DOCPIPE_EID_BROKERS_FILE';

/** The members a broker of the file may have (anything else is a typo, refused). */
const FILE_MEMBERS = new Set([
  'name',
  'issuer',
  'clientId',
  'clientSecret',
  'clientSecretEnv',
  'clientAuth',
  'privateKeyFile',
  'privateKeyId',
  'schemes',
  'cprClaim',
  'scopes',
  'maxAuthAgeSeconds',
  'timeoutMs',
  'authorizationParams',
]);

/** A broker before its checks: each member as text or as the file's JSON gave it. */
interface RawBroker {
  name?: unknown;
  issuer?: unknown;
  clientId?: unknown;
  clientSecret?: unknown;
  clientAuth?: unknown;
  privateKeyFile?: unknown;
  privateKeyId?: unknown;
  schemes?: unknown;
  cprClaim?: unknown;
  scopes?: unknown;
  maxAuthAgeSeconds?: unknown;
  timeoutMs?: unknown;
  authorizationParams?: unknown;
}

/** The eID configuration of `env`; problems are added to `problems` (ConfigError at start). */
export function eidConfigFrom(
  env: NodeJS.ProcessEnv,
  problems: string[],
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): EidConfig {
  const file = env[EID_BROKERS_FILE_VARIABLE];
  const oneBroker = Object.values(EID_VARIABLES).filter((name) => env[name]);
  if (file) {
    if (oneBroker.length > 0)
      problems.push(
        `${EID_BROKERS_FILE_VARIABLE} and ${oneBroker.join(', ')} are both set: configure the brokers in the file alone`,
      );
    return { brokers: brokersOfFile(file, env, problems, readFile) };
  }
  if (oneBroker.length === 0) return { brokers: [] };
  if (!env[EID_VARIABLES.issuer]) {
    problems.push(
      `${oneBroker.join(', ')} ${oneBroker.length === 1 ? 'is' : 'are'} set without ${EID_VARIABLES.issuer}: set the broker's issuer too, or none of them`,
    );
    return { brokers: [] };
  }
  const v = EID_VARIABLES;
  const raw: RawBroker = {
    issuer: env[v.issuer],
    clientId: env[v.clientId],
    clientSecret: env[v.clientSecret] || undefined,
    clientAuth: env[v.clientAuth] || undefined,
    privateKeyFile: env[v.privateKeyFile] || undefined,
    privateKeyId: env[v.privateKeyId] || undefined,
    schemes: env[v.schemes],
    cprClaim: env[v.cprClaim] || undefined,
    scopes: env[v.scopes] || undefined,
    maxAuthAgeSeconds: env[v.maxAuthAgeSeconds] || undefined,
    timeoutMs: env[v.timeoutMs] || undefined,
    authorizationParams: env[v.authorizationParams] || undefined,
  };
  const broker = checkBroker(
    raw,
    (member) => (v as Record<string, string | undefined>)[member] ?? member,
    problems,
    readFile,
  );
  return { brokers: broker ? [broker] : [] };
}

function brokersOfFile(
  path: string,
  env: NodeJS.ProcessEnv,
  problems: string[],
  readFile: (path: string) => string,
): EidBrokerConfig[] {
  const at = EID_BROKERS_FILE_VARIABLE;
  let json: unknown;
  try {
    json = JSON.parse(readFile(path));
  } catch (err) {
    const why = err instanceof SyntaxError ? `is no JSON (${err.message})` : 'cannot be read';
    problems.push(`${at}: ${path} ${why}`);
    return [];
  }
  const list = Array.isArray(json)
    ? json
    : typeof json === 'object' &&
        json !== null &&
        Array.isArray((json as { brokers?: unknown }).brokers)
      ? (json as { brokers: unknown[] }).brokers
      : undefined;
  if (!list || list.length === 0) {
    problems.push(`${at}: ${path} must hold {"brokers": [...]} with at least one broker`);
    return [];
  }
  const brokers: EidBrokerConfig[] = [];
  for (const [i, item] of list.entries()) {
    const name = (member: string) => `${at} brokers[${i}].${member}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(`${at} brokers[${i}] must be an object`);
      continue;
    }
    const before = problems.length;
    const raw = { ...(item as Record<string, unknown>) };
    for (const member of Object.keys(raw))
      if (!FILE_MEMBERS.has(member)) problems.push(`${name(member)}: unknown member`);
    if (raw.clientSecretEnv !== undefined) {
      if (raw.clientSecret !== undefined)
        problems.push(`${name('clientSecretEnv')}: give clientSecret or clientSecretEnv, not both`);
      else if (typeof raw.clientSecretEnv !== 'string' || !env[raw.clientSecretEnv])
        problems.push(
          `${name('clientSecretEnv')} must name an environment variable that is set (got ${JSON.stringify(raw.clientSecretEnv)})`,
        );
      else raw.clientSecret = env[raw.clientSecretEnv];
    }
    if (raw.name === undefined && list.length > 1)
      problems.push(`${name('name')} is needed: the file has several brokers`);
    const broker = checkBroker(raw, name, problems, readFile);
    // A broker with any problem is left out whole: half a broker is no broker.
    if (broker && problems.length === before) brokers.push(broker);
  }
  const seen = new Map<string, string>();
  const names = new Set<string>();
  for (const b of brokers) {
    if (names.has(b.name)) problems.push(`${at}: two brokers are named ${JSON.stringify(b.name)}`);
    names.add(b.name);
    for (const scheme of Object.keys(b.schemes)) {
      const other = seen.get(scheme);
      if (other !== undefined)
        problems.push(
          `${at}: ${scheme} is served by both ${other} and ${b.name}: give each scheme one broker`,
        );
      seen.set(scheme, b.name);
    }
  }
  return brokers;
}

/** The broker `raw` describes, checked; undefined (with its problems added) when it is none. */
function checkBroker(
  raw: RawBroker,
  nameOf: (member: string) => string,
  problems: string[],
  readFile: (path: string) => string,
): EidBrokerConfig | undefined {
  const before = problems.length;
  const text = (member: keyof RawBroker, required: boolean): string | undefined => {
    const value = raw[member];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${nameOf(member)} must be a non-empty string`);
      return undefined;
    }
    return value.trim();
  };
  const name = text('name', false) ?? DEFAULT_EID_BROKER.name;
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/i.test(name))
    problems.push(
      `${nameOf('name')} must be letters, digits, - or _ (got ${JSON.stringify(name)})`,
    );
  const issuer = text('issuer', true);
  const issuerWhy = issuer === undefined ? undefined : issuerProblem(issuer);
  if (issuerWhy) problems.push(`${nameOf('issuer')} ${issuerWhy} (got "${issuer}")`);
  const clientId = text('clientId', true);
  // Never echoed: it is a secret.
  const clientSecret = text('clientSecret', false);
  const keyFile = text('privateKeyFile', false);
  const privateKeyId = text('privateKeyId', false);
  let privateKey: string | undefined;
  if (keyFile !== undefined) {
    try {
      privateKey = readFile(keyFile);
    } catch {
      problems.push(`${nameOf('privateKeyFile')}: ${keyFile} cannot be read`);
    }
    // The problem says what kind of key it is, never a byte of it.
    const keyWhy = privateKey === undefined ? undefined : clientKeyProblem(privateKey);
    if (keyWhy) problems.push(`${nameOf('privateKeyFile')}: ${keyFile} ${keyWhy}`);
  }
  const authText = text('clientAuth', false);
  const clientAuth = (authText ??
    (clientSecret ? 'client_secret_basic' : keyFile ? 'private_key_jwt' : 'none')) as EidClientAuth;
  if (!EID_CLIENT_AUTHS.includes(clientAuth))
    problems.push(
      `${nameOf('clientAuth')} must be one of ${EID_CLIENT_AUTHS.join(', ')} (got "${authText}")`,
    );
  else if (clientAuth === 'private_key_jwt') {
    if (keyFile === undefined)
      problems.push(`${nameOf('clientAuth')} private_key_jwt needs ${nameOf('privateKeyFile')}`);
    if (clientSecret)
      problems.push(
        `${nameOf('clientSecret')} is given, and ${nameOf('clientAuth')} is private_key_jwt: leave one out`,
      );
  } else {
    if (clientAuth !== 'none' && !clientSecret)
      problems.push(`${nameOf('clientAuth')} ${clientAuth} needs ${nameOf('clientSecret')}`);
    else if (clientAuth === 'none' && clientSecret)
      problems.push(
        `${nameOf('clientSecret')} is given, and ${nameOf('clientAuth')} is none: leave one out`,
      );
    if (keyFile !== undefined)
      problems.push(
        `${nameOf('privateKeyFile')} is given, and ${nameOf('clientAuth')} is ${clientAuth}: set it to private_key_jwt, or leave the key out`,
      );
  }
  const schemes = schemesOf(raw.schemes, nameOf('schemes'), problems);
  const cprClaim = text('cprClaim', false);
  const scopes = scopesOf(raw.scopes, nameOf('scopes'), problems);
  const maxAuthAgeSeconds = positive(
    raw.maxAuthAgeSeconds,
    DEFAULT_EID_BROKER.maxAuthAgeSeconds,
    nameOf('maxAuthAgeSeconds'),
    problems,
  );
  const timeoutMs = positive(
    raw.timeoutMs,
    DEFAULT_EID_BROKER.timeoutMs,
    nameOf('timeoutMs'),
    problems,
  );
  const authorizationParams = paramsOf(
    raw.authorizationParams,
    nameOf('authorizationParams'),
    problems,
  );
  if (problems.length > before || !issuer || !clientId) return undefined;
  return {
    name,
    issuer,
    clientId,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(privateKey !== undefined ? { privateKey } : {}),
    ...(privateKeyId !== undefined ? { privateKeyId } : {}),
    clientAuth,
    schemes,
    scopes,
    ...(cprClaim !== undefined ? { cprClaim } : {}),
    maxAuthAgeSeconds,
    timeoutMs,
    authorizationParams,
  };
}

/**
 * The schemes and their `acr_values`: a JSON object `{"scheme": "acr"}`, or a list (comma or
 * white space between) of `scheme=acr`, or `scheme` alone when the broker's acr is the scheme's
 * own identifier (as MitID brokers name their levels).
 */
function schemesOf(
  value: unknown,
  name: string,
  problems: string[],
): Partial<Record<EidScheme, string>> {
  let pairs: [string, unknown][];
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      value = JSON.parse(value);
    } catch {
      problems.push(
        `${name} starts as JSON and is none: write {"scheme": "acr"} or scheme=acr,...`,
      );
      return {};
    }
  }
  if (typeof value === 'string')
    pairs = value
      .split(/[\s,]+/)
      .filter((p) => p !== '')
      .map((p) => {
        const eq = p.indexOf('=');
        return eq < 0 ? [p, p] : [p.slice(0, eq), p.slice(eq + 1)];
      });
  else if (Array.isArray(value)) pairs = value.map((s) => [String(s), s]);
  else if (typeof value === 'object' && value !== null) pairs = Object.entries(value);
  else {
    problems.push(
      `${name} must list the eID schemes the broker serves (${EID_SCHEMES.join(', ')}), each as scheme or scheme=acr`,
    );
    return {};
  }
  const schemes: Partial<Record<EidScheme, string>> = {};
  for (const [scheme, acr] of pairs) {
    if (!isEidScheme(scheme))
      problems.push(
        `${name}: ${JSON.stringify(scheme)} is no eID scheme (known: ${EID_SCHEMES.join(', ')})`,
      );
    else if (typeof acr !== 'string' || !/^\S+$/.test(acr))
      problems.push(
        `${name}: the acr of ${scheme} must be one value without spaces (got ${JSON.stringify(acr)})`,
      );
    else if (schemes[scheme] !== undefined) problems.push(`${name}: ${scheme} is listed twice`);
    else schemes[scheme] = acr;
  }
  if (pairs.length === 0) problems.push(`${name} must list at least one eID scheme`);
  return schemes;
}

function scopesOf(value: unknown, name: string, problems: string[]): string[] {
  if (value === undefined) return [...DEFAULT_EID_BROKER.scopes];
  const scopes =
    typeof value === 'string'
      ? value.split(/[\s,]+/).filter((s) => s !== '')
      : Array.isArray(value) && value.every((s) => typeof s === 'string')
        ? value
        : undefined;
  if (!scopes || scopes.some((s) => !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))) {
    problems.push(`${name} must be scopes separated by spaces or commas`);
    return [];
  }
  if (!scopes.includes('openid'))
    problems.push(`${name} must include openid (got "${scopes.join(' ')}")`);
  return scopes;
}

function positive(value: unknown, fallback: number, name: string, problems: string[]): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    problems.push(`${name} must be a positive integer (got ${JSON.stringify(value)})`);
    return fallback;
  }
  return n;
}

/** Extra authorization parameters: `k=v&k=v` (a URL query) or a JSON object of strings. */
function paramsOf(value: unknown, name: string, problems: string[]): Record<string, string> {
  if (value === undefined) return {};
  const entries =
    typeof value === 'string'
      ? [...new URLSearchParams(value)]
      : typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.entries(value)
        : undefined;
  if (!entries || entries.some(([, v]) => typeof v !== 'string')) {
    problems.push(`${name} must be k=v&k=v, or an object of strings`);
    return {};
  }
  // These are docpipe's own: a broker configuration may not weaken them.
  const reserved = entries.filter(([k]) => RESERVED_PARAMS.has(k)).map(([k]) => k);
  if (reserved.length > 0)
    problems.push(`${name} may not set ${reserved.join(', ')}: docpipe sets them`);
  return Object.fromEntries(entries);
}

const RESERVED_PARAMS = new Set([
  'client_id',
  'redirect_uri',
  'scope',
  'response_type',
  'response_mode',
  'acr_values',
  'max_age',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'request',
  'request_uri',
]);
