import type { Page } from 'playwright-core';

/** What a page's tables are at its viewport's width, for a 360 px check. */
export interface NarrowTables {
  /** The document's width: at most the viewport's when nothing scrolls sideways. */
  documentWidth: number;
  /**
   * Every table, or the region it scrolls in, wider than its box (by its id, its region's
   * title or its class): a table that fits the page only by scrolling in a region of its own
   * still makes a person scroll sideways to read a row.
   */
  scrolling: string[];
  /** How many tables the page has, so that a check of none is not a check passed. */
  tables: number;
  /**
   * The roles Chromium's own accessibility tree gives the page's table parts (not
   * Playwright's reading of the markup): a table stacked by CSS must still be a table with
   * rows, column headers and cells for a screen reader.
   */
  roles: { table: number; row: number; columnheader: number; cell: number };
}

export async function narrowTables(page: Page): Promise<NarrowTables> {
  const measured = await page.evaluate(() => {
    const name = (e: Element) =>
      e.id ||
      e.getAttribute('aria-labelledby') ||
      e.getAttribute('aria-label') ||
      e.getAttribute('class') ||
      e.tagName;
    const boxes = Array.from(document.querySelectorAll('.table-wrap, table'));
    return {
      documentWidth: document.documentElement.scrollWidth,
      // One pixel of rounding, as a browser lays out fractions of one.
      scrolling: boxes.filter((e) => e.scrollWidth > e.clientWidth + 1).map(name),
      tables: document.querySelectorAll('table').length,
    };
  });
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value?: string }; ignored?: boolean }[];
    };
    const count = (...roles: string[]) =>
      nodes.filter((n) => !n.ignored && roles.includes(String(n.role?.value))).length;
    return {
      ...measured,
      roles: {
        table: count('table'),
        row: count('row'),
        columnheader: count('columnheader'),
        cell: count('cell', 'gridcell', 'rowheader'),
      },
    };
  } finally {
    await cdp.detach();
  }
}
