import type { Words } from './words-en.js';

/** The words of the New case form (/dashboard/cases/new), in Danish: the same keys as words-new-case-en.ts. */
export const NEW_CASE_DA: Words['newCase'] = {
  title: 'Ny sag',
  caseTitle: 'Titel',
  folder: 'Mappe',
  documents: 'Dokumenter',
  libraryDocument: 'Dokument fra biblioteket',
  noDocument: '(intet)',
  recipients: 'Modtagere',
  recipient: 'Modtager {n}',
  name: 'Navn',
  email: 'E-mail',
  phone: 'Telefon',
  channel: 'Kanal',
  channelEmail: 'E-mail',
  channelSms: 'SMS',
  signing: 'Underskriver (fjern fluebenet: kun kopi)',
  addRecipient: 'Tilføj modtager',
  removeRecipient: 'Fjern modtager {n}',
  settings: 'Indstillinger',
  expiresInDays: 'Udløber efter (dage)',
  saveDraft: 'Gem som kladde',
  send: 'Send',
  created: 'Sagen "{title}" er oprettet.',
};
