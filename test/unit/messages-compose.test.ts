import { describe, expect, it } from 'vitest';
import {
  composeEmail,
  composeSms,
  emailMessage,
  emlFileName,
  headerText,
  messageIdOf,
  phoneNumber,
  type OutgoingMessage,
} from '../../src/service/messages/index.js';

const URL_ = 'https://sign.acme.example/s/tok_abc123';
const options = { timeZone: 'Europe/Copenhagen', attached: false };

function message(over: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    kind: 'invitation',
    language: 'da',
    to: { name: 'Ann Berg', email: 'ann@example.com' },
    company: { name: 'Acme A/S' },
    sender: { name: 'Bo Holm', email: 'bo@acme.example' },
    case: {
      id: 'case-1',
      title: 'Lejekontrakt',
      referenceId: 'L-17',
      // 23:30 UTC is the next day in Copenhagen: the date is the zone's.
      expiresAt: new Date('2026-06-29T23:30:00Z'),
      message: null,
    },
    signingUrl: URL_,
    id: 'case-1.r1.invitation',
    ...over,
  };
}

describe('composeEmail: the built-in messages', () => {
  it("a web-flow's invitation and reminder: the person's link to answer, the expiry, no reference", () => {
    const flow = {
      id: 'flow-1',
      title: 'Oplysninger til lejekontrakt',
      expiresAt: new Date('2026-06-29T23:30:00Z'),
      message: null,
    };
    const link = 'https://sign.acme.example/flow/tok_flow';
    const invitation = composeEmail(
      message({ kind: 'flow-invitation', case: flow, signingUrl: link, id: 'f.invitation' }),
      options,
    );
    expect(invitation.subject).toBe(
      'Vi har brug for dine oplysninger: Oplysninger til lejekontrakt',
    );
    expect(invitation.text).toContain('Bo Holm fra Acme A/S beder dig udfylde »Oplysninger');
    expect(invitation.text).toContain(`Udfyld:\n${link}`);
    expect(invitation.text).toContain('Linket udløber den 30. juni 2026.');
    expect(invitation.text).not.toContain('Reference');
    const reminder = composeEmail(
      message({
        kind: 'flow-reminder',
        language: 'en',
        case: flow,
        signingUrl: link,
        reminder: { number: 1, of: 2 },
        id: 'f.reminder.1',
      }),
      options,
    );
    expect(reminder.subject).toBe(
      'Reminder 1 of 2: Oplysninger til lejekontrakt is waiting for your answers',
    );
    expect(reminder.text).toContain(`Fill in:\n${link}`);
  });

  it('the Danish invitation: subject, greeting, sender, the link as a button and as text, expiry, reference', () => {
    const mail = composeEmail(
      message({ case: { ...message().case, message: 'Se punkt 4.' } }),
      options,
    );
    expect(mail.subject).toBe('Dokument til underskrift: Lejekontrakt');
    expect(mail.text).toBe(
      [
        'Kære Ann Berg,',
        'Bo Holm fra Acme A/S har sendt dig »Lejekontrakt« til underskrift.',
        'Se punkt 4.',
        `Læs og underskriv:\n${URL_}`,
        'Linket udløber den 30. juni 2026. Linket er personligt, så videresend ikke denne e-mail.',
        'Reference: L-17',
        'Med venlig hilsen\nAcme A/S',
        '-- \nDenne e-mail er sendt automatisk. Svarer du på den, går svaret til Bo Holm.\n',
      ].join('\n\n'),
    );
    expect(mail.html).toContain(`<a href="${URL_}" style="display:inline-block;`);
    expect(mail.html).toContain('>Læs og underskriv</a>');
    expect(mail.html).toContain('<html lang="da">');
    expect(mail.html).toContain('Se punkt 4.');
  });

  it('English for English and for any language but Danish; Danish for a Danish region', () => {
    for (const language of ['en', 'en-GB', 'de', 'sv']) {
      const mail = composeEmail(message({ language }), options);
      expect(mail.subject).toBe('Please sign: Lejekontrakt');
      expect(mail.text).toContain('Bo Holm of Acme A/S has sent you “Lejekontrakt” to sign.');
      expect(mail.text).toContain('The link expires on 30 June 2026.');
      expect(mail.html).toContain('>Review and sign</a>');
    }
    expect(composeEmail(message({ language: 'da-DK' }), options).subject).toBe(
      'Dokument til underskrift: Lejekontrakt',
    );
  });

  it('the reminder says which one it is, of how many, and when the link expires', () => {
    const reminder = message({ kind: 'reminder', reminder: { number: 2, of: 3 } });
    const da = composeEmail(reminder, options);
    expect(da.subject).toBe('Påmindelse 2 af 3: Lejekontrakt venter på din underskrift');
    expect(da.text).toContain('Dette er påmindelse 2 af 3.');
    expect(da.text).toContain('Linket udløber den 30. juni 2026.');
    expect(da.text).toContain(URL_);
    const en = composeEmail({ ...reminder, language: 'en' }, options);
    expect(en.subject).toBe('Reminder 2 of 3: Lejekontrakt is waiting for your signature');
    expect(en.text).toContain('This is reminder 2 of 3.');
    expect(en.html).toContain(`href="${URL_}"`);
  });

  it('the signed copy says signed and sealed, and lists links unless the documents are attached', () => {
    const documents = [
      { name: 'Kontrakt.pdf', bytes: 10, url: 'https://x.example/d/1' },
      { name: 'Bilag <1>.pdf', bytes: 10, url: 'https://x.example/d/2' },
    ];
    const copy = message({ kind: 'signed-copy', signingUrl: undefined, documents });
    const linked = composeEmail(copy, options);
    expect(linked.subject).toBe('Underskrevet: Lejekontrakt');
    expect(linked.text).toContain('»Lejekontrakt« er nu underskrevet af alle parter og forseglet');
    expect(linked.text).toContain(
      'Du kan hente de 2 underskrevne dokumenter her:\n\nKontrakt.pdf:\nhttps://x.example/d/1\n\nBilag <1>.pdf:\nhttps://x.example/d/2',
    );
    expect(linked.html).toContain(
      '<a href="https://x.example/d/2" style="color:#1d4ed8">Bilag &lt;1&gt;.pdf</a>',
    );
    const attached = composeEmail({ ...copy, language: 'en' }, { ...options, attached: true });
    expect(attached.subject).toBe('Signed: Lejekontrakt');
    expect(attached.text).toContain('The 2 signed documents are attached.');
    expect(attached.text).not.toContain('https://x.example/d/1');
  });

  it('says an automatic message (an account e-mail) has no one to reply to', () => {
    const account = message({
      automatic: true,
      template: { subject: 'Bekræft din e-mail', body: 'Åbn linket: {{signingUrl}}' },
      signingUrl: 'https://docpipe.example/user/confirm/x',
    });
    const da = composeEmail(account, options);
    expect(da.text).toContain('-- \nDenne e-mail er sendt automatisk.\n');
    expect(da.text).not.toContain('går svaret til');
    expect(da.text).toContain('https://docpipe.example/user/confirm/x');
  });

  it('the denial notice to the sender names who denied and why', () => {
    const denial = message({
      kind: 'denial',
      to: { name: 'Bo Holm', email: 'bo@acme.example' },
      signingUrl: undefined,
      denial: { by: 'Ann Berg', reason: 'Forkert husleje <b>' },
    });
    const da = composeEmail(denial, options);
    expect(da.subject).toBe('Afvist: Lejekontrakt');
    expect(da.text).toContain('Kære Bo Holm,');
    expect(da.text).toContain('Ann Berg har afvist at underskrive »Lejekontrakt«.');
    expect(da.text).toContain('Begrundelse: Forkert husleje <b>');
    expect(da.text).toContain('-- \nDenne e-mail er sendt automatisk.\n');
    expect(da.html).toContain('Begrundelse: Forkert husleje &lt;b&gt;');
    const en = composeEmail(
      { ...denial, language: 'en', denial: { by: 'Ann Berg', reason: null } },
      options,
    );
    expect(en.subject).toBe('Declined: Lejekontrakt');
    expect(en.text).toContain('Ann Berg has declined to sign “Lejekontrakt”.');
    expect(en.text).toContain('No reason was given.');
  });

  it('refuses a message that lacks what its kind needs', () => {
    expect(() => composeEmail(message({ signingUrl: undefined }), options)).toThrow(
      /needs signingUrl/,
    );
    expect(() => composeEmail(message({ kind: 'reminder' }), options)).toThrow(/needs reminder/);
    expect(() => composeEmail(message({ kind: 'denial' }), options)).toThrow(/needs denial/);
  });
});

describe('composeEmail: values are text', () => {
  it('escapes every value in HTML and never links anything but http(s)', () => {
    const mail = composeEmail(
      message({
        to: { name: '<img src=x onerror=alert(1)>', email: 'a@example.com' },
        company: { name: 'A & B "Co"', logoUrl: 'javascript:alert(1)' },
        case: { ...message().case, message: 'javascript:alert(1) and https://ok.example/a.' },
      }),
      options,
    );
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('A &amp; B &quot;Co&quot;');
    expect(mail.html).not.toContain('href="javascript');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain(
      '<a href="https://ok.example/a" style="color:#1d4ed8">https://ok.example/a</a>.',
    );
  });

  it('keeps CR, LF, other controls and bidi controls out of the subject', () => {
    const mail = composeEmail(
      message({
        case: { ...message().case, title: 'Lease\r\nBcc: x@evil.example\u0000\u202Efdp.exe' },
      }),
      options,
    );
    expect(mail.subject).toBe('Dokument til underskrift: Lease Bcc: x@evil.examplefdp.exe');
    expect(headerText('a\u2028b\u0085c\td\u2066e\u200f')).toBe('a b c de\u200f');
  });

  it('shows the logo of an http(s) URL only', () => {
    const html = composeEmail(
      message({ company: { name: 'Acme', logoUrl: 'https://acme.example/l.png' } }),
      options,
    ).html;
    expect(html).toContain('<img src="https://acme.example/l.png" alt="Acme"');
  });
});

describe('composeEmail: message templates', () => {
  const template = {
    subject: '{{case.title}} til {{recipient.name}}',
    body: 'Kære {{ recipient.name }}\n\n{{sender.name}} ({{sender.email}}) fra {{company.name}}:\n{{case.message}}\n\nRef. {{case.referenceId}}, senest {{case.expiresAt}}: {{signingUrl}}.\nSkriv til {{recipient.email}}',
  };

  it('fills every placeholder; the HTML keeps the paragraphs, escapes, and links the URLs', () => {
    const mail = composeEmail(
      message({ template, case: { ...message().case, message: 'Husk <bilag> & kvittering' } }),
      options,
    );
    expect(mail.subject).toBe('Lejekontrakt til Ann Berg');
    expect(mail.text).toBe(
      'Kære Ann Berg\n\nBo Holm (bo@acme.example) fra Acme A/S:\nHusk <bilag> & kvittering\n\n' +
        `Ref. L-17, senest 30. juni 2026: ${URL_}.\nSkriv til ann@example.com\n\n-- \n` +
        'Denne e-mail er sendt automatisk. Svarer du på den, går svaret til Bo Holm.\n',
    );
    expect(mail.html).toContain('>Kære Ann Berg</p>');
    expect(mail.html).toContain('fra Acme A/S:<br>\nHusk &lt;bilag&gt; &amp; kvittering</p>');
    expect(mail.html).toContain(
      `senest 30. juni 2026: <a href="${URL_}" style="color:#1d4ed8">${URL_}</a>.<br>`,
    );
    // The template links itself: no second button.
    expect(mail.html).not.toContain('display:inline-block');
  });

  it('a value holding a placeholder is not filled again, and a template without the link gets the button', () => {
    const mail = composeEmail(
      message({
        to: { name: '{{signingUrl}}', email: 'a@example.com' },
        template: {
          subject: 'Hej {{recipient.name}}',
          body: 'Hej {{recipient.name}}, se vedhæftede.',
        },
      }),
      options,
    );
    expect(mail.subject).toBe('Hej {{signingUrl}}');
    expect(mail.text).toContain('Hej {{signingUrl}}, se vedhæftede.');
    expect(mail.text).toContain(`Læs og underskriv:\n${URL_}`);
    expect(mail.html).toContain(`<a href="${URL_}" style="display:inline-block;`);
  });

  it('a reminder from a template still says which reminder it is and when the link expires', () => {
    const mail = composeEmail(
      message({ kind: 'reminder', language: 'en', reminder: { number: 1, of: 2 }, template }),
      options,
    );
    expect(mail.subject).toBe('Reminder 1 of 2: Lejekontrakt til Ann Berg');
    expect(
      mail.text.startsWith('Reminder 1 of 2: the link expires on 30 June 2026.\n\nKære Ann Berg'),
    ).toBe(true);
  });

  it('a header value from a template loses its line breaks', () => {
    const mail = composeEmail(
      message({
        case: { ...message().case, title: 'A\r\nX-Evil: 1' },
        template: { subject: '{{case.title}}', body: 'x {{signingUrl}}' },
      }),
      options,
    );
    expect(mail.subject).toBe('A X-Evil: 1');
  });
});

describe('composeSms', () => {
  it('an invitation with a long title fits two GSM segments and keeps the whole link', () => {
    const long = message({
      company: { name: 'Ejendomsselskabet Nørrebro Syd ApS og Søn og Datter' },
      case: { ...message().case, title: 'Lejekontrakt '.repeat(20) },
      signingUrl: `https://sign.acme.example/s/${'t'.repeat(43)}`,
    });
    const text = composeSms(long, options);
    expect(text.length).toBeLessThanOrEqual(306);
    expect(text.endsWith(`: https://sign.acme.example/s/${'t'.repeat(43)}`)).toBe(true);
    expect(text).toContain('...');
    expect(text).toMatch(/^[\x20-\x7eæøåÆØÅ]+$/);
  });

  it('the others are short notices without links', () => {
    const copy = composeSms(
      message({ kind: 'signed-copy', language: 'en', signingUrl: undefined }),
      options,
    );
    expect(copy).toBe('Acme A/S: "Lejekontrakt" has been signed by everyone and sealed.');
    const denial = composeSms(
      message({
        kind: 'denial',
        signingUrl: undefined,
        denial: { by: 'Ann\nBerg', reason: 'Nej\r\ntak' },
      }),
      options,
    );
    expect(denial).toBe('Ann Berg har afvist at underskrive "Lejekontrakt". Begrundelse: Nej tak');
  });
});

describe('emailMessage', () => {
  const config = {
    from: { name: 'docpipe\r\nBcc: x@y', address: 'noreply@docpipe.example' },
    timeZone: 'Europe/Copenhagen',
    attachMaxBytes: 100,
  };

  it('addresses with objects, names cleaned, Reply-To the sender, a Message-ID from the seed', async () => {
    const mail = await emailMessage(
      message({ to: { name: 'Ann, "Boss" <b@x>', email: ' ann@example.com ' } }),
      config,
    );
    expect(mail.from).toEqual({ name: 'docpipe Bcc: x@y', address: 'noreply@docpipe.example' });
    expect(mail.to).toEqual([{ name: 'Ann, "Boss" <b@x>', address: 'ann@example.com' }]);
    expect(mail.replyTo).toEqual({ name: 'Bo Holm', address: 'bo@acme.example' });
    expect(mail.messageId).toBe('<case-1.r1.invitation@docpipe.example>');
    expect(mail.headers).toEqual({ 'Auto-Submitted': 'auto-generated' });
  });

  it('refuses an address that is none or several', async () => {
    for (const email of ['a@b.example\r\nBcc: c@d', 'a@b.example, c@d.example', 'nobody', '<a@b>'])
      await expect(emailMessage(message({ to: { name: 'A', email } }), config)).rejects.toThrow(
        "the recipient's e-mail address is not a valid address",
      );
    await expect(emailMessage(message({ to: { name: 'A', email: '  ' } }), config)).rejects.toThrow(
      'the recipient has no e-mail address',
    );
  });

  it('no Reply-To on the denial notice: it goes to the sender', async () => {
    const mail = await emailMessage(
      message({ kind: 'denial', signingUrl: undefined, denial: { by: 'Ann', reason: null } }),
      config,
    );
    expect(mail.replyTo).toBeUndefined();
  });

  it('attaches by size, and links when a document cannot be read', async () => {
    const doc = (bytes: number, fails = false) => ({
      name: 'K/../1',
      bytes,
      url: 'https://x.example/d/1',
      content: () =>
        fails ? Promise.reject(new Error('gone')) : Promise.resolve(Buffer.alloc(bytes)),
    });
    const copy = (documents: OutgoingMessage['documents']) =>
      message({ kind: 'signed-copy', signingUrl: undefined, documents });
    const attached = await emailMessage(copy([doc(60), doc(40)]), config);
    expect(attached.attachments).toEqual([
      { filename: 'K_.._1.pdf', content: Buffer.alloc(60), contentType: 'application/pdf' },
      { filename: 'K_.._1.pdf', content: Buffer.alloc(40), contentType: 'application/pdf' },
    ]);
    expect(await emailMessage(copy([doc(60), doc(41)]), config)).toMatchObject({ attachments: [] });
    const unreadable = await emailMessage(copy([doc(10, true)]), config);
    expect(unreadable.attachments).toEqual([]);
    expect(unreadable.text).toContain('https://x.example/d/1');
  });

  it('the same seed gives the same Message-ID; a seed that is no atom is hashed', () => {
    expect(messageIdOf('a:b c', 'x@d.example')).toBe(messageIdOf('a:b c', 'x@d.example'));
    expect(messageIdOf('a:b c', 'x@d.example')).toMatch(/^<[0-9a-f]{40}@d\.example>$/);
    expect(messageIdOf('a:b d', 'x@d.example')).not.toBe(messageIdOf('a:b c', 'x@d.example'));
  });
});

describe('small parts', () => {
  it('phoneNumber keeps + and digits, and tells none from wrong', () => {
    expect(phoneNumber('+45 12 34-56.78')).toBe('+4512345678');
    expect(phoneNumber('(0045) 1234 5678')).toBe('004512345678');
    expect(phoneNumber('')).toBeUndefined();
    expect(phoneNumber(null)).toBeUndefined();
    expect(phoneNumber('12ab')).toBeNull();
    expect(phoneNumber('+45\n12345678')).toBe('+4512345678');
  });

  it('emlFileName sorts by time and names the case and kind, safely', () => {
    const a = emlFileName(new Date('2026-05-14T09:59:59.999Z'), {
      case: { id: '../etc/passwd' },
      kind: 'invitation',
    });
    const b = emlFileName(new Date('2026-05-14T10:00:00.000Z'), {
      case: { id: 'c1' },
      kind: 'denial',
    });
    expect(a).toMatch(/^2026-05-14T09-59-59\.999Z____etc_passwd_invitation_[0-9a-f]{8}\.eml$/);
    expect([b, a].sort()).toEqual([a, b]);
  });

  it('emlFileName names a message of no case by its label alone, safely and uniquely', () => {
    const at = new Date('2026-05-14T10:00:00.000Z');
    const m = { case: { id: 'account-confirm' }, kind: 'invitation' as const };
    const a = emlFileName(at, { ...m, fileLabel: 'confirm-email' });
    expect(a).toMatch(/^2026-05-14T10-00-00\.000Z_confirm-email_[0-9a-f]{8}\.eml$/);
    expect(emlFileName(at, { ...m, fileLabel: 'confirm-email' })).not.toBe(a);
    expect(emlFileName(at, { ...m, fileLabel: '../x y' })).toMatch(
      /^[^/]*Z____x_y_[0-9a-f]{8}\.eml$/,
    );
  });
});
