import { isFailureSlug } from '../errors/index.js';

/**
 * Label values are kept to small fixed sets, so that a series count never grows with traffic:
 * never a document name, a job or key id, a company or a URL. Anything outside a set is counted
 * under one catch-all value instead of a new series.
 */

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** An HTTP method, or 'OTHER' for any a client invents. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/**
 * A route's pattern as the router matched it (`/v3/api/documents/:id`), never the URL; requests
 * that matched no route share one value, since their URLs are whatever a client sent.
 */
export function routeLabel(pattern: string | undefined): string {
  return pattern === undefined || pattern === '' ? 'unmatched' : pattern;
}

/** An HTTP status as a three-digit string; a nonsense one is 'other'. */
export function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : 'other';
}

/** A failure slug of the registry, 'internal' for a failure docpipe could not name, else 'other'. */
export function slugLabel(slug: string): string {
  return isFailureSlug(slug) || slug === 'internal' ? slug : 'other';
}

/** A render step's name: the pipeline's names are lower-case words; anything else is 'other'. */
export function stepLabel(step: string): string {
  return /^[a-z]{1,20}$/.test(step) ? step : 'other';
}
