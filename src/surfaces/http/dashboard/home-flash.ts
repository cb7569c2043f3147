import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieOptions, pageCookies } from '../pages/index.js';

/**
 * What a dashboard form says once it is done, carried across its Post/Redirect/Get: the POST
 * sets a short-lived cookie naming the text (a key of the page's words) and its values, the GET
 * after the redirect shows it once and clears it. A reload, or a link someone sends, shows
 * nothing; and only the page's own texts can be shown, filled with escaped values.
 */
export interface Flash {
  key: string;
  values: Record<string, string>;
  /** A refusal that had to redirect (a form that could not be read), shown as a problem. */
  problem?: boolean;
}

/** A flash as the page shows it: its text (unfilled), values and kind. */
export interface ShownFlash {
  text: string;
  values: Record<string, string>;
  kind: 'done' | 'problem';
}

/** Long enough to follow a redirect, short enough not to greet a later visit. */
const FLASH_SECONDS = 60;

function cookieName(publicUrl: string): string {
  return `${pageCookies(publicUrl).secure ? '__Host-' : ''}docpipe_flash`;
}

/** Sets the flash the next page shows, then redirects there (303, so the browser GETs it). */
export function redirectWithFlash(
  reply: FastifyReply,
  publicUrl: string,
  to: string,
  flash: Flash,
): FastifyReply {
  void reply.setCookie(
    cookieName(publicUrl),
    Buffer.from(JSON.stringify(flash)).toString('base64url'),
    cookieOptions(pageCookies(publicUrl), FLASH_SECONDS),
  );
  return reply.redirect(to, 303);
}

/**
 * The flash the request carries, when its key is one of `texts` (and then cleared), else
 * undefined: a cookie is the browser's to change, so only the page's own texts are shown.
 */
export function takeFlash<T extends Record<string, unknown>>(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
  texts: T,
): ShownFlash | undefined {
  const name = cookieName(publicUrl);
  const raw = request.cookies[name];
  if (raw === undefined) return undefined;
  void reply.clearCookie(name, cookieOptions(pageCookies(publicUrl)));
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { key, values, problem } = parsed as {
      key?: unknown;
      values?: unknown;
      problem?: unknown;
    };
    if (typeof key !== 'string' || !Object.hasOwn(texts, key)) return undefined;
    const text = texts[key];
    if (typeof text !== 'string') return undefined;
    const clean: Record<string, string> = {};
    if (typeof values === 'object' && values !== null)
      for (const [k, v] of Object.entries(values)) if (typeof v === 'string') clean[k] = v;
    return { text, values: clean, kind: problem === true ? 'problem' : 'done' };
  } catch {
    return undefined;
  }
}
