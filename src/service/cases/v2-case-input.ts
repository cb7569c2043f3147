import type { CaseDocumentInput, CaseInput, CaseSettingsInput } from './case-input.js';
import type { CasePolicy } from './case-create-options.js';
import type { V2CaseBody, V2Document } from './v2-case-body.js';
import { v2RecipientField, v2RecipientInput } from './v2-recipient.js';

/** spec 3 and 8: a v2 case lives 90 days (v3: 30). */
export const V2_DEFAULT_EXPIRES_IN_DAYS = 90;

/** spec 9's behaviour differences: how the create path reads a v2 body's silences. */
export const V2_POLICY: Readonly<CasePolicy> = Object.freeze({
  unknownFolder: 'default-folder',
  unknownSenderEmail: 'key-user',
  defaultSigning: false,
  defaultExpiresInDays: V2_DEFAULT_EXPIRES_IN_DAYS,
  // v2 always used Danish, whatever the company's language.
  defaultLanguage: 'da',
});

/** A v2 body read as the case service's input, the policy it is created under, and its names. */
export interface V2CaseMapping {
  input: CaseInput;
  policy: CasePolicy;
  /** The v2 path of a v3 path (`settings.language` is `settings.lang`): problems say v2's names. */
  fieldOf: (v3Field: string) => string;
  /** The documents as the v2 answer echoes them: the given members, `name` filled in. */
  documents: (V2Document & { name: string })[];
}

/**
 * spec 9's mapping table, row by row, from a body that passed the v2 check (v2-case-check.ts):
 * `title` or `name`; `autoSend` -> `settings.autoSend`; `settings.lang` -> `settings.language`;
 * `settings.availability.days` -> `settings.expiresInDays`; `settings.availability.expiration`
 * -> the policy's `expiresAt` (the moment, in place of days); `reminderAutoSend` ->
 * `settings.reminders.autoSend`; `template` -> `settings.template`; `emailtemplate` or
 * `emailTemplate` -> `messageTemplateId`; `customMessage` with `message` -> `settings.message`;
 * `user` -> `senderId`; `user_email` -> `senderEmail` (with no `user`); `signingSchemas` ->
 * `settings.signingSchemas`; `signingPage.logo` -> `settings.logo`;
 * `integrations.microsoft.returnPath` -> `settings.integrations.microsoft.returnPath`; the
 * recipients through v2RecipientInput; a document's `file` is `content` (`fileIsBlob` true) or
 * `url` (false), its `name` defaults to `Document <n>`. The settings v3 does not take
 * (`deletion`, `allowRecipientsViewOthers`, `allowAPI`, ...) are kept beside the v3 ones; the
 * sender's name and e-mail as given (`user_name`, `user_email`) are what the case shows.
 * `wrapped` says the caller sent it as `body.values`: each path then begins with `values.`.
 */
export function v2CaseInput(body: V2CaseBody, wrapped = false): V2CaseMapping {
  const given = body.settings ?? {};
  const {
    lang,
    availability,
    reminders: givenReminders,
    template: settingsTemplate,
    ...otherSettings
  } = given;
  const { days, expiration, ...otherAvailability } = availability ?? {};

  const settings: CaseSettingsInput = {};
  if (body.autoSend !== undefined) settings.autoSend = body.autoSend;
  if (lang !== undefined) settings.language = lang;
  if (days !== undefined) settings.expiresInDays = days;

  const reminders: NonNullable<CaseSettingsInput['reminders']> = {};
  if (givenReminders?.send !== undefined) reminders.send = givenReminders.send;
  if (givenReminders?.amount !== undefined) reminders.amount = givenReminders.amount;
  if (givenReminders?.daysBetween !== undefined) reminders.daysBetween = givenReminders.daysBetween;
  if (body.reminderAutoSend !== undefined) reminders.autoSend = body.reminderAutoSend;
  if (Object.keys(reminders).length > 0) settings.reminders = reminders;
  const template = body.template ?? settingsTemplate;
  if (template !== undefined) settings.template = template;
  // The flag turned the message on in v2; sending the message alone is enough in v3, and here.
  if (body.message !== undefined && body.customMessage !== false) settings.message = body.message;
  if (body.signingSchemas !== undefined) settings.signingSchemas = [...body.signingSchemas];
  if (body.signingPage?.logo !== undefined) settings.logo = body.signingPage.logo;
  const returnPath = body.integrations?.microsoft?.returnPath;
  if (returnPath !== undefined) settings.integrations = { microsoft: { returnPath } };

  const kept: Record<string, unknown> = { ...otherSettings };
  if (Object.keys(otherAvailability).length > 0) kept.availability = otherAvailability;

  const documents = (body.documents ?? []).map((d, i) => ({
    ...d,
    name: d.name ?? `Document ${i + 1}`,
  }));
  const messageTemplateId = body.emailtemplate ?? body.emailTemplate;
  const input: CaseInput = {
    title: body.title ?? body.name ?? '',
    ...(body.referenceId !== undefined ? { referenceId: body.referenceId } : {}),
    ...(body.folder !== undefined ? { folder: body.folder } : {}),
    ...(messageTemplateId !== undefined ? { messageTemplateId } : {}),
    ...(body.user !== undefined ? { senderId: body.user } : {}),
    ...(body.user === undefined && body.user_email !== undefined
      ? { senderEmail: body.user_email }
      : {}),
    ...(body.tags !== undefined ? { tags: body.tags } : {}),
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    recipients: (body.recipients ?? []).map(v2RecipientInput),
    documents: documents.map(v2DocumentInput),
  };

  const senderAs = {
    ...(body.user_name !== undefined ? { name: body.user_name } : {}),
    ...(body.user_email !== undefined ? { email: body.user_email } : {}),
  };
  const policy: CasePolicy = {
    ...V2_POLICY,
    ...(Object.keys(senderAs).length > 0 ? { senderAs } : {}),
    ...(Object.keys(kept).length > 0 ? { keptSettings: kept } : {}),
    // The moment named wins over days: a case read back (its answer has both) keeps its expiry.
    ...(expiration !== undefined ? { expiresAt: expiration } : {}),
  };
  return { input, policy, fieldOf: v2FieldOf(body, wrapped), documents };
}

/** `file` as its v3 source: base64 bytes, or a URL kept by reference. */
function v2DocumentInput(d: V2Document & { name: string }): CaseDocumentInput {
  const file = d.file ?? '';
  const mustBeRead = d.documentMustBeRead === true ? { mustBeRead: true } : {};
  return fileIsBlob(d)
    ? { name: d.name, content: file, ...mustBeRead }
    : { name: d.name, url: file, ...mustBeRead };
}

/** `fileIsBlob` as given; absent, an http(s) URL is a URL and anything else base64 bytes. */
export function fileIsBlob(d: V2Document): boolean {
  return d.fileIsBlob ?? !/^https?:\/\//i.test(d.file ?? '');
}

/** The v3 path -> v2 path table of one body (which alias it used decides the name). */
function v2FieldOf(body: V2CaseBody, wrapped: boolean): (field: string) => string {
  const top: [string, string][] = [
    ['title', body.title === undefined && body.name !== undefined ? 'name' : 'title'],
    ['settings.autoSend', 'autoSend'],
    ['settings.reminders.autoSend', 'reminderAutoSend'],
    ['settings.language', 'settings.lang'],
    ['settings.expiresInDays', 'settings.availability.days'],
    ['settings.expiresAt', 'settings.availability.expiration'],
    ['settings.template', body.template !== undefined ? 'template' : 'settings.template'],
    ['settings.message', 'message'],
    ['settings.signingSchemas', 'signingSchemas'],
    ['settings.logo', 'signingPage.logo'],
    ['settings.integrations', 'integrations'],
    ['messageTemplateId', body.emailtemplate !== undefined ? 'emailtemplate' : 'emailTemplate'],
    ['senderId', 'user'],
    ['senderEmail', 'user_email'],
  ];
  const prefix = wrapped ? 'values.' : '';
  return (field) => {
    const item = /^(recipients|documents)\[(\d+)\]\.([A-Za-z]+)(.*)$/.exec(field);
    if (item) {
      const [, list, index, member, rest] = item;
      const i = Number(index);
      let name = member!;
      if (list === 'recipients') {
        const r = body.recipients?.[i];
        if (r) name = v2RecipientField(r, name);
      } else if (name === 'content' || name === 'url') name = 'file';
      return `${prefix}${list}[${index}].${name}${rest}`;
    }
    for (const [v3, v2] of top)
      if (field === v3 || field.startsWith(`${v3}.`) || field.startsWith(`${v3}[`))
        return `${prefix}${v2}${field.slice(v3.length)}`;
    return field === '' ? (wrapped ? 'values' : '') : `${prefix}${field}`;
  };
}
