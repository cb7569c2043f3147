import type { DashboardPages } from '../pages/index.js';
import { secondFactorPages } from './second-factor-pages.js';
import { ssoPages } from './sso-pages.js';
import { companiesPages } from './companies-pages.js';
import { confirmPages } from './confirm-pages.js';
import { invitationPages } from './invitation-pages.js';
import { loginPages } from './login-pages.js';
import { passwordPages } from './password-pages.js';
import { registerPages } from './register-pages.js';

/**
 * Every group of account pages, one line each (sign-up, log-in, password reset, invitation,
 * second factor, single sign-on). A new group is a file beside this one and one line here.
 */
export const ACCOUNT_PAGES: readonly DashboardPages[] = [
  secondFactorPages,
  ssoPages,
  registerPages,
  confirmPages,
  loginPages,
  passwordPages,
  invitationPages,
  companiesPages,
];
