import { describe, expect, it } from 'vitest';
import {
  composeEmail,
  composeSms,
  type OutgoingMessage,
} from '../../src/service/messages/index.js';

/**
 * The signed copy says a seal only of what was sealed: a document given by another host's link
 * (`byReference`) was signed by reference to it. Over real sealing and SMTP:
 * test/integration/signed-copy-by-reference.test.ts.
 */

const SEALED = { name: 'lease.pdf', bytes: 10, url: 'https://docpipe.example/files/x' };
const LINKED = {
  name: 'annex',
  bytes: 0,
  url: 'https://files.example.com/annex.pdf',
  byReference: true,
};

function copy(language: string, documents: NonNullable<OutgoingMessage['documents']>) {
  const m: OutgoingMessage = {
    kind: 'signed-copy',
    language,
    to: { name: 'Ann Berg', email: 'ann@example.com', phone: '+4512345678' },
    company: { name: 'Acme A/S' },
    sender: { name: 'Bo Holm', email: 'bo@acme.example' },
    case: { id: 'case-1', title: 'Lejekontrakt', expiresAt: new Date('2026-06-29T12:00:00Z') },
    documents,
    id: 'case-1.r1.signed-copy',
  };
  const options = { timeZone: 'Europe/Copenhagen' };
  return {
    text: composeEmail(m, { ...options, attached: false }).text.replace(/\s+/g, ' '),
    sms: composeSms(m, options),
  };
}

describe('the signed copy', () => {
  it('of sealed documents only says they are sealed', () => {
    const { text, sms } = copy('en', [SEALED]);
    expect(text).toContain('has been signed by everyone and sealed');
    expect(sms).toContain('signed by everyone and sealed');
  });

  it('of a sealed document and a linked one says which is which, in English', () => {
    const { text, sms } = copy('en', [SEALED, LINKED]);
    expect(text).toContain('The documents sent with the case are sealed');
    expect(text).toContain(
      'the ones given by link were signed by reference to the link and not sealed',
    );
    expect(text).toContain('annex (signed by reference to the link, not sealed)');
    expect(text).not.toContain('lease.pdf (signed by reference');
    expect(sms).not.toContain('and sealed');
    expect(sms).toContain('Documents given by link are not sealed');
  });

  it('of linked documents only never says sealed but "not sealed", in Danish', () => {
    const { text, sms } = copy('da', [LINKED]);
    expect(text).not.toContain('og forseglet');
    expect(text).toContain('underskrevet med henvisning til linket og ikke forseglet');
    expect(text).toContain('annex (underskrevet med henvisning til linket, ikke forseglet)');
    expect(sms).not.toContain('og forseglet');
    expect(sms).toContain('ikke forseglet');
  });
});
