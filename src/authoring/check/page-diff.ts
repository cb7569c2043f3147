import { rasterizePdf, readableDiff, type ImageComparison } from '../../formats/raster/index.js';
import { DIFF_DPI, SNAPSHOT_DPI } from './check-settings.js';
import { writeSnapshot } from './snapshot-files.js';

export interface ChangedPage {
  comparison: ImageComparison;
  /** The snapshot image, at SNAPSHOT_DPI. */
  expected: Buffer;
  /** The rendered PDF, from which the page is drawn again at DIFF_DPI. */
  pdf: Buffer;
  page: number;
  /** The fixture's files under the diff folder, without their endings. */
  diffBase: string;
}

/**
 * Writes `<diffBase>.p<N>.actual.png` (the page as it renders now) and `.diff.png` at DIFF_DPI,
 * so that an author can read them: the snapshot exists only at SNAPSHOT_DPI, so the diff shows
 * the new ink drawn at DIFF_DPI and the old ink scaled up. A page whose size changed gets
 * pixelmatch's own diff at SNAPSHOT_DPI: there is no common page to draw on. Returns the diff's
 * path.
 */
export async function writePageDiff(changed: ChangedPage): Promise<string> {
  const { comparison, page, diffBase } = changed;
  const [large] = await rasterizePdf(changed.pdf, {
    dpi: DIFF_DPI,
    firstPage: page,
    lastPage: page,
  });
  if (!large) throw new Error(`pdftoppm drew no page ${page}`);
  const diff = `${diffBase}.p${page}.diff.png`;
  await writeSnapshot(
    diff,
    comparison.sizeChanged
      ? comparison.diff
      : readableDiff({
          comparison,
          expected: changed.expected,
          actualLarge: large,
          scale: DIFF_DPI / SNAPSHOT_DPI,
        }),
  );
  await writeSnapshot(`${diffBase}.p${page}.actual.png`, large);
  return diff;
}
