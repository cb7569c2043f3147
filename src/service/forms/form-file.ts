import { Type } from 'typebox';
import { uniqueProblems, type FailureDetail } from '../../base/errors/index.js';
import { schemaChecker } from '../../base/schema/index.js';
import { normalizeTagName } from '../../document/values/index.js';
import {
  V2CaseSettingsSchema,
  V2RecipientSchema,
  type V2CaseSettings,
  type V2Recipient,
} from '../cases/index.js';
import { RECORD_ID } from '../companies/index.js';
import {
  FORM_FILE_TAG_TYPES,
  QUESTION_KINDS,
  type FormDocumentFlags,
  type FormTagType,
  type QuestionKind,
  type TagDefinition,
} from './form-types.js';
import { choicesProblem } from './form-choices.js';

/** The file a form's folder holds beside its templates. */
export const FORM_FILE = 'form.json';

/** The most documents, tags and preset recipients a form may have. */
export const MAX_FORM_DOCUMENTS = 20;
export const MAX_FORM_TAGS = 500;
export const MAX_FORM_RECIPIENTS = 50;
const MAX_TITLE_CHARS = 500;

/** A form.json's document: its name, its template file, and the v2 flags the case keeps. */
export interface FormFileDocument extends FormDocumentFlags {
  name: string;
  /** The template, relative to the form's folder: a .docx (filled on submit) or a .pdf. */
  file: string;
}

/** What a form.json says, checked. */
export interface FormFile {
  id: string;
  title: string;
  folder: string | null;
  active: boolean;
  /** Whether the form can start web-flows (`"webflow": true`); default false. */
  webflow: boolean;
  settings: V2CaseSettings;
  tags: TagDefinition[];
  recipients: V2Recipient[];
  documents: FormFileDocument[];
}

/** A form.json refused: every problem at once, each at its path in the file. */
export class FormFileError extends Error {
  override readonly name = 'FormFileError';

  constructor(
    /** The file the problems are in (its path as given), or the folder. */
    readonly file: string,
    readonly problems: readonly FailureDetail[],
  ) {
    super(`${file} is refused: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`);
  }
}

const FORM_MEMBERS = new Set([
  'id',
  'title',
  'folder',
  'active',
  'webflow',
  'settings',
  'tags',
  'recipients',
  'documents',
]);
const TAG_MEMBERS = new Set(['_id', 'name', 'tag', 'value', 'type', 'choices']);
const DOCUMENT_MEMBERS = new Set([
  'name',
  'file',
  'signObligated',
  'documentMustBeRead',
  'signatories',
]);

const checkSettings = schemaChecker(V2CaseSettingsSchema);
const checkRecipient = schemaChecker(V2RecipientSchema);
const checkFlags = schemaChecker(
  Type.Object({
    signObligated: Type.Optional(Type.Boolean()),
    documentMustBeRead: Type.Optional(Type.Boolean()),
    signatories: Type.Optional(Type.Array(Type.Unknown())),
  }),
);

/**
 * The form a form.json describes (`data`, parsed JSON), or FormFileError with every problem at
 * its path (`tags[2].type`, `documents[0].file`). `folderName` (the form folder's own name) is
 * the id when the file gives none. Members the format does not list are refused: a misspelt
 * `documentMustBeRead` would otherwise be dropped without a word.
 */
export function parseFormFile(data: unknown, folderName: string, file = FORM_FILE): FormFile {
  const problems: FailureDetail[] = [];
  if (!isObject(data))
    throw new FormFileError(file, [{ field: '', message: 'must be a JSON object' }]);
  for (const member of Object.keys(data))
    if (!FORM_MEMBERS.has(member)) problems.push({ field: member, message: 'unknown field' });

  const id = data.id === undefined ? folderName : data.id;
  if (typeof id !== 'string' || !RECORD_ID.test(id))
    problems.push({
      field: 'id',
      message:
        data.id === undefined
          ? `is not given, and the folder's name ${JSON.stringify(folderName)} is no form id: give "id" (1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit)`
          : 'must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit',
    });

  const title = data.title;
  if (title === undefined) problems.push({ field: 'title', message: 'is required' });
  else if (typeof title !== 'string' || title.trim() === '' || title.length > MAX_TITLE_CHARS)
    problems.push({
      field: 'title',
      message: `must be a string of 1 to ${MAX_TITLE_CHARS} characters`,
    });

  const folder = data.folder ?? null;
  if (folder !== null && (typeof folder !== 'string' || folder.trim() === ''))
    problems.push({ field: 'folder', message: "must be the name of one of the company's folders" });

  const active = data.active ?? true;
  if (typeof active !== 'boolean')
    problems.push({ field: 'active', message: 'must be true or false' });

  // Off unless asked for: a flow e-mails people outside the company, so no form starts one
  // without saying so.
  const webflow = data.webflow ?? false;
  if (typeof webflow !== 'boolean')
    problems.push({ field: 'webflow', message: 'must be true or false' });

  const settings = data.settings ?? {};
  problems.push(...checkSettings(settings, 'settings'));

  const tags = tagDefinitions(data.tags, problems);
  const recipients = presetRecipients(data.recipients, problems);
  const documents = formDocuments(data.documents, problems);

  if (problems.length > 0) throw new FormFileError(file, uniqueProblems(problems));
  return {
    id: id as string,
    title: title as string,
    folder: folder as string | null,
    active: active as boolean,
    webflow: webflow as boolean,
    settings: settings,
    tags,
    recipients,
    documents,
  };
}

function tagDefinitions(given: unknown, problems: FailureDetail[]): TagDefinition[] {
  if (given === undefined) return [];
  if (!Array.isArray(given)) {
    problems.push({
      field: 'tags',
      message: 'must be an array of {tag, type, value?, name?, _id?}',
    });
    return [];
  }
  if (given.length > MAX_FORM_TAGS)
    problems.push({ field: 'tags', message: `must have at most ${MAX_FORM_TAGS} tags` });
  const out: TagDefinition[] = [];
  const seen = new Map<string, number>();
  for (const [i, t] of given.entries()) {
    const at = `tags[${i}]`;
    if (!isObject(t)) {
      problems.push({ field: at, message: 'must be an object {tag, type, value?, name?, _id?}' });
      continue;
    }
    for (const member of Object.keys(t))
      if (!TAG_MEMBERS.has(member))
        problems.push({ field: `${at}.${member}`, message: 'unknown field' });
    const before = problems.length;
    const tag = typeof t.tag === 'string' ? normalizeTagName(t.tag) : '';
    if (tag === '')
      problems.push({
        field: `${at}.tag`,
        message: 'is required: the tag as the templates write it',
      });
    else if (seen.has(tag))
      problems.push({
        field: `${at}.tag`,
        message: `defines "${tag}" again (tags[${seen.get(tag)}] did)`,
      });
    else seen.set(tag, i);
    const type = t.type;
    if (typeof type !== 'string' || !(FORM_FILE_TAG_TYPES as readonly string[]).includes(type))
      problems.push({
        field: `${at}.type`,
        message: `must be one of ${FORM_FILE_TAG_TYPES.join(', ')}${type === 'list' ? ' (a list cannot be described by a TagDefinition)' : ''}`,
      });
    for (const member of ['_id', 'name'] as const)
      if (t[member] !== undefined && (typeof t[member] !== 'string' || t[member] === ''))
        problems.push({ field: `${at}.${member}`, message: 'must be a non-empty string' });
    const value = t.value ?? null;
    const valueProblem = defaultProblem(value, type);
    if (valueProblem) problems.push({ field: `${at}.value`, message: valueProblem });
    const choices = t.choices;
    if (choices !== undefined) {
      const problem =
        type === 'text' ? choicesProblem(choices, value) : 'only a "text" tag may have choices';
      if (problem) problems.push({ field: `${at}.choices`, message: problem });
    }
    if (problems.length > before) continue;
    // A kind is a text tag to the templates: the case fills it as text.
    const kind = (QUESTION_KINDS as readonly string[]).includes(type as string)
      ? (type as QuestionKind)
      : undefined;
    out.push({
      _id: (t._id as string | undefined) ?? tag,
      name: (t.name as string | undefined) ?? tag,
      tag,
      value: value as TagDefinition['value'],
      type: kind ? 'text' : (type as FormTagType),
      ...(kind ? { kind } : {}),
      ...(choices !== undefined ? { choices: choices as string[] } : {}),
    });
  }
  return out;
}

/** A default must be a value of its type, as submit would send it (fill parses it then). */
function defaultProblem(value: unknown, type: unknown): string | undefined {
  if (value === null) return undefined;
  if (type === 'boolean')
    return typeof value === 'boolean' ? undefined : 'must be true, false or null (no default)';
  if (type === 'number')
    return typeof value === 'number' || typeof value === 'string'
      ? undefined
      : 'must be a number (or its text), or null (no default)';
  // A CPR number is personal: the form, which every member reads, never holds one.
  if (type === 'cpr') return 'must be null: a "cpr" question has no default';
  if (type === 'text' || type === 'date' || type === 'email' || type === 'phone')
    return typeof value === 'string' ? undefined : 'must be a string, or null (no default)';
  return undefined;
}

function presetRecipients(given: unknown, problems: FailureDetail[]): V2Recipient[] {
  if (given === undefined) return [];
  if (!Array.isArray(given)) {
    problems.push({ field: 'recipients', message: 'must be an array of v2 recipients' });
    return [];
  }
  if (given.length > MAX_FORM_RECIPIENTS)
    problems.push({
      field: 'recipients',
      message: `must have at most ${MAX_FORM_RECIPIENTS} recipients`,
    });
  for (const [i, r] of given.entries()) {
    problems.push(...checkRecipient(r, `recipients[${i}]`));
    // A form is configuration, read back by GET .../get: no personal number belongs in it.
    if (isObject(r) && r.cpr !== undefined)
      problems.push({
        field: `recipients[${i}].cpr`,
        message:
          'is not kept in a form: a CPR number is given on submit, and stored only encrypted',
      });
  }
  return given as V2Recipient[];
}

function formDocuments(given: unknown, problems: FailureDetail[]): FormFileDocument[] {
  if (given === undefined) {
    problems.push({
      field: 'documents',
      message: 'is required: [{name, file}], a .docx or .pdf each',
    });
    return [];
  }
  if (!Array.isArray(given) || given.length === 0) {
    problems.push({ field: 'documents', message: 'must be a non-empty array of {name, file}' });
    return [];
  }
  if (given.length > MAX_FORM_DOCUMENTS)
    problems.push({
      field: 'documents',
      message: `must have at most ${MAX_FORM_DOCUMENTS} documents`,
    });
  const out: FormFileDocument[] = [];
  for (const [i, d] of given.entries()) {
    const at = `documents[${i}]`;
    if (!isObject(d)) {
      problems.push({ field: at, message: 'must be an object {name, file}' });
      continue;
    }
    const before = problems.length;
    for (const member of Object.keys(d))
      if (!DOCUMENT_MEMBERS.has(member))
        problems.push({ field: `${at}.${member}`, message: 'unknown field' });
    if (typeof d.name !== 'string' || d.name.trim() === '')
      problems.push({
        field: `${at}.name`,
        message: 'is required: the document name a signer sees',
      });
    if (typeof d.file !== 'string' || d.file.trim() === '')
      problems.push({
        field: `${at}.file`,
        message: 'is required: a .docx or .pdf in the form folder',
      });
    const { name, file, ...flags } = d;
    problems.push(...checkFlags(flags, at));
    if (problems.length > before) continue;
    out.push({ ...(flags as FormDocumentFlags), name: name as string, file: file as string });
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
