import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/base/log/index.js';
import {
  messageChannels,
  type DeliveryConfig,
  type OutgoingMessage,
} from '../../src/service/messages/index.js';
import { startSmtpServer, type SmtpTestServer } from '../helpers/smtp-server.js';

/**
 * SMTP credentials never cross the wire in clear: the real smtp-server, offering no STARTTLS and
 * asking for AUTH, behind a tap that keeps every byte the client sends. With a user name in an
 * smtp:// URL, STARTTLS is required unless `?tls=opportunistic` says otherwise.
 */

const USER = 'mailer';
const PASSWORD = 's3cret:pw';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

function invitation(): OutgoingMessage {
  return {
    kind: 'invitation',
    language: 'en',
    to: { name: 'Ann Berg', email: 'ann@example.com' },
    company: { name: 'Acme A/S' },
    sender: { name: 'Bo Holm', email: 'bo@acme.example' },
    case: {
      id: 'c0ffee00-0000-4000-8000-000000000002',
      title: 'Lease',
      expiresAt: new Date('2026-06-30T12:00:00Z'),
    },
    signingUrl: 'https://sign.acme.example/s/tok_1',
    id: 'c0ffee00-0000-4000-8000-000000000002.r1.invitation',
  };
}

function config(url: string): DeliveryConfig {
  return {
    email: { kind: 'smtp', url },
    from: { name: 'docpipe', address: 'noreply@docpipe.example' },
    attachMaxBytes: 10 * 1024 * 1024,
    timeZone: 'Europe/Copenhagen',
    timeoutMs: 10_000,
  };
}

/** A TCP relay to `port` that keeps what clients send, as one would see it on the wire. */
async function tap(port: number): Promise<{ port: number; sent: () => string }> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (c: Buffer) => chunks.push(c));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
  return {
    port: (server.address() as { port: number }).port,
    sent: () => Buffer.concat(chunks).toString('latin1'),
  };
}

async function smtpWithAuth(): Promise<SmtpTestServer> {
  const server = await startSmtpServer({ users: { [USER]: PASSWORD } });
  open.push(server);
  return server;
}

function send(url: string) {
  const channels = messageChannels(config(url), silentLogger);
  open.unshift(channels);
  return channels.email.send(invitation());
}

/** Every form the credentials take in AUTH PLAIN and AUTH LOGIN. */
const SECRETS = [
  PASSWORD,
  Buffer.from(PASSWORD).toString('base64'),
  Buffer.from(USER).toString('base64'),
  Buffer.from(`\u0000${USER}\u0000${PASSWORD}`).toString('base64'),
];

describe('SMTP AUTH and STARTTLS', () => {
  it('with a user name and a server without STARTTLS: no AUTH, no message, an error that says why and what to do', async () => {
    const server = await smtpWithAuth();
    const wire = await tap(server.port);
    const url = `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${wire.port}`;

    const result = await send(url);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(
      /^the SMTP server offers no STARTTLS \(it answered "5\d\d [^"]+"\), and TLS is required \(the default when DOCPIPE_SMTP_URL holds a user name: the password never goes in clear\); nothing was sent\. Use smtps:\/\/, a server with STARTTLS, or add \?tls=opportunistic to the URL to allow it$/,
    );
    const sent = wire.sent();
    expect(sent).toMatch(/^EHLO .*\r\nSTARTTLS\r\n/);
    expect(sent).not.toMatch(/AUTH|MAIL FROM/i);
    for (const secret of SECRETS) expect(sent).not.toContain(secret);
    expect(server.messages).toHaveLength(0);
  });

  it('with ?tls=opportunistic the same server gets AUTH in clear and the message (the opt-out)', async () => {
    const server = await smtpWithAuth();
    const wire = await tap(server.port);
    const url = `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${wire.port}?tls=opportunistic`;

    expect(await send(url)).toMatchObject({ ok: true });
    const mail = await server.nextMessage();
    expect(mail.user).toBe(USER);
    expect(wire.sent()).toMatch(/\r\nAUTH (PLAIN|LOGIN)\b/);
    expect(wire.sent()).not.toContain('STARTTLS');
  });

  it('without a user name STARTTLS stays opportunistic (a relay without TLS), and ?tls=required refuses it', async () => {
    const server = await startSmtpServer();
    open.push(server);
    const wire = await tap(server.port);

    expect(await send(`smtp://127.0.0.1:${wire.port}`)).toMatchObject({ ok: true });
    expect((await server.nextMessage()).envelope.to).toEqual(['ann@example.com']);
    const required = await send(`smtp://127.0.0.1:${wire.port}?tls=required`);
    expect(required.ok).toBe(false);
    expect(required.error).toMatch(/^the SMTP server offers no STARTTLS/);
    expect(server.messages).toHaveLength(1);
  });
});
