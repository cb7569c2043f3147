import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/app/env/index.js';
import { deliveryConfigFrom, loadDeliveryConfig } from '../../src/app/config/delivery-config.js';
import { smtpTlsOf } from '../../src/service/messages/index.js';

const RSA_PEM = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const EC_PEM = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

function read(files: Record<string, string>): (path: string) => string {
  return (path) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  };
}

function problemsOf(env: NodeJS.ProcessEnv, files: Record<string, string> = {}): string[] {
  const problems: string[] = [];
  deliveryConfigFrom(env, '/data', problems, read(files));
  return problems;
}

describe('loadDeliveryConfig', () => {
  it('nothing set: .eml files under the data folder, the default From, 10 MB, no SMS, no DKIM', () => {
    expect(loadDeliveryConfig({}, '/srv/docpipe')).toEqual({
      email: { kind: 'file', dir: '/srv/docpipe/mail' },
      from: { name: 'docpipe', address: 'noreply@localhost' },
      attachMaxBytes: 10 * 1024 * 1024,
      timeZone: 'Europe/Copenhagen',
      timeoutMs: 10_000,
    });
  });

  it('reads every variable', () => {
    const problems: string[] = [];
    const config = deliveryConfigFrom(
      {
        DOCPIPE_SMTP_URL: 'smtps://mailer:p%40ss@mail.example:465',
        DOCPIPE_MAIL_FROM: '"Acme, signing" <sign@acme.example>',
        DOCPIPE_MAIL_ATTACH_MAX_BYTES: '0',
        DOCPIPE_DKIM_DOMAIN: 'Acme.Example',
        DOCPIPE_DKIM_SELECTOR: 'mail2026',
        DOCPIPE_DKIM_KEY_FILE: '/keys/dkim.pem',
        DOCPIPE_SMS_URL: 'https://sms.example/v1/send',
        DOCPIPE_SMS_AUTHORIZATION: 'Bearer abc',
        DOCPIPE_SMS_FROM: 'Acme',
        DOCPIPE_TIME_ZONE: 'Europe/London',
      },
      '/data',
      problems,
      read({ '/keys/dkim.pem': RSA_PEM }),
    );
    expect(problems).toEqual([]);
    expect(config).toEqual({
      email: { kind: 'smtp', url: 'smtps://mailer:p%40ss@mail.example:465' },
      from: { name: 'Acme, signing', address: 'sign@acme.example' },
      attachMaxBytes: 0,
      dkim: { domainName: 'acme.example', keySelector: 'mail2026', privateKey: RSA_PEM },
      sms: { url: 'https://sms.example/v1/send', authorization: 'Bearer abc', from: 'Acme' },
      timeZone: 'Europe/London',
      timeoutMs: 10_000,
    });
    expect(
      loadDeliveryConfig(
        { DOCPIPE_MAIL_DIR: '/var/mail/docpipe', DOCPIPE_MAIL_FROM: 'a@b.example' },
        '/data',
      ),
    ).toMatchObject({
      email: { kind: 'file', dir: '/var/mail/docpipe' },
      from: { name: '', address: 'a@b.example' },
    });
  });

  it('a bad SMTP URL is named, and its password never repeated', () => {
    expect(problemsOf({ DOCPIPE_SMTP_URL: 'mail.example:25' })).toEqual([
      'DOCPIPE_SMTP_URL must start with smtp:// or smtps:// (got "mail.example:25")',
    ]);
    expect(problemsOf({ DOCPIPE_SMTP_URL: 'http://user:hunter2@mail.example' })).toEqual([
      'DOCPIPE_SMTP_URL must start with smtp:// or smtps:// (got "http://user:***@mail.example")',
    ]);
    const notUrl = problemsOf({ DOCPIPE_SMTP_URL: 'smtp://user:hunter2@[bad' });
    expect(notUrl).toEqual([
      'DOCPIPE_SMTP_URL is not a URL (such as smtp://user:password@mail.example:587 or smtps://mail.example:465)',
    ]);
    expect(problemsOf({ DOCPIPE_SMTP_URL: 'smtp://u:%E0%A4%A@mail.example' })).toEqual([
      'DOCPIPE_SMTP_URL: the user name or password is badly percent-encoded (write % as %25, @ as %40, : as %3A)',
    ]);
    expect(problemsOf({ DOCPIPE_SMTP_URL: 'smtp://:hunter2@mail.example' })).toEqual([
      'DOCPIPE_SMTP_URL has a password without a user name (got "smtp://:***@mail.example")',
    ]);
  });

  it("an SMTP URL's ?tls= is required, opportunistic or none, on smtp:// only; the default requires TLS with a user name", () => {
    expect(problemsOf({ DOCPIPE_SMTP_URL: 'smtp://u:hunter2@mail.example?tls=off' })).toEqual([
      'DOCPIPE_SMTP_URL: ?tls= must be one of required, opportunistic, none (got "off")',
    ]);
    expect(problemsOf({ DOCPIPE_SMTP_URL: 'smtp://mail.example?tls=none&tls=required' })).toEqual([
      'DOCPIPE_SMTP_URL: ?tls= must be one of required, opportunistic, none (got "none", "required")',
    ]);
    expect(problemsOf({ DOCPIPE_SMTP_URL: 'smtps://u:hunter2@mail.example?tls=none' })).toEqual([
      'DOCPIPE_SMTP_URL: ?tls= is for smtp:// (smtps:// is TLS from its first byte): leave it out',
    ]);
    const tlsOf = (url: string) => {
      const mode = smtpTlsOf(new URL(url));
      return 'tls' in mode ? mode.tls : mode.problem;
    };
    expect(tlsOf('smtp://u:p@mail.example:587')).toBe('required');
    expect(tlsOf('smtp://u@mail.example:587')).toBe('required');
    expect(tlsOf('smtp://mail.example:25')).toBe('opportunistic');
    expect(tlsOf('smtp://u:p@mail.example:587?tls=opportunistic')).toBe('opportunistic');
    expect(tlsOf('smtp://u:p@mail.example:587?tls=none')).toBe('none');
    expect(tlsOf('smtp://mail.example:25?tls=required')).toBe('required');
    expect(tlsOf('smtps://u:p@mail.example')).toBe('implicit');
    const config = loadDeliveryConfig(
      { DOCPIPE_SMTP_URL: 'smtp://u:p@mail.example:587?tls=opportunistic' },
      '/data',
    );
    expect(config.email).toEqual({
      kind: 'smtp',
      url: 'smtp://u:p@mail.example:587?tls=opportunistic',
    });
  });

  it('an unreadable or wrong DKIM key, or half a DKIM setting, is a clear error', () => {
    const dkim = {
      DOCPIPE_DKIM_DOMAIN: 'acme.example',
      DOCPIPE_DKIM_SELECTOR: 's1',
      DOCPIPE_DKIM_KEY_FILE: '/k.pem',
    };
    expect(problemsOf(dkim)).toEqual([
      'DOCPIPE_DKIM_KEY_FILE (/k.pem) cannot be read: no such file',
    ]);
    expect(problemsOf(dkim, { '/k.pem': 'not a key' })).toEqual([
      'DOCPIPE_DKIM_KEY_FILE (/k.pem) holds no PEM private key',
    ]);
    expect(problemsOf(dkim, { '/k.pem': EC_PEM })).toEqual([
      'DOCPIPE_DKIM_KEY_FILE (/k.pem) holds a key of type ec: DKIM signs with an RSA key',
    ]);
    expect(problemsOf({ DOCPIPE_DKIM_DOMAIN: 'acme.example' })).toEqual([
      'DOCPIPE_DKIM_DOMAIN is set without DOCPIPE_DKIM_SELECTOR and DOCPIPE_DKIM_KEY_FILE: DKIM needs all three (or none)',
    ]);
    expect(
      problemsOf(
        { ...dkim, DOCPIPE_DKIM_DOMAIN: 'acme .example', DOCPIPE_DKIM_SELECTOR: 'a b' },
        { '/k.pem': RSA_PEM },
      ),
    ).toEqual([
      'DOCPIPE_DKIM_DOMAIN must be a domain name such as example.com (got "acme .example")',
      'DOCPIPE_DKIM_SELECTOR must be a selector such as mail2026 (letters, digits, - and _; got "a b")',
    ]);
  });

  it('a bad From, SMS setting or attach limit is named; every problem is reported at once', () => {
    let error: unknown;
    try {
      loadDeliveryConfig(
        {
          DOCPIPE_MAIL_FROM: 'docpipe',
          DOCPIPE_MAIL_ATTACH_MAX_BYTES: '10MB',
          DOCPIPE_SMS_URL: 'ftp://sms.example',
          DOCPIPE_SMS_AUTHORIZATION: 'Bearer a\r\nX-Evil: 1',
          DOCPIPE_SMS_FROM: 'A very long sender name indeed',
        },
        '/data',
      );
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'DOCPIPE_SMS_URL must be an http or https URL (got "ftp://sms.example")',
      'DOCPIPE_SMS_AUTHORIZATION must be one line without control characters',
      'DOCPIPE_SMS_FROM must be one line of at most 20 characters (got "A very long sender name indeed")',
      'DOCPIPE_MAIL_ATTACH_MAX_BYTES must be an integer, 0 or more (got "10MB")',
      'DOCPIPE_MAIL_FROM must be an address, or a name and an address as "docpipe <noreply@example.com>" (got "docpipe")',
    ]);
    expect(problemsOf({ DOCPIPE_SMS_URL: 'https://u:p@sms.example' })).toEqual([
      'DOCPIPE_SMS_URL must not hold credentials: put them in DOCPIPE_SMS_AUTHORIZATION',
    ]);
    expect(problemsOf({ DOCPIPE_SMS_AUTHORIZATION: 'x', DOCPIPE_SMS_FROM: 'y' })).toEqual([
      'DOCPIPE_SMS_AUTHORIZATION and DOCPIPE_SMS_FROM are set without DOCPIPE_SMS_URL',
    ]);
    expect(problemsOf({ DOCPIPE_MAIL_FROM: 'a <b@c.example>\nBcc: d@e' })).toEqual([
      'DOCPIPE_MAIL_FROM must be one line without control characters',
    ]);
  });
});
