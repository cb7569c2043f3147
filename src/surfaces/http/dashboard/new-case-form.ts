import type { CaseInput } from '../../../service/cases/index.js';

/** One recipient row as the form posts it (every value kept as typed, for a re-render). */
export interface RecipientRow {
  name: string;
  email: string;
  phone: string;
  channel: string;
  signing: boolean;
}

/** The New case form's values, read from its flat url-encoded body. */
export interface NewCaseValues {
  title: string;
  folder: string;
  documentId: string;
  expiresInDays: string;
  recipients: RecipientRow[];
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
    });
  }
  return {
    title: text(body, 'title'),
    folder: text(body, 'folder'),
    documentId: text(body, 'documentId'),
    expiresInDays: text(body, 'expiresInDays'),
    recipients,
  };
}

/** The v3 body the form stands for: the same shape POST /v3/api/cases takes. */
export function caseBodyOf(values: NewCaseValues, state: 'draft' | 'open'): CaseInput {
  const days = values.expiresInDays.trim();
  return {
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
    })),
    documents: values.documentId
      ? [{ name: values.documentId, documentId: values.documentId }]
      : [],
  };
}

/**
 * The service's `details[].field` paths (`recipients[1].email`, `settings.expiresInDays`) as the
 * form's field names (`recipients.1.email`, `expiresInDays`), so that each refusal sits by its input.
 */
export function formFieldOf(path: string): string {
  if (path.startsWith('settings.')) return path.slice('settings.'.length);
  if (path.startsWith('documents')) return 'documentId';
  return path.replace(/\[(\d+)\]/g, '.$1');
}
