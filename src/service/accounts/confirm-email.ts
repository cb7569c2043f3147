import type { AccountDeps } from './account-deps.js';
import { LoginLinks, type LinkState } from './login-links.js';
import { LoginRepository } from './login-repository.js';

/**
 * `/user/confirm/{token}`: the address of the link's login is confirmed. A used or expired link
 * says so (the page then offers a new one).
 */
export async function confirmEmail(deps: AccountDeps, token: string): Promise<LinkState> {
  const taken = await new LoginLinks(deps.db).take(token, 'confirm');
  if (taken.state === 'valid' && taken.link.loginId !== null)
    await new LoginRepository(deps.db).confirmEmail(taken.link.loginId);
  return taken;
}
