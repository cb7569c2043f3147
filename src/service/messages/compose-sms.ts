import { defang } from './defang.js';
import { formatDate, messageLanguage } from './message-language.js';
import type { OutgoingMessage } from './message.js';
import { cut, headerText } from './plain-text.js';
import { sealedDocuments } from './sealed-documents.js';

/**
 * Values in an SMS are cut so that a message with a signing link fits two segments (2 x 153
 * characters of the GSM alphabet, which has æ, ø and å): names and titles are the part that
 * grows, the link and the wording are fixed.
 */
const MAX_TITLE_CHARS = 60;
const MAX_NAME_CHARS = 40;
const MAX_REASON_CHARS = 80;

/**
 * The text of an SMS: the invitation and the reminder with the signing link and its expiry, the
 * others a short notice (the signed documents go by e-mail: a PDF does not fit an SMS). One line,
 * no controls; quotes are the plain `"`, which the GSM alphabet has (» and “ would make the whole
 * message UCS-2, 70 characters a segment).
 */
export function composeSms(m: OutgoingMessage, options: { timeZone: string }): string {
  const da = messageLanguage(m.language) === 'da';
  const company = headerText(m.company.name, MAX_NAME_CHARS);
  const title = `"${headerText(m.case.title, MAX_TITLE_CHARS)}"`;
  const date = formatDate(m.case.expiresAt, da ? 'da' : 'en', options.timeZone);
  switch (m.kind) {
    case 'invitation':
      return da
        ? `${company} beder dig underskrive ${title}. Linket udløber ${date}: ${url(m)}`
        : `${company} asks you to sign ${title}. The link expires ${date}: ${url(m)}`;
    case 'reminder': {
      const n = m.reminder ? ` ${m.reminder.number}/${m.reminder.of}` : '';
      return da
        ? `Påmindelse${n}: ${company} venter på din underskrift på ${title}. Linket udløber ${date}: ${url(m)}`
        : `Reminder${n}: ${company} is waiting for your signature on ${title}. The link expires ${date}: ${url(m)}`;
    }
    case 'signed-copy': {
      const sealed = sealedDocuments(m);
      if (sealed === 'all')
        return da
          ? `${company}: ${title} er underskrevet af alle parter og forseglet.`
          : `${company}: ${title} has been signed by everyone and sealed.`;
      // Documents given by link were signed by reference to it: no seal is claimed for them.
      return da
        ? `${company}: ${title} er underskrevet af alle parter. Dokumenter givet som link er ikke forseglet.`
        : `${company}: ${title} has been signed by everyone. Documents given by link are not sealed.`;
    }
    case 'denial': {
      const by = headerText(m.denial?.by, MAX_NAME_CHARS);
      // The signer wrote it: no phone may show a link in it (defang.ts).
      const reason = m.denial?.reason
        ? cut(defang(headerText(m.denial.reason)), MAX_REASON_CHARS)
        : '';
      return da
        ? `${by} har afvist at underskrive ${title}.${reason ? ` Begrundelse: ${reason}` : ''}`
        : `${by} has declined to sign ${title}.${reason ? ` Reason: ${reason}` : ''}`;
    }
    // A web-flow asks by e-mail only (its people have no phone); written all the same, so that
    // every kind has its text on every channel.
    case 'flow-invitation':
      return da
        ? `${company} beder dig udfylde ${title}. Linket udløber ${date}: ${url(m)}`
        : `${company} asks you to fill in ${title}. The link expires ${date}: ${url(m)}`;
    case 'flow-reminder': {
      const n = m.reminder ? ` ${m.reminder.number}/${m.reminder.of}` : '';
      return da
        ? `Påmindelse${n}: ${company} venter på dine svar på ${title}. Linket udløber ${date}: ${url(m)}`
        : `Reminder${n}: ${company} is waiting for your answers to ${title}. The link expires ${date}: ${url(m)}`;
    }
  }
}

function url(m: OutgoingMessage): string {
  if (!m.signingUrl) throw new Error(`a message of kind ${m.kind} needs signingUrl`);
  return m.signingUrl;
}
