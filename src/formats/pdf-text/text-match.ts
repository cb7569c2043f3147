/**
 * A rectangle in PDF points in the page's default user space (as its content draws in it), y
 * upwards, before the page's /Rotate is applied. For a MediaBox [0 0 w h], the usual one, the
 * origin is the page's lower-left corner; for one that starts elsewhere, subtract its corner.
 */
export interface PdfRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Text found in a PDF's text layer. */
export interface TextMatch {
  /** 1-based. */
  page: number;
  /** The matched text. */
  text: string;
  /**
   * The glyph box: x from the first glyph's origin over the sum of the advances (character and
   * word spacing and TJ offsets included); y from the baseline plus the descent to the ascent
   * (from the font descriptor, readers' defaults when it has none), all through the text matrix
   * and the CTM. For turned text, the bound of the turned boxes.
   */
  rect: PdfRect;
  /**
   * True when the match covers whole text-showing operators of the page's own content exactly:
   * removing them takes nothing else off the page.
   */
  removable: boolean;
}
