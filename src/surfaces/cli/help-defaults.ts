/**
 * The settings that the commands' help texts show, as their folders define them. They are written
 * here again, not imported, so that declaring the commands (which `docpipe --help` and every
 * command do first) loads none of those folders: check and preview bring the render pipeline,
 * the queue brings BullMQ. test/unit/cli-help.test.ts keeps each equal to its source.
 */
export const HELP_DEFAULTS = {
  /** authoring/check: SEARCH_DEPTH. */
  checkSearchDepth: 3,
  /** authoring/check: DEFAULT_CHECK_SETTINGS.tolerance. */
  checkTolerance: 0.1,
  /** authoring/check: DEFAULT_CHECK_SETTINGS.maxChanged. */
  checkMaxChanged: 0.0005,
  /** authoring/check: SNAPSHOT_DPI. */
  snapshotDpi: 50,
  /** authoring/check: DIFF_DPI. */
  diffDpi: 100,
  /** authoring/preview: DEFAULT_PREVIEW_DPI. */
  previewDpi: 96,
  /** formats/raster: MAX_DPI. */
  maxDpi: 600,
  /** jobs/queue: DEFAULT_CLOSE_GRACE_MS. */
  closeGraceMs: 30_000,
} as const;
