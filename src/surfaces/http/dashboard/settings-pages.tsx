import type { DashboardPages } from '../pages/index.js';
import { settingsCompanyPages } from './settings-company-pages.js';
import { settingsFoldersPages } from './settings-folders-pages.js';
import { settingsPresetsPages } from './settings-presets-pages.js';
import { settingsTemplatesPages } from './settings-templates-pages.js';

/** `/dashboard/settings` and its pages (admins): the company, folders, presets and message templates. */
export const settingsPages: DashboardPages = async (scope, options) => {
  await settingsCompanyPages(scope, options);
  await settingsFoldersPages(scope, options);
  await settingsPresetsPages(scope, options);
  await settingsTemplatesPages(scope, options);
};
