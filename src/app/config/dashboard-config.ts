import { parseDuration } from '../../base/util/index.js';
import type { LoginOidcConfig } from '../../service/accounts/index.js';
import { loginOidcConfigFrom } from './login-oidc-config.js';

/** The dashboard's accounts and sessions (issue 33), read with the rest of the configuration. */
export interface DashboardConfig {
  /** `DOCPIPE_SIGNUP`: `on` lets anyone sign a company up at `/user/register`; `off` leaves it to the operator. @defaultValue 'on' */
  signup: boolean;
  /** `DOCPIPE_SESSION_IDLE`: a dashboard session ends after this long without a request. @defaultValue '12h' */
  sessionIdleMs: number;
  /** `DOCPIPE_SESSION_MAX`: and this long after its log-in, however active. @defaultValue '14d' */
  sessionMaxMs: number;
  /**
   * `DOCPIPE_LOGIN_ATTEMPTS_PER_MINUTE`: failed log-ins a minute per client address; past them
   * the address waits out its minute; 0 is off. @defaultValue 10
   */
  loginAttemptsPerMinute: number;
  /**
   * `DOCPIPE_LOGIN_FAILURES_PER_ACCOUNT`: failed log-ins of one e-mail address within 15
   * minutes, from anywhere, before that account waits out the 15 minutes; 0 is off.
   * @defaultValue 10
   */
  loginFailuresPerAccount: number;
  /** `DOCPIPE_SIGNUPS_PER_HOUR`: sign-ups an hour per client address; 0 is off. @defaultValue 5 */
  signupsPerHour: number;
  /** `DOCPIPE_LOGIN_OIDC_<NAME>_*`: single sign-on providers for companies' e-mail domains. @defaultValue none */
  loginOidc: LoginOidcConfig;
}

export const DEFAULT_DASHBOARD = { sessionIdle: '12h', sessionMax: '14d' } as const;

export function dashboardConfigFrom(
  env: NodeJS.ProcessEnv,
  count: (name: string, fallback: number) => number,
  problems: string[],
): DashboardConfig {
  const signup = (env.DOCPIPE_SIGNUP || 'on').toLowerCase();
  if (signup !== 'on' && signup !== 'off')
    problems.push(`DOCPIPE_SIGNUP must be on or off (got "${env.DOCPIPE_SIGNUP}")`);
  const duration = (name: string, fallback: string): number => {
    try {
      return parseDuration(env[name] || fallback);
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message}`);
      return parseDuration(fallback);
    }
  };
  const sessionIdleMs = duration('DOCPIPE_SESSION_IDLE', DEFAULT_DASHBOARD.sessionIdle);
  const sessionMaxMs = duration('DOCPIPE_SESSION_MAX', DEFAULT_DASHBOARD.sessionMax);
  if (sessionIdleMs > sessionMaxMs)
    problems.push('DOCPIPE_SESSION_IDLE must not be longer than DOCPIPE_SESSION_MAX');
  return {
    signup: signup !== 'off',
    sessionIdleMs,
    sessionMaxMs,
    loginAttemptsPerMinute: count('DOCPIPE_LOGIN_ATTEMPTS_PER_MINUTE', 10),
    loginFailuresPerAccount: count('DOCPIPE_LOGIN_FAILURES_PER_ACCOUNT', 10),
    signupsPerHour: count('DOCPIPE_SIGNUPS_PER_HOUR', 5),
    loginOidc: loginOidcConfigFrom(env, problems),
  };
}
