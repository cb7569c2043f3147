import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/base/log/index.js';
import { loadDeliveryConfig } from '../../src/app/config/delivery-config.js';
import {
  messageChannels,
  type DeliveryConfig,
  type MessageChannels,
  type OutgoingMessage,
} from '../../src/service/messages/index.js';
import { startSilentServer, startSmtpServer, type SmtpTestServer } from '../helpers/smtp-server.js';
import { testDir } from '../helpers/test-dir.js';

const SIGNING_URL = 'https://sign.acme.example/s/tok_4f9c2a7e1b';

function invitation(over: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    kind: 'invitation',
    language: 'da',
    to: { name: 'Ann Berg', email: 'ann@example.com' },
    company: { name: 'Acme A/S' },
    sender: { name: 'Bo Holm', email: 'bo@acme.example' },
    case: {
      id: 'c0ffee00-0000-4000-8000-000000000001',
      title: 'Lejekontrakt',
      referenceId: 'L-17',
      expiresAt: new Date('2026-06-30T12:00:00Z'),
      message: 'Se især punkt 4.',
    },
    signingUrl: SIGNING_URL,
    id: 'c0ffee00-0000-4000-8000-000000000001.r1.invitation',
    ...over,
  };
}

function config(over: Partial<DeliveryConfig>): DeliveryConfig {
  return {
    email: { kind: 'file', dir: '/nonexistent' },
    from: { name: 'docpipe', address: 'noreply@docpipe.example' },
    attachMaxBytes: 10 * 1024 * 1024,
    timeZone: 'Europe/Copenhagen',
    timeoutMs: 10_000,
    ...over,
  };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function smtp(users?: Record<string, string>): Promise<SmtpTestServer> {
  const server = await startSmtpServer(users ? { users } : {});
  open.push(server);
  return server;
}

function channels(c: DeliveryConfig): MessageChannels {
  const made = messageChannels(c, silentLogger);
  open.unshift(made);
  return made;
}

function addresses(a: AddressObject | AddressObject[] | undefined): string[] {
  return (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? ''));
}

describe('e-mail over SMTP', () => {
  it('an invitation in Danish and in English arrives with both parts, the link, the filled template and Reply-To', async () => {
    const server = await smtp({ mailer: 's3cret:pw' });
    // The test server offers no STARTTLS: AUTH in clear is allowed here by the URL's opt-out.
    const url = `${server.url}?tls=opportunistic`;
    const { email } = channels(config({ email: { kind: 'smtp', url } }));
    expect(email.configured).toBe(true);

    const da = await email.send(invitation());
    expect(da).toEqual({ ok: true, location: expect.stringMatching(/^<.+@docpipe\.example>$/) });
    const danish = await server.nextMessage();
    expect(danish.user).toBe('mailer');
    expect(danish.envelope).toEqual({ from: 'noreply@docpipe.example', to: ['ann@example.com'] });
    expect(danish.parsed.subject).toBe('Dokument til underskrift: Lejekontrakt');
    expect(danish.parsed.messageId).toBe(da.location);
    expect(addresses(danish.parsed.replyTo)).toEqual(['bo@acme.example']);
    expect(addresses(danish.parsed.from)).toEqual(['noreply@docpipe.example']);
    expect(danish.parsed.text).toContain(`Læs og underskriv:\n${SIGNING_URL}`);
    expect(danish.parsed.text).toContain('Se især punkt 4.');
    expect(danish.parsed.text).toContain('Linket udløber den 30. juni 2026.');
    expect(danish.parsed.html).toContain(`href="${SIGNING_URL}"`);
    expect(danish.parsed.html).toContain('>Læs og underskriv</a>');
    expect(danish.parsed.html).toContain('lang="da"');

    const template = {
      subject: '{{case.title}}: please sign, {{ recipient.name }}',
      body: 'Dear {{recipient.name}},\n\n{{sender.name}} of {{company.name}} asks you to sign {{case.title}} ({{case.referenceId}}).\n{{case.message}}\n\nSign here before {{case.expiresAt}}: {{signingUrl}}\n',
    };
    const en = await email.send(
      invitation({
        language: 'en',
        template,
        case: { ...invitation().case, message: 'Note <b>4</b>.' },
      }),
    );
    expect(en.ok).toBe(true);
    const english = await server.nextMessage();
    expect(english.parsed.subject).toBe('Lejekontrakt: please sign, Ann Berg');
    expect(english.parsed.text).toContain(
      'Bo Holm of Acme A/S asks you to sign Lejekontrakt (L-17).\nNote <b>4</b>.',
    );
    expect(english.parsed.text).toContain(`Sign here before 30 June 2026: ${SIGNING_URL}`);
    expect(english.parsed.html).toContain(`<a href="${SIGNING_URL}"`);
    expect(english.parsed.html).toContain('Note &lt;b&gt;4&lt;/b&gt;.');
    expect(english.parsed.html).not.toContain('<b>4</b>');
    expect(english.parsed.html).toContain('lang="en"');
    expect(addresses(english.parsed.replyTo)).toEqual(['bo@acme.example']);
    expect(server.messages).toHaveLength(2);
  });

  it('a header injection in a name or the title adds no header and no recipient', async () => {
    const server = await smtp();
    const { email } = channels(config({ email: { kind: 'smtp', url: server.url } }));
    const result = await email.send(
      invitation({
        to: { name: 'Eve\r\nBcc: mallory@evil.example', email: 'eve@example.com' },
        sender: { name: 'Bo\nX-Sender-Injected: 1', email: 'bo@acme.example' },
        case: { ...invitation().case, title: 'Lease\r\nX-Injected: yes\r\n\r\n<script>x</script>' },
      }),
    );
    expect(result.ok).toBe(true);
    const mail = await server.nextMessage();
    expect(mail.envelope.to).toEqual(['eve@example.com']);
    expect(mail.parsed.headers.has('bcc')).toBe(false);
    expect(mail.parsed.headers.has('x-injected')).toBe(false);
    expect(mail.parsed.headers.has('x-sender-injected')).toBe(false);
    expect(mail.parsed.subject).toBe(
      'Dokument til underskrift: Lease X-Injected: yes <script>x</script>',
    );
    const to = mail.parsed.to as AddressObject;
    expect(to.value).toEqual([
      { name: 'Eve Bcc: mallory@evil.example', address: 'eve@example.com' },
    ]);
    expect(mail.parsed.html).not.toContain('<script>');
    expect(mail.parsed.html).toContain('&lt;script&gt;');
  });

  it('a server that answers 5xx gives ok: false with its answer', async () => {
    const server = await smtp();
    server.refuse({ code: 550, message: '5.1.1 mailbox unavailable' });
    const { email } = channels(config({ email: { kind: 'smtp', url: server.url } }));
    const result = await email.send(invitation());
    expect(result).toEqual({ ok: false, error: '550 5.1.1 mailbox unavailable' });
    server.refuse({ code: 554, message: '5.6.0 message refused', at: 'data' });
    expect(await email.send(invitation())).toEqual({
      ok: false,
      error: '554 5.6.0 message refused',
    });
    expect(server.messages).toHaveLength(0);
  });

  it('a recipient without an e-mail address is not sent', async () => {
    const server = await smtp();
    const { email } = channels(config({ email: { kind: 'smtp', url: server.url } }));
    expect(
      await email.send(invitation({ to: { name: 'Ann', email: null, phone: '+4512345678' } })),
    ).toEqual({
      ok: false,
      error: 'the recipient has no e-mail address',
    });
    expect(server.connections()).toBe(0);
  });

  it('a server that never answers costs one bounded attempt', async () => {
    const silent = await startSilentServer();
    open.push(silent);
    const { email } = channels(
      config({ email: { kind: 'smtp', url: silent.url }, timeoutMs: 300 }),
    );
    const started = Date.now();
    const result = await email.send(invitation());
    const took = Date.now() - started;
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/greeting|timeout/i);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(3000);
    expect(silent.connections()).toBe(1);
  });

  it('the signed copy attaches the PDFs up to the limit and links them past it', async () => {
    const server = await smtp();
    const pdf = (n: number) => Buffer.from(`%PDF-1.7\n% document ${n}\n%%EOF\n`);
    const documents = [1, 2].map((n) => ({
      name: `Kontrakt ${n}.pdf`,
      bytes: pdf(n).length,
      url: `https://sign.acme.example/d/${n}?sig=abc`,
      content: () => Promise.resolve(pdf(n)),
    }));
    const total = documents[0]!.bytes + documents[1]!.bytes;
    const signedCopy = invitation({
      kind: 'signed-copy',
      signingUrl: undefined,
      documents,
      id: 'c1.signed-copy',
    });

    const atLimit = channels(
      config({ email: { kind: 'smtp', url: server.url }, attachMaxBytes: total }),
    );
    expect((await atLimit.email.send(signedCopy)).ok).toBe(true);
    const attached = await server.nextMessage();
    expect(attached.parsed.subject).toBe('Underskrevet: Lejekontrakt');
    expect(
      attached.parsed.attachments.map((a) => [a.filename, a.contentType, a.content.toString()]),
    ).toEqual([
      ['Kontrakt 1.pdf', 'application/pdf', pdf(1).toString()],
      ['Kontrakt 2.pdf', 'application/pdf', pdf(2).toString()],
    ]);
    expect(attached.parsed.text).toContain('De 2 underskrevne dokumenter er vedhæftet.');
    expect(attached.parsed.text).not.toContain('https://sign.acme.example/d/1');

    const pastLimit = channels(
      config({ email: { kind: 'smtp', url: server.url }, attachMaxBytes: total - 1 }),
    );
    expect((await pastLimit.email.send(signedCopy)).ok).toBe(true);
    const linked = await server.nextMessage();
    expect(linked.parsed.attachments).toHaveLength(0);
    expect(linked.parsed.text).toContain('Kontrakt 1.pdf:\nhttps://sign.acme.example/d/1?sig=abc');
    expect(linked.parsed.text).toContain('Kontrakt 2.pdf:\nhttps://sign.acme.example/d/2?sig=abc');
    expect(linked.parsed.html).toContain('href="https://sign.acme.example/d/2?sig=abc"');
  });

  it('DKIM signs each message with the configured domain and selector', async () => {
    const server = await smtp();
    const dir = testDir('docpipe-dkim-');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(dir, 'dkim.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const loaded = loadDeliveryConfig(
      {
        DOCPIPE_SMTP_URL: server.url,
        DOCPIPE_MAIL_FROM: 'Acme signing <sign@acme.example>',
        DOCPIPE_DKIM_DOMAIN: 'acme.example',
        DOCPIPE_DKIM_SELECTOR: 'mail2026',
        DOCPIPE_DKIM_KEY_FILE: keyFile,
      },
      dir,
    );
    const { email } = channels(loaded);
    expect((await email.send(invitation())).ok).toBe(true);
    const mail = await server.nextMessage();
    const signature = mail.parsed.headers.get('dkim-signature') as {
      params: Record<string, string>;
    };
    expect(signature.params).toMatchObject({
      a: 'rsa-sha256',
      d: 'acme.example',
      s: 'mail2026',
      h: expect.stringContaining('from:'),
      b: expect.stringMatching(/^[A-Za-z0-9+/= ]{300,}$/),
    });
    expect(mail.raw.toString('latin1')).toMatch(/^DKIM-Signature: /m);
    expect(addresses(mail.parsed.from)).toEqual(['sign@acme.example']);
  });
});

describe('e-mail without SMTP: .eml files', () => {
  it('writes each message as an .eml file (0600, whole) that says its case and kind', async () => {
    const dir = testDir('docpipe-eml-');
    const data = join(dir, 'data');
    const loaded = loadDeliveryConfig({}, data);
    expect(loaded.email).toEqual({ kind: 'file', dir: join(data, 'mail') });
    const { email } = channels(loaded);
    const first = await email.send(invitation());
    const second = await email.send(
      invitation({ kind: 'reminder', reminder: { number: 1, of: 2 } }),
    );
    expect(first.ok && second.ok).toBe(true);
    const files = readdirSync(join(data, 'mail'));
    expect(files.sort()).toEqual(
      [first.location, second.location].map((p) => p!.slice(p!.lastIndexOf('/') + 1)),
    );
    expect(files[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z_c0ffee00-0000-4000-8000-000000000001_invitation_[0-9a-f]{8}\.eml$/,
    );
    expect(files[1]).toMatch(/_reminder_[0-9a-f]{8}\.eml$/);
    expect(statSync(first.location!).mode & 0o777).toBe(0o600);
    const parsed = await simpleParser(readFileSync(first.location!));
    expect(parsed.subject).toBe('Dokument til underskrift: Lejekontrakt');
    expect(parsed.text).toContain(SIGNING_URL);
    expect(parsed.html).toContain(`href="${SIGNING_URL}"`);
    expect(addresses(parsed.to)).toEqual(['ann@example.com']);
    const reminder = await simpleParser(readFileSync(second.location!));
    expect(reminder.subject).toBe('Påmindelse 1 af 2: Lejekontrakt venter på din underskrift');
    expect(reminder.text).toContain('Dette er påmindelse 1 af 2.');
    expect(reminder.text).toContain('Linket udløber den 30. juni 2026.');
  });
});
