import { watch } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

/**
 * A browser without a window, for the account pages' tests: it keeps cookies, sends the page's
 * CSRF token and this server's Origin with each form, and follows nothing by itself.
 */
export class PageClient {
  readonly cookies = new Map<string, string>();
  private token = '';

  constructor(
    readonly base: string,
    private readonly headers: Record<string, string> = { 'accept-language': 'en' },
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string): Promise<Answer> {
    const res = await fetch(`${this.base}${path}`, {
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), ...this.headers },
    });
    return this.answer(res);
  }

  /** Posts a form with the last page's CSRF token (GET the form's page first). */
  async post(
    path: string,
    fields: Record<string, string>,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    const res = await fetch(`${this.base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
        origin: this.base,
        ...this.headers,
        ...extra,
      },
      body: new URLSearchParams({ _csrf: this.token, ...fields }).toString(),
    });
    return this.answer(res);
  }

  private async answer(res: Response): Promise<Answer> {
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(set))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    if (token) this.token = token;
    return { status: res.status, html, location: res.headers.get('location') ?? undefined };
  }
}

export interface Answer {
  status: number;
  html: string;
  location: string | undefined;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  file: string;
}

/** Every .eml of the mail folder, parsed, oldest first. */
export async function mails(dir: string): Promise<Mail[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  const parsed: Mail[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const mail = await simpleParser(await readFile(file));
    const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    parsed.push({
      to: to?.value[0]?.address ?? '',
      subject: mail.subject ?? '',
      text: mail.text ?? '',
      file,
    });
  }
  return parsed;
}

/** The last mail to `address`, and the first link in it to `path`. */
export async function lastMailTo(
  dir: string,
  address: string,
  path: string,
): Promise<{ mail: Mail; link: string | undefined }> {
  const all = (await mails(dir)).filter((m) => m.to.toLowerCase() === address.toLowerCase());
  const mail = all.at(-1);
  if (!mail) throw new Error(`no e-mail to ${address} in ${dir}`);
  const link = new RegExp(`https?://[^\\s]*${path.replace(/\//g, '\\/')}[^\\s]*`).exec(
    mail.text,
  )?.[0];
  return { mail, link };
}

/** The path (and query) of a link, to be opened on the test's own server. */
export function pathOf(link: string | undefined): string {
  if (!link) throw new Error('the e-mail has no such link');
  const url = new URL(link);
  return url.pathname + url.search;
}

/**
 * The mails of `dir` once `ready` holds for them: read again on every change of the folder
 * (an .eml appears by a rename), so that a mail sent after a page's answer is awaited, not
 * slept for. The test's own timeout bounds the wait.
 */
export async function mailsWhen(dir: string, ready: (all: Mail[]) => boolean): Promise<Mail[]> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return new Promise<Mail[]>((resolve, reject) => {
    let settled = false;
    const watcher = watch(dir);
    const check = () => {
      mails(dir).then((all) => {
        if (settled || !ready(all)) return;
        settled = true;
        watcher.close();
        resolve(all);
      }, reject);
    };
    watcher.on('change', check);
    check();
  });
}
