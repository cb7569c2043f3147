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
  /**
   * The signer's place in a case's `recipients[]`, counted from 1: the block holds the anchors
   * `{sign:N}`, `{name:N}` and `{date:N}` (docs/signing.md#anchors), where the sealed document
   * shows that recipient's signature, name and signing date. Absent for a block inside a section
   * (a witness shown only sometimes), which cannot hold anchors: it keeps its empty line.
   */
  recipient?: number;
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
 * on one page and the name on the next. A signer with a `recipient` has anchors: the sign place
 * is the space above the line (a `sign` marker needs 172.8 pt, and a block is 209 pt wide), the
 * recipient's name follows the caption, and the signing date starts the date line.
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
  const anchor = (kind: 'sign' | 'name' | 'date') =>
    signer.recipient === undefined
      ? []
      : [new TextRun(`${look.delimiters[0]}${kind}:${signer.recipient}${look.delimiters[1]}`)];
  return new TableCell({
    width: { size: BLOCK, type: WidthType.DXA },
    children: [
      new Paragraph({ style: 'SignatureLabel', children: runs(signer.role, look.delimiters) }),
      // The sign marker's line (31.2 pt) is the room to sign, in place of the line's spacing.
      ...(signer.recipient === undefined
        ? []
        : [new Paragraph({ style: 'SignaturePlace', children: anchor('sign') })]),
      new Paragraph({
        style: 'SignatureLine',
        ...(signer.recipient === undefined ? {} : { spacing: { before: 0 } }),
        border: { top: { style: BorderStyle.SINGLE, size: 6, color: '7F7F7F', space: 4 } },
        children: [
          new TextRun(signer.recipient === undefined ? words.signature : `${words.signature}  `),
          ...anchor('name'),
        ],
      }),
      text(`${words.name}: ${signer.name}`),
      ...(signer.title ? [text(`${words.title}: ${signer.title}`)] : []),
      ...(signer.extra ?? []).map(text),
      new Paragraph({
        style: 'SignatureText',
        tabStops: [{ type: TabStopType.RIGHT, position: BLOCK, leader: LeaderType.UNDERSCORE }],
        children: [
          new TextRun(`${words.date}: `),
          ...anchor('date'),
          new TextRun({ children: [new Tab()] }),
        ],
      }),
    ],
  });
}

/**
 * One signature row per member of a list (`{#members}...{/members}` across the row's cells):
 * board members, joint tenants. The row is tall enough to sign in; its lower rule is the line.
 * It holds no anchors: the loop would repeat them, and an anchor is one place for one signer
 * (docs/signing.md#anchors). The members sign as the recipients after those with blocks, and
 * their signatures are on the signature page docpipe adds at sealing.
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
