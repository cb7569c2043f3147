import type { RenderNotice } from '../../render/pipeline/index.js';

/**
 * The notices an author is shown in check's table and on preview's stderr. A metric-compatible
 * substitution (Calibri drawn with Carlito, Arial with Liberation Sans) is what every Linux
 * render does and breaks lines as Word does: it is left out so the rest stands out, and kept in
 * `--json`'s `notices`. (`docpipe render` prints every notice: it reports one document's render.)
 */
export function shownNotices(notices: readonly RenderNotice[]): RenderNotice[] {
  return notices.filter((n) => !(n.code === 'font-substituted' && n.metricCompatible));
}
