import type { Words } from './words-en.js';

/** The words of placing signatures on a draft's pages, in Danish: the same keys as words-places-en.ts. */
export const PLACES_DA: Words['places'] = {
  title: 'Placér underskrifter',
  intro:
    'Vælg en modtager og hvad de skal sætte, og træk så en boks på en side. Træk en boks for at flytte den, træk i dens hjørne for at ændre størrelsen. Med tastaturet: Tilføj placering sætter en på den valgte side; piletasterne flytter boksen med fokus, Skift og piletasterne ændrer størrelsen, Delete fjerner den.',
  back: 'Tilbage til sagen',
  notDraft: 'Sagen er {state}: dens placeringer kan ikke længere ændres.',
  noDocuments: 'Sagen har ingen dokumenter at placere underskrifter på.',
  noSigners: 'Sagen har ingen modtager, der skriver under.',
  recipient: 'Modtager',
  kind: 'Felttype',
  page: 'Side',
  pageOf: '{document}, side {page}',
  pageImage: '{document}, side {page} af {pages}',
  add: 'Tilføj placering',
  save: 'Gem placeringer',
  send: 'Send sagen',
  sendHint: 'Når sagen sendes, inviteres de første modtagere; placeringerne er dem, du har gemt.',
  saved: 'Placeringerne er gemt.',
  problems: 'Før sagen kan sendes',
  needsScript:
    'Placering af underskrifter kræver script i browseren: placeringerne nedenfor er dem, sagen har nu.',
  none: 'Ingen placeringer endnu: underskrivere uden en placering skriver under på en side efter dokumentet.',
  listCaption: 'Placeringer nu',
  document: 'Dokument',
  size: 'Position og størrelse (punkter)',
  states: {
    draft: 'en kladde',
    open: 'sendt',
    signed: 'underskrevet',
    denied: 'afvist',
    expired: 'udløbet',
  },
  kinds: {
    sign: 'Underskrift',
    initials: 'Initialer',
    name: 'Navn',
    date: 'Dato',
  },
  added: '{kind} for {recipient} tilføjet på side {page}.',
  moved: '{kind} for {recipient} flyttet.',
  resized: '{kind} for {recipient} ændret i størrelse.',
  removed: '{kind} for {recipient} fjernet.',
  boxLabel:
    '{kind} for {recipient}, side {page}. Piletasterne flytter, Skift og piletasterne ændrer størrelsen, Delete fjerner.',
  badBody: 'De sendte placeringer kunne ikke læses; genindlæs siden og prøv igen.',
  problemWhere: 'Dokument {document}, placering {place}',
  problemUnplaced:
    '{name} underskriver, men har ingen placering endnu: tilføj en placering til underskriften.',
  problemCopyOnly:
    '{name} modtager kun en kopi og underskriver ikke: fjern placeringen, eller lad personen underskrive.',
  problemNoPage: {
    one: 'side {page} findes ikke; dokumentet har {pages} side.',
    other: 'side {page} findes ikke; dokumentet har {pages} sider.',
  },
  problemOutside: 'den ligger uden for side {page}; flyt den ind på siden.',
  problemOverlap: 'den dækker placering {other} på side {page}; flyt dem fra hinanden.',
};
