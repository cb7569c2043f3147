import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/app/env/index.js';
import { loadWebhookConfig } from '../../src/app/config/index.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import {
  DestinationRefusedError,
  MAX_RETRY_DELAY_MS,
  checkWebhook,
  refusedKind,
  resolveDestination,
  retryDelay,
  signatureOf,
  verifySignature,
} from '../../src/service/webhooks/index.js';

describe('retryDelay', () => {
  it('doubles from the base per attempt, with equal jitter between half and all of it', () => {
    expect(retryDelay(1, 30_000, 0)).toBe(15_000);
    expect(retryDelay(1, 30_000, 1)).toBe(30_000);
    expect(retryDelay(2, 30_000, 0)).toBe(30_000);
    expect(retryDelay(3, 30_000, 0.5)).toBe(90_000);
    expect(retryDelay(4, 50, 1)).toBe(400);
  });

  it('caps every delay at two hours, also for attempts far out', () => {
    expect(retryDelay(9, 30_000, 1)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelay(10_000, 30_000, 1)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelay(10_000, 30_000, 0)).toBe(MAX_RETRY_DELAY_MS / 2);
    expect(retryDelay(3, 1000, 1, 2500)).toBe(2500);
  });

  it('retries the default schedule for a day in 19 to 31 tries', () => {
    const count = (random: number) => {
      let elapsed = 0;
      let attempt = 1;
      for (;;) {
        const next = elapsed + retryDelay(attempt, 30_000, random);
        if (next > 24 * 3600_000) return attempt;
        elapsed = next;
        attempt++;
      }
    };
    expect(count(1)).toBe(19);
    expect(count(0)).toBe(31);
  });
});

describe('checkWebhook', () => {
  const refusal = (input: Parameters<typeof checkWebhook>[0]) => {
    try {
      checkWebhook(input);
    } catch (err) {
      expect(err).toBeInstanceOf(DocpipeError);
      expect((err as DocpipeError).slug).toBe('validation-failed');
      return (err as DocpipeError).details;
    }
    throw new Error('not refused');
  };

  it('takes a URL, triggers once each, headers by name, POST and active by default', () => {
    expect(
      checkWebhook({
        url: 'https://hooks.example/in?x=1',
        triggers: ['case.created', '*', 'case.created'],
        headers: ['X-Key:  abc ', 'Content-Type: application/vnd.x+json'],
      }),
    ).toEqual({
      url: 'https://hooks.example/in?x=1',
      method: 'POST',
      triggers: ['case.created', '*'],
      headers: { 'X-Key': 'abc', 'Content-Type': 'application/vnd.x+json' },
      active: true,
    });
    expect(checkWebhook({ url: 'http://10.0.0.1/', triggers: ['*'], method: 'put' }).method).toBe(
      'PUT',
    );
  });

  it('refuses every problem at once, each by the flag it was typed with', () => {
    expect(
      refusal({
        url: 'ftp://user:pw@files.example/x',
        method: 'GET',
        triggers: ['case.created', 'case.exploded'],
        headers: [
          'Host: evil.example',
          'X-Docpipe-Signature: sha256=00',
          'Content-Length: 5',
          'Transfer-Encoding: chunked',
          'Connection: close',
          'X-A: b\r\nX-Injected: 1',
          'X Bad: 1',
          'no colon',
          'X-Nul: a\u0000b',
        ],
      }),
    ).toEqual([
      { field: '--url', message: 'must be http or https (got ftp)' },
      {
        field: '--url',
        message: 'must not hold credentials (user:password@); send them in a --header',
      },
      { field: '--method', message: 'must be POST, PUT or PATCH (got "GET")' },
      {
        field: '--trigger',
        message:
          '"case.exploded" is no trigger: give case.created, case.sent, recipient.signed, recipient.invited, recipient.reminded, case.signed, case.denied, case.expired, case.deleted, workflow.completed, or * for all',
      },
      { field: '--header', message: 'Host is set by docpipe (it frames or routes the request)' },
      {
        field: '--header',
        message: "X-Docpipe-Signature is docpipe's own (the signature headers cannot be replaced)",
      },
      {
        field: '--header',
        message: 'Content-Length is set by docpipe (it frames or routes the request)',
      },
      {
        field: '--header',
        message: 'Transfer-Encoding is set by docpipe (it frames or routes the request)',
      },
      {
        field: '--header',
        message: 'Connection is set by docpipe (it frames or routes the request)',
      },
      {
        field: '--header',
        message: '"X-A: b\\r\\nX-Injected: 1" holds a CR, LF or NUL: one line of Name: value',
      },
      { field: '--header', message: '"X Bad: 1": "X Bad" is not a header name' },
      { field: '--header', message: '"no colon" is not Name: value' },
      {
        field: '--header',
        message: '"X-Nul: a\\u0000b" holds a CR, LF or NUL: one line of Name: value',
      },
    ]);
  });

  it('refuses no trigger, a text that is no URL, no host, and a header given twice', () => {
    expect(refusal({ url: 'not a url', triggers: [] })).toEqual([
      { field: '--url', message: '"not a url" is not a URL: give http(s)://host/path' },
      {
        field: '--trigger',
        message:
          'give at least one: case.created, case.sent, recipient.signed, recipient.invited, recipient.reminded, case.signed, case.denied, case.expired, case.deleted, workflow.completed, or * for all',
      },
    ]);
    expect(refusal({ url: 'https://u@x.example/', triggers: ['*'] })).toHaveLength(1);
    expect(refusal({ url: 'http://a/', triggers: ['*'], headers: ['X-K: 1', 'x-k: 2'] })).toEqual([
      { field: '--header', message: 'x-k is given twice' },
    ]);
  });
  it('refuses every X-Docpipe- name, and a value that is not printable ASCII, naming the header', () => {
    expect(
      refusal({
        url: 'https://hooks.example/in',
        triggers: ['*'],
        headers: [
          'X-Docpipe-Tenant: acme',
          'x-docpipe-signature-version: 2',
          'X-City: Łódź',
          'X-Name: Søren',
          'X-Emoji: ok \u{1f44d}',
          'X-Del: a\u007fb',
          'X-C1: a\u0085b',
          'Content-Encoding: gzip',
          'X-Fine: tab\tand space ~!',
        ],
      }),
    ).toEqual([
      {
        field: '--header',
        message:
          "X-Docpipe-Tenant: the X-Docpipe- headers are docpipe's own (a receiver trusts them to come from docpipe); choose another name",
      },
      {
        field: '--header',
        message:
          "x-docpipe-signature-version: the X-Docpipe- headers are docpipe's own (a receiver trusts them to come from docpipe); choose another name",
      },
      {
        field: '--header',
        message:
          'X-City\'s value holds "Ł" (U+0141): a header value is printable ASCII; percent-encode or base64 the text',
      },
      {
        field: '--header',
        message:
          'X-Name\'s value holds "ø" (U+00F8): a header value is printable ASCII; percent-encode or base64 the text',
      },
      {
        field: '--header',
        message:
          'X-Emoji\'s value holds "\u{1f44d}" (U+1F44D): a header value is printable ASCII; percent-encode or base64 the text',
      },
      { field: '--header', message: "X-Del's value holds a control character (U+007F)" },
      { field: '--header', message: "X-C1's value holds a control character (U+0085)" },
      {
        field: '--header',
        message: 'Content-Encoding is set by docpipe (it frames or routes the request)',
      },
    ]);
  });
});

describe('destination guard', () => {
  it('names the kind of each private, loopback and link-local address, and passes public ones', () => {
    const kinds = Object.fromEntries(
      [
        '127.0.0.1',
        '127.255.0.9',
        '::1',
        '::ffff:127.0.0.1',
        '::ffff:7f00:1',
        '10.1.2.3',
        '172.16.0.1',
        '172.31.255.255',
        '192.168.1.1',
        'fd12::1',
        '169.254.169.254',
        'fe80::1',
        '0.0.0.0',
        '::',
        '100.64.0.1',
        '224.0.0.1',
        'ff02::1',
        '255.255.255.255',
        '::ffff:10.0.0.1',
        '::7f00:1',
        '172.32.0.1',
        '100.128.0.1',
        '8.8.8.8',
        '2001:4860:4860::8888',
        '::ffff:8.8.8.8',
      ].map((a) => [a, refusedKind(a) ?? 'public']),
    );
    expect(kinds).toEqual({
      '127.0.0.1': 'loopback',
      '127.255.0.9': 'loopback',
      '::1': 'loopback',
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:7f00:1': 'loopback',
      '10.1.2.3': 'private',
      '172.16.0.1': 'private',
      '172.31.255.255': 'private',
      '192.168.1.1': 'private',
      'fd12::1': 'private',
      '169.254.169.254': 'link-local',
      'fe80::1': 'link-local',
      '0.0.0.0': 'unspecified',
      '::': 'unspecified',
      '100.64.0.1': 'shared (CGNAT)',
      '224.0.0.1': 'multicast',
      'ff02::1': 'multicast',
      '255.255.255.255': 'broadcast',
      '::ffff:10.0.0.1': 'private',
      '::7f00:1': 'reserved',
      '172.32.0.1': 'public',
      '100.128.0.1': 'public',
      '8.8.8.8': 'public',
      '2001:4860:4860::8888': 'public',
      '::ffff:8.8.8.8': 'public',
    });
  });

  it('checks every address a name resolves to, and connects to the first', async () => {
    const lookup = (addresses: string[]) => () =>
      Promise.resolve(addresses.map((address) => ({ address, family: 4 as const })));
    const url = new URL('https://hooks.example/x');
    await expect(
      resolveDestination(url, {
        allowPrivate: false,
        lookup: lookup(['93.184.216.34', '10.0.0.7']),
      }),
    ).rejects.toThrow(new DestinationRefusedError('10.0.0.7', 'private', 'hooks.example'));
    await expect(
      resolveDestination(url, {
        allowPrivate: false,
        lookup: lookup(['93.184.216.34', '1.1.1.1']),
      }),
    ).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(
      resolveDestination(url, { allowPrivate: true, lookup: lookup(['10.0.0.7']) }),
    ).resolves.toEqual({ address: '10.0.0.7', family: 4 });
    await expect(
      resolveDestination(new URL('http://[::ffff:127.0.0.1]:9/'), { allowPrivate: false }),
    ).rejects.toThrow(
      'refused: ::ffff:7f00:1 is a loopback address; set DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true to allow private destinations',
    );
  });
});

describe('signatures', () => {
  it('signs "<timestamp>.<body>" with HMAC-SHA256 as sha256=<hex>, and verifies within five minutes', () => {
    const body = '{"trigger":"case.created"}';
    const expected = createHmac('sha256', 'k').update(`1700000000.${body}`).digest('hex');
    expect(signatureOf('k', 1700000000, body)).toBe(`sha256=${expected}`);
    const sig = signatureOf('k', 1700000000, body);
    expect(verifySignature('k', '1700000000', body, sig, 1700000299)).toBe(true);
    expect(verifySignature('k', '1700000000', body, sig, 1700000301)).toBe(false);
    expect(verifySignature('k', '1700000000', `${body} `, sig, 1700000000)).toBe(false);
    expect(verifySignature('other', '1700000000', body, sig, 1700000000)).toBe(false);
  });
});

describe('loadWebhookConfig', () => {
  it('defaults to 30 s, 24 h, no private destinations, 10 s, 16 at once', () => {
    expect(loadWebhookConfig({})).toEqual({
      backoffMs: 30_000,
      retryForMs: 24 * 3600_000,
      allowPrivate: false,
      timeoutMs: 10_000,
      concurrency: 16,
      batchSize: 100,
    });
    expect(
      loadWebhookConfig({
        DOCPIPE_WEBHOOK_BACKOFF: '50ms',
        DOCPIPE_WEBHOOK_RETRY_FOR: '2m',
        DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true',
        DOCPIPE_WEBHOOK_TIMEOUT: '300ms',
        DOCPIPE_WEBHOOK_CONCURRENCY: '4',
        DOCPIPE_DELIVERY_BATCH: '1',
      }),
    ).toEqual({
      backoffMs: 50,
      retryForMs: 120_000,
      allowPrivate: true,
      timeoutMs: 300,
      concurrency: 4,
      batchSize: 1,
    });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadWebhookConfig({
        DOCPIPE_WEBHOOK_BACKOFF: 'soon',
        DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'yes',
        DOCPIPE_WEBHOOK_TIMEOUT: '5m',
        DOCPIPE_WEBHOOK_CONCURRENCY: '0',
        DOCPIPE_DELIVERY_BATCH: '5000',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'DOCPIPE_WEBHOOK_BACKOFF: "soon" is not a duration: give a whole number and a unit, s (seconds), m (minutes), h (hours) or d (days), such as 30s',
      'DOCPIPE_WEBHOOK_TIMEOUT must be between 1ms and 60s (got "5m")',
      'DOCPIPE_WEBHOOK_ALLOW_PRIVATE must be true or false (got "yes")',
      'DOCPIPE_WEBHOOK_CONCURRENCY must be a positive integer (got "0")',
      'DOCPIPE_DELIVERY_BATCH must be between 1 and 1000 (got 5000)',
    ]);
  });
});
