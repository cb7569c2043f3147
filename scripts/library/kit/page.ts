import {
  BorderStyle,
  Footer,
  Header,
  PageNumber,
  Paragraph,
  Tab,
  TabStopType,
  TextRun,
  type ISectionPropertiesOptions,
} from 'docx';
import { PAGE, TEXT_WIDTH, type Look } from './look.js';
import { runs } from './text.js';
import { WORDS } from './words.js';

const rightTab = [{ type: TabStopType.RIGHT, position: TEXT_WIDTH }];

/** The page header: the company (often a tag) on the left, the document's title on the right. */
export function pageHeader(look: Look, left: string, right: string): Header {
  return new Header({
    children: [
      new Paragraph({
        style: 'Header',
        tabStops: rightTab,
        border: { bottom: { style: BorderStyle.SINGLE, size: 4, color: 'BFBFBF', space: 4 } },
        children: [
          ...runs(left, look.delimiters, { bold: true }),
          new TextRun({ children: [new Tab()] }),
          ...runs(right, look.delimiters),
        ],
      }),
    ],
  });
}

/**
 * The page footer: a reference on the left and "Side X af Y" / "Page X of Y" on the right, from
 * PAGE and NUMPAGES fields, so the numbers are right however the values reflow the text.
 */
export function pageFooter(look: Look, left: string): Footer {
  const words = WORDS[look.lang];
  return new Footer({
    children: [
      new Paragraph({
        style: 'Footer',
        tabStops: rightTab,
        children: [
          ...runs(left, look.delimiters),
          new TextRun({
            children: [
              new Tab(),
              `${words.page} `,
              PageNumber.CURRENT,
              ` ${words.of} `,
              PageNumber.TOTAL_PAGES,
            ],
          }),
        ],
      }),
    ],
  });
}

export const PAGE_SETUP: ISectionPropertiesOptions = {
  page: {
    size: { width: PAGE.width, height: PAGE.height },
    margin: {
      top: PAGE.top,
      bottom: PAGE.bottom,
      left: PAGE.side,
      right: PAGE.side,
      header: PAGE.header,
      footer: PAGE.footer,
    },
  },
};
