import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/base/log/index.js';
import { loadDeliveryConfig } from '../../src/app/config/delivery-config.js';
import {
  MAX_SMS_ANSWER_BYTES,
  messageChannels,
  type MessageChannels,
  type OutgoingMessage,
} from '../../src/service/messages/index.js';
import { startSmsGateway, type SmsGateway } from '../helpers/sms-gateway.js';

const SIGNING_URL = 'https://sign.acme.example/s/tok_8d1e55c0aa';

function invitation(over: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    kind: 'invitation',
    language: 'da',
    to: { name: 'Ann Berg', phone: '+45 12 34 56 78' },
    company: { name: 'Acme A/S' },
    sender: { name: 'Bo Holm', email: 'bo@acme.example' },
    case: {
      id: 'case-1',
      title: 'Lejekontrakt',
      expiresAt: new Date('2026-06-30T12:00:00Z'),
    },
    signingUrl: SIGNING_URL,
    id: 'case-1.r1.invitation',
    ...over,
  };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function gateway(): Promise<SmsGateway> {
  const g = await startSmsGateway();
  open.push(g);
  return g;
}

function channels(env: NodeJS.ProcessEnv, timeoutMs?: number): MessageChannels {
  const config = loadDeliveryConfig(env, '/nonexistent');
  const made = messageChannels(timeoutMs ? { ...config, timeoutMs } : config, silentLogger);
  open.unshift(made);
  return made;
}

describe('SMS through an HTTP gateway', () => {
  it('posts {to, from, text} with the Authorization header, and the answer id is the location', async () => {
    const g = await gateway();
    const { sms } = channels({
      DOCPIPE_SMS_URL: g.url,
      DOCPIPE_SMS_AUTHORIZATION: 'Bearer gw-token-1',
      DOCPIPE_SMS_FROM: 'Acme',
    });
    expect(sms.configured).toBe(true);
    expect(await sms.send(invitation())).toEqual({ ok: true, location: 'sms-1' });
    const request = await g.nextRequest();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/sms');
    expect(request.headers.authorization).toBe('Bearer gw-token-1');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.json).toEqual({
      to: '+4512345678',
      from: 'Acme',
      text: `Acme A/S beder dig underskrive "Lejekontrakt". Linket udløber 30. juni 2026: ${SIGNING_URL}`,
    });

    expect(
      await sms.send(
        invitation({ kind: 'reminder', language: 'en', reminder: { number: 2, of: 3 } }),
      ),
    ).toEqual({ ok: true, location: 'sms-2' });
    expect((await g.nextRequest()).json).toEqual({
      to: '+4512345678',
      from: 'Acme',
      text: `Reminder 2/3: Acme A/S is waiting for your signature on "Lejekontrakt". The link expires 30 June 2026: ${SIGNING_URL}`,
    });
  });

  it('a gateway that fails gives ok: false with its status and answer, without the signing link', async () => {
    const g = await gateway();
    const { sms } = channels({ DOCPIPE_SMS_URL: g.url });
    g.answer({ status: 502, body: `upstream refused text containing ${SIGNING_URL}` });
    expect(await sms.send(invitation())).toEqual({
      ok: false,
      error: 'the SMS gateway answered 502: upstream refused text containing <signing link>',
    });
    expect((await g.nextRequest()).headers.authorization).toBeUndefined();

    g.answer({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
    expect(await sms.send(invitation())).toEqual({
      ok: false,
      error:
        'the SMS gateway answered 302 (redirects are not followed: set DOCPIPE_SMS_URL to the final address)',
    });
    expect(g.requests).toHaveLength(2);

    g.answer({ status: 200, body: 'x'.repeat(MAX_SMS_ANSWER_BYTES * 4) });
    expect(await sms.send(invitation())).toEqual({ ok: true });
  });

  it('logs name the case, kind, channel and result, never the text or the signing link', async () => {
    const g = await gateway();
    const lines: unknown[] = [];
    const record = (o: object, msg?: string) => lines.push({ ...o, msg });
    const logger = { debug: record, info: record, warn: record, error: record };
    const made = messageChannels(
      loadDeliveryConfig({ DOCPIPE_SMS_URL: g.url }, '/nonexistent'),
      logger,
    );
    open.unshift(made);
    expect((await made.sms.send(invitation())).ok).toBe(true);
    g.answer({ status: 400, body: `bad text: ${SIGNING_URL}` });
    expect((await made.sms.send(invitation())).ok).toBe(false);
    expect(lines.slice(1)).toEqual([
      {
        caseId: 'case-1',
        kind: 'invitation',
        channel: 'sms',
        ok: true,
        location: 'sms-1',
        msg: 'message sent',
      },
      {
        caseId: 'case-1',
        kind: 'invitation',
        channel: 'sms',
        ok: false,
        error: 'the SMS gateway answered 400: bad text: <signing link>',
        msg: 'message not sent',
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('tok_8d1e55c0aa');
  });

  it('a gateway that never answers costs one bounded attempt', async () => {
    const g = await gateway();
    g.answer('hang');
    const { sms } = channels({ DOCPIPE_SMS_URL: g.url }, 300);
    const started = Date.now();
    expect(await sms.send(invitation())).toEqual({
      ok: false,
      error: 'the SMS gateway did not answer within 300 ms',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(g.requests).toHaveLength(1);
  });

  it('a gateway nobody listens at gives ok: false saying so', async () => {
    const g = await gateway();
    const url = g.url;
    await g.close();
    const { sms } = channels({ DOCPIPE_SMS_URL: url });
    const result = await sms.send(invitation());
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^the SMS gateway could not be reached: .*ECONNREFUSED/);
  });

  it('a recipient without a phone number, or with a wrong one, is not sent', async () => {
    const g = await gateway();
    const { sms } = channels({ DOCPIPE_SMS_URL: g.url });
    expect(await sms.send(invitation({ to: { name: 'Ann', email: 'ann@example.com' } }))).toEqual({
      ok: false,
      error: 'the recipient has no phone number',
    });
    expect(await sms.send(invitation({ to: { name: 'Ann', phone: 'call me' } }))).toEqual({
      ok: false,
      error: "the recipient's phone number is not a valid number",
    });
    expect(g.requests).toHaveLength(0);
  });

  it('without DOCPIPE_SMS_URL SMS and e-Boks say they are not configured', async () => {
    const { sms, eboks } = channels({});
    expect(sms.configured).toBe(false);
    expect(await sms.send(invitation())).toEqual({
      ok: false,
      error: 'SMS delivery is not configured (DOCPIPE_SMS_URL)',
    });
    expect(eboks.configured).toBe(false);
    expect(await eboks.send(invitation())).toEqual({
      ok: false,
      error: 'e-Boks delivery is not configured',
    });
  });
});
