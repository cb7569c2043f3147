/**
 * The words of the New case form (/dashboard/cases/new), in English: the `newCase` section of words-en.ts, in a file of its own so
 * that each area's pages and words change together. words-new-case-da.ts has the same keys (its type
 * is this one's).
 */
export const NEW_CASE_EN = {
  title: 'New case',
  caseTitle: 'Title',
  folder: 'Folder',
  documents: 'Documents',
  libraryDocument: 'Library document',
  noDocument: '(none)',
  document: 'Document {n}',
  documentsHint:
    'Upload a PDF or a .docx, or choose a library document and show its fields to fill them in.',
  documentName: 'Name in the case',
  documentNameHint: "Empty: the file's or the library document's name.",
  file: 'File (PDF or .docx)',
  fileKept: 'Kept: {name}. Choose another file to replace it.',
  fileRefused: 'The file was refused: {reason}',
  showFields: 'Show fields of document {n}',
  fieldsOf: 'Fields of {name}',
  formatHint: 'Shown as {format}.',
  listHint: 'A list: a JSON array of rows, such as [{"item": "Chair", "price": 120}].',
  formDocument: 'Document of a form',
  formDocumentOption: '{form}: {name}',
  uploadCutOff:
    'The form was too large to read (files up to {max} MB each); nothing was created. Choose smaller files.',
  formDocumentNotFound: 'No such document among the forms of this company.',
  addDocument: 'Add document',
  removeDocument: 'Remove document {n}',
  recipients: 'Recipients',
  recipient: 'Recipient {n}',
  name: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  channel: 'Channel',
  channelEmail: 'E-mail',
  channelSms: 'SMS',
  signing: 'Signs (untick: copy only)',
  addRecipient: 'Add recipient',
  removeRecipient: 'Remove recipient {n}',
  settings: 'Settings',
  expiresInDays: 'Expires after (days)',
  saveDraft: 'Save as draft',
  send: 'Send',
  created: 'Case "{title}" created.',
} as const;
