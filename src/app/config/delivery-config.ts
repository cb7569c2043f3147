import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_TIME_ZONE } from '../../document/fill/index.js';
import { safeUrl } from '../../base/util/index.js';
import {
  DEFAULT_ATTACH_MAX_BYTES,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  DEFAULT_MAIL_FROM,
  smtpTlsOf,
  type DeliveryConfig,
  type MailAddress,
} from '../../service/messages/index.js';
import { ConfigError, envNumbers } from '../env/index.js';

/** The variables of message delivery (docs/configuration.md, docs/delivery.md). */
export const DELIVERY_VARIABLES = {
  smtpUrl: 'DOCPIPE_SMTP_URL',
  mailFrom: 'DOCPIPE_MAIL_FROM',
  mailDir: 'DOCPIPE_MAIL_DIR',
  attachMaxBytes: 'DOCPIPE_MAIL_ATTACH_MAX_BYTES',
  dkimDomain: 'DOCPIPE_DKIM_DOMAIN',
  dkimSelector: 'DOCPIPE_DKIM_SELECTOR',
  dkimKeyFile: 'DOCPIPE_DKIM_KEY_FILE',
  smsUrl: 'DOCPIPE_SMS_URL',
  smsAuthorization: 'DOCPIPE_SMS_AUTHORIZATION',
  smsFrom: 'DOCPIPE_SMS_FROM',
} as const;

/**
 * The delivery configuration of `env`, checked whole: every problem is thrown at once as a
 * ConfigError naming its variable; an SMTP URL's password is never repeated in one.
 */
export function loadDeliveryConfig(env: NodeJS.ProcessEnv, dataDir: string): DeliveryConfig {
  const problems: string[] = [];
  const config = deliveryConfigFrom(env, dataDir, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** As loadDeliveryConfig, adding problems to `problems` (for loadConfig's one report). */
export function deliveryConfigFrom(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  problems: string[],
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): DeliveryConfig {
  const v = DELIVERY_VARIABLES;
  const smtpUrl = smtpUrlFrom(env[v.smtpUrl], problems);
  const dkim = dkimFrom(env, problems, readFile);
  const sms = smsFrom(env, problems);
  const attachMaxBytes = envNumbers(env, problems).count(
    v.attachMaxBytes,
    DEFAULT_ATTACH_MAX_BYTES,
  );
  return {
    email: smtpUrl
      ? { kind: 'smtp', url: smtpUrl }
      : { kind: 'file', dir: resolve(env[v.mailDir] || join(dataDir, 'mail')) },
    from: mailFromOf(env[v.mailFrom], problems),
    ...(dkim ? { dkim } : {}),
    attachMaxBytes,
    ...(sms ? { sms } : {}),
    timeZone: env.DOCPIPE_TIME_ZONE || DEFAULT_TIME_ZONE,
    timeoutMs: DEFAULT_DELIVERY_TIMEOUT_MS,
  };
}

function smtpUrlFrom(text: string | undefined, problems: string[]): string | undefined {
  if (!text) return undefined;
  const name = DELIVERY_VARIABLES.smtpUrl;
  const example = 'such as smtp://user:password@mail.example:587 or smtps://mail.example:465';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text may hold a password: it is not repeated.
    problems.push(`${name} is not a URL (${example})`);
    return undefined;
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    problems.push(`${name} must start with smtp:// or smtps:// (got "${safeUrl(text)}")`);
    return undefined;
  }
  if (!url.hostname) {
    problems.push(`${name} names no host (${example})`);
    return undefined;
  }
  if (url.password && !url.username) {
    problems.push(`${name} has a password without a user name (got "${safeUrl(text)}")`);
    return undefined;
  }
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    problems.push(
      `${name}: the user name or password is badly percent-encoded (write % as %25, @ as %40, : as %3A)`,
    );
    return undefined;
  }
  const tls = smtpTlsOf(url);
  if ('problem' in tls) {
    problems.push(`${name}: ${tls.problem}`);
    return undefined;
  }
  return url.href;
}

/**
 * `Name <address>` or a bare address. The address must be one plain address (it goes into the
 * From header of every message and the SMTP envelope); controls and line breaks are refused.
 */
function mailFromOf(text: string | undefined, problems: string[]): MailAddress {
  if (!text) return DEFAULT_MAIL_FROM;
  const name = DELIVERY_VARIABLES.mailFrom;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) {
    problems.push(`${name} must be one line without control characters`);
    return DEFAULT_MAIL_FROM;
  }
  const withName = /^\s*(?:"([^"]*)"|([^<>"]*?))\s*<([^<>\s]+)>\s*$/.exec(text);
  const address = (withName ? withName[3] : text.trim()) ?? '';
  const display = (withName ? (withName[1] ?? withName[2]) : '') ?? '';
  if (!/^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/.test(address)) {
    problems.push(
      `${name} must be an address, or a name and an address as "docpipe <noreply@example.com>" (got "${text}")`,
    );
    return DEFAULT_MAIL_FROM;
  }
  return { name: display.trim(), address };
}

function dkimFrom(
  env: NodeJS.ProcessEnv,
  problems: string[],
  readFile: (path: string) => string,
): DeliveryConfig['dkim'] {
  const v = DELIVERY_VARIABLES;
  const names = [v.dkimDomain, v.dkimSelector, v.dkimKeyFile];
  const set = names.filter((n) => env[n]);
  if (set.length === 0) return undefined;
  if (set.length < names.length) {
    const missing = names.filter((n) => !env[n]);
    problems.push(
      `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set without ${missing.join(' and ')}: DKIM needs all three (or none)`,
    );
    return undefined;
  }
  const before = problems.length;
  const domainName = env[v.dkimDomain]!.trim().toLowerCase();
  if (
    !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(
      domainName,
    )
  )
    problems.push(
      `${v.dkimDomain} must be a domain name such as example.com (got "${domainName}")`,
    );
  const keySelector = env[v.dkimSelector]!.trim();
  if (
    !/^[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?)*$/.test(
      keySelector,
    )
  )
    problems.push(
      `${v.dkimSelector} must be a selector such as mail2026 (letters, digits, - and _; got "${keySelector}")`,
    );
  const path = env[v.dkimKeyFile]!;
  let privateKey = '';
  try {
    privateKey = readFile(path);
  } catch (err) {
    problems.push(`${v.dkimKeyFile} (${path}) cannot be read: ${readProblem(err)}`);
  }
  if (privateKey) {
    try {
      const key = createPrivateKey(privateKey);
      // nodemailer's DKIM signer signs with RSA (rsa-sha256) only.
      if (key.asymmetricKeyType !== 'rsa')
        problems.push(
          `${v.dkimKeyFile} (${path}) holds a key of type ${key.asymmetricKeyType}: DKIM signs with an RSA key`,
        );
    } catch {
      problems.push(`${v.dkimKeyFile} (${path}) holds no PEM private key`);
    }
  }
  return problems.length === before ? { domainName, keySelector, privateKey } : undefined;
}

function smsFrom(env: NodeJS.ProcessEnv, problems: string[]): DeliveryConfig['sms'] {
  const v = DELIVERY_VARIABLES;
  const text = env[v.smsUrl];
  const authorization = env[v.smsAuthorization] || undefined;
  const from = env[v.smsFrom] || undefined;
  if (!text) {
    const stray = [v.smsAuthorization, v.smsFrom].filter((n) => env[n]);
    if (stray.length > 0)
      problems.push(
        `${stray.join(' and ')} ${stray.length === 1 ? 'is' : 'are'} set without ${v.smsUrl}`,
      );
    return undefined;
  }
  const before = problems.length;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    problems.push(`${v.smsUrl} must be an http or https URL`);
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:')
    problems.push(`${v.smsUrl} must be an http or https URL (got "${safeUrl(text)}")`);
  if (url && (url.username || url.password))
    problems.push(`${v.smsUrl} must not hold credentials: put them in ${v.smsAuthorization}`);
  // eslint-disable-next-line no-control-regex
  if (authorization !== undefined && /[\u0000-\u001f\u007f]/.test(authorization))
    problems.push(`${v.smsAuthorization} must be one line without control characters`);
  // eslint-disable-next-line no-control-regex
  if (from !== undefined && (/[\u0000-\u001f\u007f]/.test(from) || Array.from(from).length > 20))
    problems.push(`${v.smsFrom} must be one line of at most 20 characters (got "${from}")`);
  if (problems.length > before || !url) return undefined;
  return {
    url: url.href,
    ...(authorization !== undefined ? { authorization } : {}),
    ...(from !== undefined ? { from } : {}),
  };
}

function readProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'not readable by docpipe';
  if (code === 'EISDIR') return 'it is a folder';
  return err instanceof Error ? err.message : String(err);
}
