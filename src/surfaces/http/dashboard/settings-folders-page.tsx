import type { Folder } from '../../../service/companies/index.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  Notice,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { SettingsNav } from './settings-nav.js';

export interface SettingsFoldersPageProps {
  page: PageContext;
  folders: readonly Folder[];
  notice?: { kind: 'done' | 'problem'; text: string } | undefined;
  /** The add form as sent, with its problems, when it was refused. */
  add?: { name: string; errors: FieldErrors } | undefined;
  /** A rename refused: the folder's id, the name sent and why. */
  rename?: { id: string; name: string; error: string } | undefined;
}

/**
 * `/dashboard/settings/folders` (admins): the company's folders, the default first, each with
 * rename, make default and delete (refused for the default and for a folder with cases); and
 * the add form.
 */
export function SettingsFoldersPage({
  page,
  folders,
  notice,
  add,
  rename,
}: SettingsFoldersPageProps) {
  const w = page.words.settings;
  return (
    <Layout page={page} title={w.folders} section="settings">
      <SettingsNav page={page} current="folders" />
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <p>{w.foldersIntro}</p>
      <ul class="settings-list">
        {folders.map((folder) => {
          const refused = rename?.id === folder.id ? rename : undefined;
          const field = `rename-${folder.id}`;
          return (
            <li class="card">
              <h2 class="settings-item-title">
                {folder.name}
                {folder.isDefault ? <span class="badge">{w.folderDefault}</span> : null}
              </h2>
              <form
                method="post"
                action={`/dashboard/settings/folders/${encodeURIComponent(folder.id)}/rename`}
                novalidate
              >
                <CsrfField page={page} />
                <div class={refused ? 'field has-error' : 'field'}>
                  <label for={`field-${field}`}>{fill(w.renameLabel, { name: folder.name })}</label>
                  {refused ? (
                    <p class="field-error" id={`field-${field}-error`}>
                      {refused.error}
                    </p>
                  ) : null}
                  <input
                    id={`field-${field}`}
                    name="name"
                    type="text"
                    value={refused ? refused.name : folder.name}
                    maxLength={200}
                    required
                    aria-invalid={refused ? 'true' : undefined}
                    aria-describedby={refused ? `field-${field}-error` : undefined}
                  />
                </div>
                <div class="actions">
                  <button type="submit" class="secondary">
                    {w.rename}
                    <span class="visually-hidden">{`: ${folder.name}`}</span>
                  </button>
                </div>
              </form>
              <div class="actions">
                {folder.isDefault ? null : (
                  <form
                    method="post"
                    action={`/dashboard/settings/folders/${encodeURIComponent(folder.id)}/default`}
                  >
                    <CsrfField page={page} />
                    <button type="submit" class="secondary">
                      {w.makeDefault}
                      <span class="visually-hidden">{`: ${folder.name}`}</span>
                    </button>
                  </form>
                )}
                {folder.isDefault ? null : (
                  <form
                    method="post"
                    action={`/dashboard/settings/folders/${encodeURIComponent(folder.id)}/delete`}
                    data-confirm={fill(w.deleteFolderConfirm, { name: folder.name })}
                  >
                    <CsrfField page={page} />
                    <button type="submit" class="danger">
                      {w.deleteFolder}
                      <span class="visually-hidden">{`: ${folder.name}`}</span>
                    </button>
                  </form>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <section class="card" aria-labelledby="add-folder">
        <h2 id="add-folder">{w.addFolder}</h2>
        <form method="post" action="/dashboard/settings/folders" novalidate>
          <CsrfField page={page} />
          {add ? <ErrorSummary page={page} errors={add.errors} /> : null}
          <Field
            name="name"
            label={w.folderName}
            value={add?.name}
            errors={add?.errors}
            required
            maxLength={200}
            autocomplete="off"
          />
          <div class="actions">
            <button type="submit">{w.addFolderButton}</button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
