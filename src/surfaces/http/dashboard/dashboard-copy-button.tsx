import { createElement } from 'preact';
import type { PageContext } from '../pages/index.js';

/**
 * `<copy-button for=...>`: the custom element of assets/pages/app.js that copies the text of the
 * element `target` names (JSX's typed elements do not list it). Without script it shows its
 * label only; the text stays selectable.
 */
export function CopyButton({
  page,
  target,
  label,
}: {
  page: PageContext;
  target: string;
  /** What the button says; "Copy" unless told. */
  label?: string;
}) {
  return createElement(
    'copy-button',
    { for: target, 'data-copied': page.words.common.copied },
    label ?? page.words.common.copy,
  );
}
