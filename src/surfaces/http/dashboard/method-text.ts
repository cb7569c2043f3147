import { fill, type PageContext } from '../pages/index.js';

/**
 * A signature method in words ("Drawn signature", "eID (mitid)"), never the stored code: the
 * case page and the audit trail page name it alike.
 */
export function methodText(page: PageContext, method: string | null | undefined): string {
  const m = page.words.casePage.methods;
  if (method === null || method === undefined || method === '') return page.words.casePage.none;
  if (method === 'draw') return m.draw;
  if (method === 'typed') return m.typed;
  return fill(m.eid, { scheme: method });
}
