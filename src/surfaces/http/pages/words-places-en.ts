/**
 * The words of placing signatures on a draft's pages, in English: the `places` section of words-en.ts, in a file of its own so
 * that each area's pages and words change together. words-places-da.ts has the same keys (its type
 * is this one's).
 */
export const PLACES_EN = {
  title: 'Place signatures',
  intro:
    'Choose a recipient and what they put there, then drag a box on a page. Drag a box to move it, drag its corner to resize it. With the keyboard: Add place puts one on the chosen page; arrow keys move the focused box, Shift and arrow keys resize it, Delete removes it.',
  back: 'Back to the case',
  notDraft: 'The case is {state}: its places can no longer change.',
  noDocuments: 'The case has no documents to place signatures on.',
  noSigners: 'The case has no recipient who signs.',
  recipient: 'Recipient',
  /** A place's kind (signature, initials, name, date): not its position, which `size` names. */
  kind: 'Field type',
  page: 'Page',
  pageOf: '{document}, page {page}',
  pageImage: '{document}, page {page} of {pages}',
  add: 'Add place',
  save: 'Save places',
  send: 'Send the case',
  sendHint: 'Sending invites the first recipients; the places are what you saved.',
  saved: 'The places are saved.',
  problems: 'Before the case can be sent',
  needsScript:
    'Placing signatures needs script in the browser: the places below are what the case has now.',
  none: 'No places yet: signers without a place sign on a page added after the document.',
  listCaption: 'Places now',
  document: 'Document',
  size: 'Position and size (points)',
  states: {
    draft: 'a draft',
    open: 'sent',
    signed: 'signed',
    denied: 'denied',
    expired: 'expired',
  },
  kinds: {
    sign: 'Signature',
    initials: 'Initials',
    name: 'Name',
    date: 'Date',
  },
  /** Announced through the live region; {kind}, {recipient}, {page} filled by the script. */
  added: '{kind} of {recipient} added on page {page}.',
  moved: '{kind} of {recipient} moved.',
  resized: '{kind} of {recipient} resized.',
  removed: '{kind} of {recipient} removed.',
  boxLabel:
    '{kind} of {recipient}, page {page}. Arrow keys move, Shift and arrow keys resize, Delete removes.',
  badBody: 'The places sent could not be read; reload the page and try again.',
  problemWhere: 'Document {document}, place {place}',
  problemUnplaced: '{name} signs but has no place yet: add a signature place for them.',
  problemCopyOnly:
    '{name} only receives a copy and does not sign: remove the place or let them sign.',
  /** By the document's page count (count-words.ts): "1 page", "2 pages". */
  problemNoPage: {
    one: 'page {page} does not exist; the document has {pages} page.',
    other: 'page {page} does not exist; the document has {pages} pages.',
  },
  problemOutside: 'it is outside page {page}; move it inside the page.',
  problemOverlap: 'it covers place {other} on page {page}; move them apart.',
} as const;
