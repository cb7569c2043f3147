import type { CaseDocumentInput, CaseInput } from '../../../service/cases/index.js';
import type { TagInput } from '../../../document/values/index.js';
import type { LibraryColumn, LibraryField } from './new-case-library.js';
import { filledListRows, listCell } from './new-case-list-rows.js';
import { MAX_DOCUMENT_ROWS } from './new-case-upload.js';
import {
  readRecipientExtras,
  readSettings,
  recipientExtrasOf,
  withSettings,
  type CaseSettingsValues,
  type RecipientExtras,
} from './new-case-settings-form.js';

/** One recipient row as the form posts it (every value kept as typed, for a re-render). */
export interface RecipientRow extends Partial<RecipientExtras> {
  name: string;
  email: string;
  phone: string;
  channel: string;
  signing: boolean;
}

/**
 * One document row: an uploaded file (kept server-side as the company's upload, carried by its
 * URL in a hidden field), a library document or a v2 form's document, with its fields' values
 * (`documents.N.tags.<tag>`).
 */
export interface DocumentRow {
  source: 'upload' | 'library' | 'form';
  /** The document's name in the case; empty: the file's or the library document's. */
  name: string;
  /** The stored upload's URL (new-case-upload.ts), once a file was taken. */
  upload: string;
  uploadName: string;
  documentId: string;
  /** A v2 form's document, `<form id>:<index>` (new-case-forms.ts). */
  formDocument: string;
  /**
   * The row's fields were on the page it was posted from: a value absent then is a checkbox left
   * unticked, not a field to prefill with its default.
   */
  shown: boolean;
  /** Every posted value by tag, as typed (a checkbox: `true` or absent). */
  tags: Record<string, string>;
}

export const EMPTY_DOCUMENT: DocumentRow = {
  source: 'upload',
  name: '',
  upload: '',
  uploadName: '',
  documentId: '',
  formDocument: '',
  shown: false,
  tags: {},
};

/** The New case form's values, read from its flat url-encoded body. */
export interface NewCaseValues {
  title: string;
  folder: string;
  documents: DocumentRow[];
  expiresInDays: string;
  recipients: RecipientRow[];
  /** Reminders, language, message, template, preset (new-case-settings-form.ts). */
  settings?: CaseSettingsValues;
}

const MAX_ROWS = 50;
const text = (body: Record<string, unknown>, key: string): string => {
  const v = body[key];
  return typeof v === 'string' ? v : '';
};

/** Reads the posted form; rows are `recipients.N.field`, counted by `rows`. */
export function readNewCase(body: Record<string, unknown>): NewCaseValues {
  const rows = Math.min(MAX_ROWS, Math.max(0, Number.parseInt(text(body, 'rows'), 10) || 0));
  const recipients: RecipientRow[] = [];
  for (let i = 0; i < rows; i++) {
    const p = `recipients.${i}.`;
    recipients.push({
      name: text(body, `${p}name`),
      email: text(body, `${p}email`),
      phone: text(body, `${p}phone`),
      channel: text(body, `${p}channel`) === 'sms' ? 'sms' : 'email',
      signing: text(body, `${p}signing`) === 'true',
      ...readRecipientExtras(body, i),
    });
  }
  return {
    title: text(body, 'title'),
    folder: text(body, 'folder'),
    documents: readDocuments(body),
    expiresInDays: text(body, 'expiresInDays'),
    recipients,
    settings: readSettings(body),
  };
}

/** The document rows, `documents.N.*`, counted by `docs`. */
function readDocuments(body: Record<string, unknown>): DocumentRow[] {
  const count = Math.min(
    MAX_DOCUMENT_ROWS,
    Math.max(0, Number.parseInt(text(body, 'docs'), 10) || 0),
  );
  const rows: DocumentRow[] = [];
  for (let i = 0; i < count; i++) {
    const p = `documents.${i}.`;
    const tags: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const key of Object.keys(body))
      if (key.startsWith(`${p}tags.`)) tags[key.slice(`${p}tags.`.length)] = text(body, key);
    rows.push({
      // A library or form document chosen makes the row that document; else it is the upload.
      source:
        text(body, `${p}documentId`) !== ''
          ? 'library'
          : text(body, `${p}formDocument`) !== ''
            ? 'form'
            : 'upload',
      name: text(body, `${p}name`),
      upload: text(body, `${p}upload`),
      uploadName: text(body, `${p}uploadName`),
      documentId: text(body, `${p}documentId`),
      formDocument: text(body, `${p}formDocument`),
      shown: text(body, `${p}shown`) === 'true',
      tags,
    });
  }
  return rows;
}

/** The rows that stand for a document of the case, in its order (a row with nothing chosen does not). */
export function documentRowsOf(rows: readonly DocumentRow[]): number[] {
  return rows.flatMap((r, i) =>
    (
      r.source === 'upload'
        ? r.upload !== ''
        : r.source === 'library'
          ? r.documentId !== ''
          : r.formDocument !== ''
    )
      ? [i]
      : [],
  );
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A posted text as a value of the type; one that is not of it is sent as typed, for the service to refuse. */
function typedValue(type: LibraryField['type'], raw: string): unknown {
  if (type === 'boolean') return raw === 'true';
  if (type === 'number') return NUMBER.test(raw.trim()) ? Number(raw.trim()) : raw;
  return raw;
}

/**
 * A list's rows from its inputs: each row that holds anything, an object of its cells by column.
 * A cell left empty is not sent (a yes-or-no column is, ticked or not), so that the service
 * refuses it by its path rather than print an empty cell to a signer.
 */
function listRowsOf(
  tags: Readonly<Record<string, string>>,
  list: string,
  columns: readonly LibraryColumn[],
): Record<string, unknown>[] {
  return filledListRows(tags, list).map((r) => {
    const row: Record<string, unknown> = {};
    for (const c of columns) {
      const raw = listCell(tags, list, r, c.tag) ?? '';
      if (c.type === 'boolean' || raw.trim() !== '') row[c.tag] = typedValue(c.type, raw);
    }
    return row;
  });
}

/**
 * A field's typed value as a v3 body's TagInput carries it; a value that is not of the type is
 * sent as typed, so that the service refuses it with its own reason at `documents[i].tags.<tag>`.
 */
function tagInputOf(field: LibraryField, row: DocumentRow): TagInput {
  if (field.type === 'list' && field.columns)
    return { tag: field.tag, value: listRowsOf(row.tags, field.tag, field.columns), type: 'list' };
  const raw = fieldValue(row, field) ?? '';
  if (field.type !== 'list')
    return { tag: field.tag, value: typedValue(field.type, raw), type: field.type };
  // A list whose rows hold lists of their own: its rows as JSON.
  let value: unknown = raw;
  try {
    value = raw.trim() === '' ? [] : (JSON.parse(raw) as unknown);
  } catch {
    // Not JSON: sent as typed, for the service to refuse by its path.
  }
  return { tag: field.tag, value, type: field.type };
}

/** A row's field value: as posted, or its default when the row's fields were not yet shown. */
export function fieldValue(row: DocumentRow, field: LibraryField): string | undefined {
  return row.tags[field.tag] ?? (row.shown ? undefined : field.value);
}

/** A form document's bytes and name, which the row itself does not carry. */
export interface FormDocumentSource {
  name: string;
  /** base64, as a v3 body's `content`. */
  content: string;
}

/**
 * A row's document as a v3 body names it: an upload's URL, a library id, or a form document's
 * bytes (v3 has no member naming a form's document), the latter two with their tags.
 */
function documentOf(
  row: DocumentRow,
  fields: readonly LibraryField[] | undefined,
  form: FormDocumentSource | undefined,
  libraryName: string | undefined,
): CaseDocumentInput {
  if (row.source === 'upload')
    return { name: row.name.trim() || row.uploadName || 'document', url: row.upload };
  const doc: CaseDocumentInput =
    row.source === 'library'
      ? {
          name: row.name.trim() || libraryName || row.documentId,
          documentId: row.documentId,
        }
      : { name: row.name.trim() || form?.name || 'document', content: form?.content ?? '' };
  if (fields && fields.length > 0)
    doc.tags = fields.flatMap((f) => {
      const value = fieldValue(row, f);
      // An input left empty is a field not filled, not an empty text: the library document is
      // strict, so the service refuses it by its path instead of printing "Dear ," to a signer.
      return f.type !== 'boolean' && f.type !== 'list' && (value ?? '').trim() === ''
        ? []
        : [tagInputOf(f, row)];
    });
  return doc;
}

/**
 * The v3 body the form stands for: the same shape POST /v3/api/cases takes. `fields` are each
 * row's library fields (new-case-library.ts), by row.
 */
export function caseBodyOf(
  values: NewCaseValues,
  state: 'draft' | 'open',
  fields: readonly (readonly LibraryField[] | undefined)[] = [],
  forms: readonly (FormDocumentSource | undefined)[] = [],
  /** The library documents' names by id: a row left unnamed takes its document's. */
  libraryNames: ReadonlyMap<string, string> = new Map(),
): CaseInput {
  const days = values.expiresInDays.trim();
  const body: CaseInput = {
    title: values.title.trim(),
    state,
    ...(values.folder ? { folder: values.folder } : {}),
    ...(days !== '' ? { settings: { expiresInDays: Number(days) } } : {}),
    recipients: values.recipients.map((r) => ({
      name: r.name.trim(),
      ...(r.email.trim() ? { email: r.email.trim() } : {}),
      ...(r.phone.trim() ? { phone: r.phone.trim() } : {}),
      type: r.channel,
      signing: r.signing,
      ...recipientExtrasOf(r),
    })),
    documents: documentRowsOf(values.documents).map((i) =>
      documentOf(
        values.documents[i]!,
        fields[i],
        forms[i],
        libraryNames.get(values.documents[i]!.documentId),
      ),
    ),
  };
  return withSettings(body, values.settings);
}

/**
 * The service's `details[].field` paths (`recipients[1].email`, `settings.expiresInDays`) as the
 * form's field names (`recipients.1.email`, `expiresInDays`), so that each refusal sits by its input.
 */
export function formFieldOf(
  path: string,
  rows: readonly DocumentRow[] = [],
  body?: CaseInput,
): string {
  if (path.startsWith('settings.')) return path.slice('settings.'.length);
  const doc = /^documents\[(\d+)\](.*)$/.exec(path);
  if (doc) {
    // The case's i-th document is the i-th row that stands for one.
    const n = documentRowsOf(rows)[Number(doc[1])] ?? 0;
    // By the tag's name (`tags.start_date`), or by its place among the document's TagInputs
    // (`tags[3].value`), as the fill names a value; a list's cell (`.value[1].amount`) is its
    // input in the row it came from.
    const tag = /^\.tags\.([^.[]+)(.*)$/.exec(doc[2]!);
    const at = /^\.tags\[(\d+)\](.*)$/.exec(doc[2]!);
    const named = tag
      ? tag[1]
      : at
        ? body?.documents?.[Number(doc[1])]?.tags?.[Number(at[1])]?.tag
        : undefined;
    if (named !== undefined) {
      const cell = /^\.value\[(\d+)\]\.([^.[]+)/.exec((tag ? tag[2] : at?.[2]) ?? '');
      const row = cell ? filledListRows(rows[n]?.tags ?? {}, named)[Number(cell[1])] : undefined;
      return row !== undefined && cell
        ? `documents.${n}.tags.${named}.${row}.${cell[2]}`
        : `documents.${n}.tags.${named}`;
    }
    if (doc[2]!.startsWith('.name')) return `documents.${n}.name`;
    const source = rows[n]?.source;
    return source === 'library'
      ? `documents.${n}.documentId`
      : source === 'form'
        ? `documents.${n}.formDocument`
        : `documents.${n}.file`;
  }
  if (path === 'documents') return 'documents';
  return path.replace(/\[(\d+)\]/g, '.$1');
}
