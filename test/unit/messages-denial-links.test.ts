import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import {
  composeEmail,
  composeSms,
  type OutgoingMessage,
} from '../../src/service/messages/index.js';

/**
 * A denial's reason is written by whoever holds a signing link, and goes to the case's sender in
 * an e-mail from docpipe: no URL, domain or address in it may come out as a link. The judge is
 * an autolinker of the kind mail clients run on text: mailparser's `textAsHtml`, which is
 * linkify-it with the full list of top-level domains.
 */

const REASON =
  'Falsk side: https://evil.com/login?a=1&b=2 eller www.evil.com, skriv til bo@evil.com, ' +
  'åbn \\\\evil.com\\share eller http://10.0.0.1:8080/x, ftp://files.evil.com/a; ' +
  'prisen 12.500 kr er forkert (punkt 4.2).';

const SHOWN =
  'Falsk side: hxxps[://]evil[.]com/login?a=1&b=2 eller www[.]evil[.]com, skriv til bo@evil[.]com, ' +
  'åbn [\\\\]evil[.]com\\share eller hxxp[://]10[.]0[.]0[.]1:8080/x, ftp[://]files[.]evil[.]com/a; ' +
  'prisen 12.500 kr er forkert (punkt 4.2).';

const options = { timeZone: 'Europe/Copenhagen', attached: false };

function denial(over: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    kind: 'denial',
    language: 'da',
    to: { name: 'Bo Holm', email: 'bo@acme.example' },
    company: { name: 'Acme A/S' },
    sender: { name: 'Bo Holm', email: 'bo@acme.example' },
    case: {
      id: 'case-1',
      title: 'Lejekontrakt',
      expiresAt: new Date('2026-06-29T23:30:00Z'),
    },
    denial: { by: 'Ann Berg', reason: REASON },
    id: 'case-1.denial',
    ...over,
  };
}

/** The hrefs an autolinker makes of `text`. */
async function linksIn(text: string): Promise<string[]> {
  const parsed = await simpleParser(
    Buffer.from(`Content-Type: text/plain; charset=utf-8\r\n\r\n${text}`, 'utf8'),
  );
  return [...(parsed.textAsHtml ?? '').matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
}

/** What a reader sees of an HTML part: its text, tags dropped and entities read. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe("a denial's reason in the notice to the sender", () => {
  it('the autolinker links the reason as it was written (so that the checks below can fail)', async () => {
    expect(await linksIn(REASON)).toEqual([
      'https://evil.com/login?a=1&b=2',
      'http://www.evil.com',
      'mailto:bo@evil.com',
      'http://evil.com',
      'http://10.0.0.1:8080/x',
    ]);
  });

  it('the text and HTML parts show every URL, domain and address defanged, and nothing links them', async () => {
    const mail = composeEmail(denial(), options);
    expect(mail.text).toContain(`Begrundelse: ${SHOWN}`);
    expect(await linksIn(mail.text)).toEqual([]);
    expect(mail.html).not.toContain('href=');
    expect(visibleText(mail.html)).toContain(`Begrundelse: ${SHOWN}`);
    expect(await linksIn(visibleText(mail.html))).toEqual([]);
  });

  it('a message template keeps the reason defanged, and the case message keeps its links', async () => {
    const mail = composeEmail(
      denial({
        language: 'en',
        template: { subject: 'Declined: {{case.title}}', body: 'Dear {{recipient.name}},' },
        case: {
          id: 'case-1',
          title: 'Lejekontrakt',
          expiresAt: new Date('2026-06-29T23:30:00Z'),
          message: 'Terms: https://acme.com/terms',
        },
      }),
      options,
    );
    expect(mail.text).toContain(`Reason: ${SHOWN}`);
    expect(await linksIn(mail.text)).toEqual([]);
    expect(await linksIn(visibleText(mail.html))).toEqual([]);
    const invitation = composeEmail(
      denial({
        kind: 'invitation',
        signingUrl: 'https://sign.acme.com/s/t',
        case: {
          id: 'case-1',
          title: 'Lejekontrakt',
          expiresAt: new Date('2026-06-29T23:30:00Z'),
          message: 'Terms: https://acme.com/terms',
        },
      }),
      options,
    );
    expect(invitation.html).toContain('<a href="https://acme.com/terms"');
  });

  it('hides no link behind an invisible character or a full-width dot', async () => {
    const reason = 'se evil.\u200bcom og evil\uff0ecom og evil\u3002com';
    const mail = composeEmail(denial({ denial: { by: 'Ann', reason } }), options);
    expect(mail.text).toContain('se evil[.]\u200bcom og evil[\uff0e]com og evil[\u3002]com');
    expect(await linksIn(mail.text)).toEqual([]);
  });

  it('the denial SMS shows the reason defanged too', async () => {
    const sms = composeSms(
      denial({ denial: { by: 'Ann', reason: 'se https://evil.com/x' } }),
      options,
    );
    expect(sms).toBe(
      'Ann har afvist at underskrive "Lejekontrakt". Begrundelse: se hxxps[://]evil[.]com/x',
    );
    expect(await linksIn(sms)).toEqual([]);
  });
});
