import type { FormRecord, FormView } from './form-types.js';

/**
 * spec 2.1's Form as GET .../forms/{form_id}/get answers it: the form's members, its folder by
 * name (the company's default folder's, `defaultFolder`, when the form names none), and of each
 * document its name, kind and v2 flags. Never a storage key, a hash or a file path: those are
 * the service's, not the caller's.
 */
export function formView(form: FormRecord, defaultFolder: string): FormView {
  return {
    _id: form.id,
    companyId: form.company,
    folder: form.folder ?? defaultFolder,
    active: form.active,
    title: form.title,
    settings: form.settings,
    tags: form.tags,
    recipients: form.recipients,
    documents: form.documents.map((d) => ({
      name: d.name,
      type: d.kind,
      ...(d.signObligated !== undefined ? { signObligated: d.signObligated } : {}),
      ...(d.documentMustBeRead !== undefined ? { documentMustBeRead: d.documentMustBeRead } : {}),
      ...(d.signatories !== undefined ? { signatories: d.signatories } : {}),
    })),
    createdAt: form.createdAt.toISOString(),
    updatedAt: form.updatedAt.toISOString(),
  };
}
