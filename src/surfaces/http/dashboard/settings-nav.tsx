import type { PageContext } from '../pages/index.js';

/** The settings' own pages, each a link; the current one bold and marked for screen readers. */
export type SettingsTab = 'company' | 'folders' | 'presets' | 'templates' | 'forms';

const TABS: readonly { tab: SettingsTab; href: string }[] = [
  { tab: 'company', href: '/dashboard/settings' },
  { tab: 'folders', href: '/dashboard/settings/folders' },
  { tab: 'presets', href: '/dashboard/settings/presets' },
  { tab: 'templates', href: '/dashboard/settings/templates' },
  { tab: 'forms', href: '/dashboard/settings/forms' },
];

export function SettingsNav({ page, current }: { page: PageContext; current: SettingsTab }) {
  const w = page.words.settings;
  const label: Record<SettingsTab, string> = {
    company: w.companyTab,
    folders: w.foldersTab,
    presets: w.presetsTab,
    templates: w.templatesTab,
    forms: page.words.flows.formsTab,
  };
  return (
    <nav class="settings-nav" aria-label={w.pages}>
      <ul>
        {TABS.map(({ tab, href }) => (
          <li>
            {tab === current ? (
              // Bold as well as announced: the stylesheet gives this nav no current-tab look.
              <a href={href} aria-current="page">
                <strong>{label[tab]}</strong>
              </a>
            ) : (
              <a href={href}>{label[tab]}</a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
