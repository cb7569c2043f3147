import { DEFAULT_MAX_CHANGED, DEFAULT_TOLERANCE } from '../../formats/raster/index.js';

/**
 * 50 dpi: a line of 11-point text is 7 pixels high, enough to see any line move, while a grey
 * A4 page weighs about 25 KB, so a library of a hundred pages adds 2.5 MB to the repository.
 */
export const SNAPSHOT_DPI = 50;

/**
 * A changed page's diff and actual images are drawn again at twice the snapshots' resolution
 * (11-point text 15 pixels high, which reads), only for the pages that failed.
 */
export const DIFF_DPI = 2 * SNAPSHOT_DPI;

export interface CheckSettings {
  /** Record snapshots instead of comparing with them (what differs, and what is missing). */
  update: boolean;
  /** Per-pixel colour tolerance, 0 to 1. @defaultValue DEFAULT_TOLERANCE */
  tolerance: number;
  /** Share of a page's pixels that may change, 0 to 1. @defaultValue DEFAULT_MAX_CHANGED */
  maxChanged: number;
  /** Where diff images and the text as it is now go: `<diffDir>/<template>/<fixture>...`. */
  diffDir: string;
}

export const DEFAULT_CHECK_SETTINGS: Omit<CheckSettings, 'diffDir'> = {
  update: false,
  tolerance: DEFAULT_TOLERANCE,
  maxChanged: DEFAULT_MAX_CHANGED,
};
