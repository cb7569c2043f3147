import type { Failure } from '../../base/errors/index.js';
import type { RenderNotice } from '../../render/pipeline/index.js';
import type { PixelBox } from '../../formats/raster/index.js';

/**
 * What went wrong with a fixture:
 * - `template`: the folder cannot be checked (a broken document.json, no template file);
 * - `fixture`: its tags.json or expected.txt cannot be read;
 * - `render`: rendering failed with a typed failure (bad values, a broken template);
 * - `expected`: a line of expected.txt is not in the PDF's text;
 * - `snapshot-missing`: a snapshot was never recorded (`--update` records it);
 * - `text`: the PDF's text differs from its snapshot;
 * - `pages`: the page count differs from the recorded one (or images lie past it);
 * - `page-image`: a page looks different from its snapshot image.
 */
export type ProblemKind =
  | 'template'
  | 'fixture'
  | 'render'
  | 'expected'
  | 'snapshot-missing'
  | 'text'
  | 'pages'
  | 'page-image';

export interface CheckProblem {
  kind: ProblemKind;
  /** The whole story in words, for a person. */
  message: string;
  /** The page it is on, from 1, when it is on one. */
  page?: number;
  /** For `page-image`: the changed pixels' bounding box, at SNAPSHOT_DPI. */
  box?: PixelBox;
  /** For `page-image`: the share of the page's pixels that changed (0 to 1). */
  changed?: number;
  /** For `page-image` and `text`: the diff image, or the text as it is now, written for a look. */
  diff?: string;
  /**
   * For `page-image`: the page's text differs from the text snapshot too, whose problem (listed
   * before) says which line: read it first.
   */
  textDiffers?: boolean;
}

/** One fixture's result; `--json` prints an array of these. */
export interface FixtureOutcome {
  /** The template folder's name (the library document's id). */
  template: string;
  fixture: string;
  ok: boolean;
  /** Pages of the rendered PDF; undefined when it did not render. */
  pages?: number;
  /** Milliseconds for the fixture: render, text, pages and comparisons. */
  ms: number;
  /** Lines of expected.txt missing from the PDF's text. */
  missing: string[];
  problems: CheckProblem[];
  /** Snapshot files `--update` wrote, relative to the template folder. */
  updated: string[];
  /**
   * Snapshot files `--update` removed: pages past the end of a document that got shorter, and
   * (on the folder's first fixture) the snapshots of fixtures that are gone.
   */
  removed: string[];
  /**
   * What the renderer noticed (a font substituted, an empty page), spec 7.3's `{code, message}`
   * with their other members: worth an author's look, not a failure (the page images show what
   * they do to the layout).
   */
  notices: RenderNotice[];
  /** The typed failure when rendering failed. */
  failure?: Failure;
}
