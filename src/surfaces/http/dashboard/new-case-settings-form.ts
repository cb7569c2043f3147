import type { CaseInput, RecipientInput } from '../../../service/cases/index.js';

/**
 * The New case form's settings beyond expiry (issue 34), each kept as typed for a re-render. The
 * inputs are named as formFieldOf turns the service's paths into form fields (`settings.X` is
 * `X`, `presetId` stays), so that each refusal lands by its input without a mapping of its own.
 */
export interface CaseSettingsValues {
  remindersAmount: string;
  remindersDaysBetween: string;
  language: string;
  message: string;
  messageTemplateId: string;
  presetId: string;
}

export const EMPTY_SETTINGS: CaseSettingsValues = {
  remindersAmount: '',
  remindersDaysBetween: '',
  language: '',
  message: '',
  messageTemplateId: '',
  presetId: '',
};

/** A recipient row's signing order and method, as typed. */
export interface RecipientExtras {
  group: string;
  /** `draw`, a served eID scheme, or empty: the case's methods. */
  signingSchema: string;
}

/** The languages the form offers: the two the dashboard itself is written in. */
export const CASE_LANGUAGES = ['da', 'en'] as const;

const text = (body: Record<string, unknown>, key: string): string => {
  const v = body[key];
  return typeof v === 'string' ? v : '';
};

export function readSettings(body: Record<string, unknown>): CaseSettingsValues {
  return {
    remindersAmount: text(body, 'reminders.amount'),
    remindersDaysBetween: text(body, 'reminders.daysBetween'),
    language: text(body, 'language'),
    message: text(body, 'message'),
    messageTemplateId: text(body, 'messageTemplateId'),
    presetId: text(body, 'presetId'),
  };
}

export function readRecipientExtras(body: Record<string, unknown>, i: number): RecipientExtras {
  return {
    group: text(body, `recipients.${i}.group`),
    signingSchema: text(body, `recipients.${i}.signingSchema`),
  };
}

const INTEGER = /^-?\d+$/;

/**
 * A typed whole number as the body carries it; anything else is sent as typed, so that the
 * service's structure check refuses it with its own reason at its path (as an API client's would).
 */
function integerOf(raw: string): number {
  const t = raw.trim();
  return (INTEGER.test(t) ? Number(t) : t) as number;
}

/** The recipient's own members of a v3 recipient: nothing for what was left empty. */
export function recipientExtrasOf(row: Partial<RecipientExtras>): Partial<RecipientInput> {
  const group = (row.group ?? '').trim();
  const method = row.signingSchema ?? '';
  return {
    ...(group !== '' ? { group: integerOf(group) } : {}),
    ...(method !== '' ? { signingSchema: method } : {}),
  };
}

/**
 * The case's settings and references the values stand for, merged into `body` as
 * POST /v3/api/cases takes them: reminders as `settings.reminders` (a count given turns them on),
 * `settings.language`, `settings.message`, and `presetId` and `messageTemplateId` at the top.
 */
export function withSettings(body: CaseInput, values: CaseSettingsValues | undefined): CaseInput {
  if (!values) return body;
  const settings = { ...body.settings };
  const amount = values.remindersAmount.trim();
  const days = values.remindersDaysBetween.trim();
  if (amount !== '' || days !== '')
    settings.reminders = {
      send: true,
      ...(amount !== '' ? { amount: integerOf(amount) } : {}),
      ...(days !== '' ? { daysBetween: integerOf(days) } : {}),
    };
  if (values.language !== '') settings.language = values.language;
  if (values.message.trim() !== '') settings.message = values.message;
  return {
    ...body,
    ...(values.presetId !== '' ? { presetId: values.presetId } : {}),
    ...(values.messageTemplateId !== '' ? { messageTemplateId: values.messageTemplateId } : {}),
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
  };
}
