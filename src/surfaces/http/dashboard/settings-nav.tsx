import type { PageContext } from '../pages/index.js';

/** The settings' own pages, each a link; the current one marked for screen readers too. */
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
            <a href={href} aria-current={tab === current ? 'page' : undefined}>
              {label[tab]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
