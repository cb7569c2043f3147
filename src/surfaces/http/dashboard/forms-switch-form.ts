import type { FormSwitch } from '../../../service/forms/index.js';

export const FORMS_SETTINGS_PATH = '/dashboard/settings/forms';

/** Where a form's switch is posted. */
export function formSwitchHref(id: string): string {
  return `${FORMS_SETTINGS_PATH}/${encodeURIComponent(id)}/switch`;
}

/** A switch's posted fields as the service takes them, or undefined when they are none. */
export function switchOf(body: {
  switch?: string | undefined;
  on?: string | undefined;
}): { which: FormSwitch; on: boolean } | undefined {
  const which = body.switch;
  if (which !== 'published' && which !== 'webflow') return undefined;
  if (body.on !== 'true' && body.on !== 'false') return undefined;
  return { which, on: body.on === 'true' };
}

/** The flash a changed (or unchanged) switch leaves: a key of the flows words. */
export function switchFlashKey(
  change: { which: FormSwitch; on: boolean },
  changed: boolean,
): 'publishedOn' | 'publishedOff' | 'webflowOn' | 'webflowOff' | 'unchanged' {
  if (!changed) return 'unchanged';
  if (change.which === 'published') return change.on ? 'publishedOn' : 'publishedOff';
  return change.on ? 'webflowOn' : 'webflowOff';
}
