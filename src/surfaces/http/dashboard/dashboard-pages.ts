import type { DashboardPages } from '../pages/index.js';
import { homePages } from './home-pages.js';
import { membersPages } from './members-pages.js';
import { settingsPages } from './settings-pages.js';
import { keysPages } from './keys-routes.js';
import { webhooksPages } from './webhooks-routes.js';
import { securityPages } from './security-pages.js';
import { accountSettingsPages } from './account-settings-pages.js';
import { casesListPages } from './cases-list-pages.js';
import { casePages } from './case-pages.js';
import { newCasePages } from './new-case-pages.js';
import { placesPages } from './places-pages.js';
import { creditsPages } from './credits-pages.js';
import { flowsPages } from './flows-pages.js';
import { formsSettingsPages } from './forms-settings-pages.js';

/**
 * Every group of dashboard pages, one line each (keys, webhooks, members, settings, ...). A new
 * group is a file beside this one exporting its registration, and one line here.
 */
export const DASHBOARD_PAGES: readonly DashboardPages[] = [
  homePages,
  membersPages,
  settingsPages,
  keysPages,
  webhooksPages,
  securityPages,
  accountSettingsPages,
  casesListPages,
  casePages,
  newCasePages,
  placesPages,
  creditsPages,
  flowsPages,
  formsSettingsPages,
];
