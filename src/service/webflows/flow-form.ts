import type { V2CaseSettings, V2Recipient } from '../cases/index.js';
import type { FormRecord, StoredFormDocument, TagDefinition } from '../forms/index.js';

/**
 * The form a flow keeps (`webflows.form`), as it was when the flow was made, so that a re-import
 * of the form changes no running flow. Its tags are the questions; a tag the request prefilled
 * has that value as its default (not as an answer: progress starts at nothing answered). The
 * documents keep the form's template keys as they were.
 */
export interface FlowForm {
  title: string;
  folder: string | null;
  settings: V2CaseSettings;
  tags: TagDefinition[];
  recipients: V2Recipient[];
  documents: StoredFormDocument[];
}

/** The flow's copy of the form, with the prefilled values (tag to value) as defaults. */
export function flowFormOf(
  form: FormRecord,
  prefill: ReadonlyMap<string, TagDefinition['value']>,
): FlowForm {
  return {
    title: form.title,
    folder: form.folder,
    settings: form.settings,
    tags: form.tags.map((t) => (prefill.has(t.tag) ? { ...t, value: prefill.get(t.tag)! } : t)),
    recipients: form.recipients,
    documents: form.documents,
  };
}
