import {
  BorderStyle,
  LeaderType,
  Paragraph,
  Tab,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TabStopType,
  TextRun,
  WidthType,
} from 'docx';
import { TEXT_WIDTH, type Look } from './look.js';
import { gridTable } from './tables.js';
import { runs } from './text.js';
import { WORDS } from './words.js';

/** One party's signature block: who signs for whom. */
export interface Signer {
  /** The party, above the line: "For the Discloser", "Medarbejder". */
  role: string;
  /** The signer's name, usually a tag. */
  name: string;
  /** The signer's title or capacity, usually a tag. */
  title?: string;
  /** Further lines under the name, such as a witness's address. */
  extra?: string[];
}

const nothing = { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' };
const noBorders = {
  top: nothing,
  bottom: nothing,
  left: nothing,
  right: nothing,
  insideHorizontal: nothing,
  insideVertical: nothing,
};
/** Room between the two blocks of a row. */
const GUTTER = 680;
const BLOCK = (TEXT_WIDTH - GUTTER) / 2;
const CELL_MARGIN = 0;

/**
 * Signature blocks two to a row: the party, space to sign, a line captioned "Signature", then
 * name, title and a date line. Rows never split across pages, so a signer never finds the line
 * on one page and the name on the next.
 */
export function signatureBlocks(look: Look, signers: Signer[]): Table {
  const rows: TableRow[] = [];
  for (let i = 0; i < signers.length; i += 2) {
    const right = signers[i + 1];
    rows.push(
      new TableRow({
        cantSplit: true,
        children: [
          blockCell(look, signers[i]!),
          new TableCell({
            width: { size: GUTTER, type: WidthType.DXA },
            children: [new Paragraph('')],
          }),
          right
            ? blockCell(look, right)
            : new TableCell({
                width: { size: BLOCK, type: WidthType.DXA },
                children: [new Paragraph('')],
              }),
        ],
      }),
    );
  }
  return new Table({
    width: { size: TEXT_WIDTH, type: WidthType.DXA },
    columnWidths: [BLOCK, GUTTER, BLOCK],
    layout: TableLayoutType.FIXED,
    borders: noBorders,
    margins: { top: 0, bottom: 240, left: CELL_MARGIN, right: CELL_MARGIN },
    rows,
  });
}

function blockCell(look: Look, signer: Signer): TableCell {
  const words = WORDS[look.lang];
  const text = (markup: string) =>
    new Paragraph({ style: 'SignatureText', children: runs(markup, look.delimiters) });
  return new TableCell({
    width: { size: BLOCK, type: WidthType.DXA },
    children: [
      new Paragraph({ style: 'SignatureLabel', children: runs(signer.role, look.delimiters) }),
      new Paragraph({
        style: 'SignatureLine',
        border: { top: { style: BorderStyle.SINGLE, size: 6, color: '7F7F7F', space: 4 } },
        children: [new TextRun(words.signature)],
      }),
      text(`${words.name}: ${signer.name}`),
      ...(signer.title ? [text(`${words.title}: ${signer.title}`)] : []),
      ...(signer.extra ?? []).map(text),
      new Paragraph({
        style: 'SignatureText',
        tabStops: [{ type: TabStopType.RIGHT, position: BLOCK, leader: LeaderType.UNDERSCORE }],
        children: [new TextRun({ children: [`${words.date}: `, new Tab()] })],
      }),
    ],
  });
}

/**
 * One signature row per member of a list (`{#members}...{/members}` across the row's cells):
 * board members, joint tenants. The row is tall enough to sign in; its lower rule is the line.
 */
export function signatureRows(look: Look, loop: string, name: string, role: string): Table {
  const words = WORDS[look.lang];
  const [start, end] = look.delimiters;
  return gridTable(
    look,
    [
      { heading: words.name, share: 0.4 },
      { heading: words.signature, share: 0.38 },
      { heading: words.date, share: 0.22 },
    ],
    [[[`${start}#${loop}${end}**${name}**`, role], '', `${start}/${loop}${end}`]],
    { rowHeight: 900 },
  );
}
