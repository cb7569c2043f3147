import type { Preset } from '../../../service/companies/index.js';
import { Layout, Notice, fill, type PageContext } from '../pages/index.js';
import { SettingsNav } from './settings-nav.js';

/** `/dashboard/settings/presets` (admins): the company's presets with their settings. */
export function SettingsPresetsPage({
  page,
  presets,
  notice,
}: {
  page: PageContext;
  presets: readonly Preset[];
  notice?: { kind: 'done' | 'problem'; text: string } | undefined;
}) {
  const w = page.words.settings;
  return (
    <Layout page={page} title={w.presets} section="settings">
      <SettingsNav page={page} current="presets" />
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <p>{w.presetsIntro}</p>
      <p>
        <a class="button" href="/dashboard/settings/presets/new">
          {w.newPreset}
        </a>
      </p>
      {presets.length === 0 ? <p>{w.noPresets}</p> : null}
      <ul class="settings-list">
        {presets.map((preset) => (
          <li class="card">
            <h2 class="settings-item-title">{preset.name}</h2>
            <p>
              {w.presetId}: <code>{preset.id}</code>
            </p>
            <pre tabindex={0} role="region" aria-label={fill(w.editPreset, { name: preset.name })}>
              {JSON.stringify(preset.settings, null, 2)}
            </pre>
            <p>
              <a href={`/dashboard/settings/presets/${encodeURIComponent(preset.id)}`}>
                {w.edit}
                <span class="visually-hidden">{`: ${preset.name}`}</span>
              </a>
            </p>
          </li>
        ))}
      </ul>
    </Layout>
  );
}
