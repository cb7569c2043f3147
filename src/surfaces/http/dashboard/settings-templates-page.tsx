import type { MessageTemplate } from '../../../service/companies/index.js';
import { Layout, Notice, fill, type PageContext } from '../pages/index.js';
import { SettingsNav } from './settings-nav.js';

/** `/dashboard/settings/templates` (admins): the company's message templates. */
export function SettingsTemplatesPage({
  page,
  templates,
  notice,
}: {
  page: PageContext;
  templates: readonly MessageTemplate[];
  notice?: { kind: 'done' | 'problem'; text: string } | undefined;
}) {
  const w = page.words.settings;
  return (
    <Layout page={page} title={w.templates} section="settings">
      <SettingsNav page={page} current="templates" />
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <p>{w.templatesIntro}</p>
      <p>
        <a class="button" href="/dashboard/settings/templates/new">
          {w.newTemplate}
        </a>
      </p>
      {templates.length === 0 ? <p>{w.noTemplates}</p> : null}
      <ul class="settings-list">
        {templates.map((template) => (
          <li class="card">
            <h2 class="settings-item-title">{template.name ?? template.id}</h2>
            <p>
              {w.templateId}: <code>{template.id}</code>
            </p>
            <p>
              {w.subject}: {template.subject}
            </p>
            <p>
              <a href={`/dashboard/settings/templates/${encodeURIComponent(template.id)}`}>
                {w.edit}
                <span class="visually-hidden">{`: ${fill(w.editTemplate, { id: template.id })}`}</span>
              </a>
            </p>
          </li>
        ))}
      </ul>
    </Layout>
  );
}
