import type { PagesServer, TestMember } from './pages-stack.js';

/**
 * A member's browser over fetch: their session cookie and the CSRF cookie and token a page of
 * theirs gives, so that a test can GET pages and POST forms as the browser would (same Origin).
 */
export interface DashboardBrowser {
  get(path: string): Promise<{ status: number; html: string; location: string | null }>;
  /** Posts a form (url-encoded, or multipart when `body` is FormData) with the CSRF token. */
  post(
    path: string,
    body: Record<string, string> | FormData,
  ): Promise<{ status: number; html: string; location: string | null; cookies: string[] }>;
}

export async function dashboardBrowser(
  server: PagesServer,
  member: TestMember,
): Promise<DashboardBrowser> {
  const jar = new Map<string, string>([[member.cookie.name, member.cookie.value]]);
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
  };
  let token = '';
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, {
      headers: { cookie: cookieHeader(), 'accept-language': 'en' },
      redirect: 'manual',
    });
    keep(res);
    const html = await res.text();
    token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? token;
    return { status: res.status, html, location: res.headers.get('location') };
  };
  await get('/dashboard');
  return {
    get,
    async post(path, body) {
      let payload: string | FormData;
      const headers: Record<string, string> = {
        cookie: cookieHeader(),
        origin: server.url,
        'accept-language': 'en',
      };
      if (body instanceof FormData) {
        body.set('_csrf', token);
        payload = body;
      } else {
        payload = new URLSearchParams({ ...body, _csrf: token }).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers,
        body: payload,
        redirect: 'manual',
      });
      keep(res);
      return {
        status: res.status,
        html: await res.text(),
        location: res.headers.get('location'),
        cookies: res.headers.getSetCookie(),
      };
    },
  };
}
