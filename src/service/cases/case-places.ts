import { Type, type Static } from 'typebox';
import type { FailureDetail } from '../../base/errors/index.js';
import {
  ANCHOR_KINDS,
  MAX_RECIPIENT,
  MIN_RECIPIENT,
  insidePage,
  placesOverlap,
  type PageSize,
  type SignaturePlace,
} from '../../document/anchors/index.js';
import { openPdf } from '../../formats/pades/index.js';

/**
 * Signature places a sender gives (v3 `documents[i].places`, the dashboard's places editor):
 * exactly the stored shape of an anchor's place (`SignaturePlace`), so that sealing stamps them
 * as it stamps anchors. `recipient` is the recipient's 1-based position in the case's
 * `recipients[]`, as an anchor names it (`{{sign:1}}`), and `kind` is an anchor's kind word.
 */

/** Most places one document may carry: four kinds for every recipient a case may have, twice. */
export const MAX_DOCUMENT_PLACES = 2_000;

/** Smallest side of a given place, in points: a box a mark can be drawn in. */
export const MIN_PLACE_SIDE = 4;

export const CasePlaceSchema = Type.Object(
  {
    recipient: Type.Integer({
      minimum: MIN_RECIPIENT,
      maximum: MAX_RECIPIENT,
      description:
        "the recipient's 1-based position in the case's recipients, as an anchor names it (sign:1 is the first)",
    }),
    kind: Type.Enum([...ANCHOR_KINDS], {
      description: 'what is drawn there: sign (the signature), initials, name, date (signed)',
    }),
    page: Type.Integer({ minimum: 1, description: 'the page, from 1' }),
    rect: Type.Object(
      {
        x: Type.Number({ description: 'from the left edge of the page (its MediaBox), in points' }),
        y: Type.Number({ description: 'from the bottom edge of the page, upwards, in points' }),
        width: Type.Number({ minimum: MIN_PLACE_SIDE }),
        height: Type.Number({ minimum: MIN_PLACE_SIDE }),
      },
      {
        additionalProperties: false,
        description: 'the box in PDF points (1/72 inch), origin at the lower-left of the page',
      },
    ),
  },
  { additionalProperties: false },
);

export const CasePlacesSchema = Type.Array(CasePlaceSchema, {
  maxItems: MAX_DOCUMENT_PLACES,
  description:
    "where the recipients sign on this document; given, they replace the document's anchors and text tags",
});

export type CasePlace = Static<typeof CasePlaceSchema>;

/** What the check needs of a recipient: its name for the message, whether it signs. */
export interface PlaceRecipient {
  name: string;
  signing?: boolean;
}

/** The stored form of a given place (the same members, copied so nothing else rides along). */
export function storedPlace(p: CasePlace): SignaturePlace {
  return {
    kind: p.kind,
    recipient: p.recipient,
    page: p.page,
    rect: { x: p.rect.x, y: p.rect.y, width: p.rect.width, height: p.rect.height },
  };
}

/** Each page's size, from the PDF's MediaBoxes. */
export async function pageSizesOf(pdf: Uint8Array): Promise<PageSize[]> {
  const doc = await openPdf(pdf);
  return doc.getPages().map((page) => {
    const box = page.getMediaBox();
    return { width: box.width, height: box.height };
  });
}

/**
 * Everything wrong with the places given for one document, each at its path
 * (`documents[0].places[1].page`): a page the document does not have, a box outside its page,
 * two boxes on a page that overlap, a recipient the case does not have or who only receives a
 * copy. The wording follows the anchors' problems (src/document/anchors/place-checks.ts).
 */
export function givenPlaceProblems(
  places: readonly SignaturePlace[],
  pages: readonly PageSize[],
  recipients: readonly PlaceRecipient[],
  field: string,
): FailureDetail[] {
  const problems: FailureDetail[] = [];
  const at = (i: number, member?: string) => `${field}.places[${i}]${member ? `.${member}` : ''}`;
  for (const [i, p] of places.entries()) {
    const recipient = recipients[p.recipient - 1];
    if (!recipient)
      problems.push({
        field: at(i, 'recipient'),
        message: `names recipient ${p.recipient}, but the case has ${recipients.length}; add the recipient or change the place`,
      });
    else if (recipient.signing === false)
      problems.push({
        field: at(i, 'recipient'),
        message: `names recipient ${p.recipient} (${recipient.name}), who receives a copy and does not sign; set signing or remove the place`,
      });
    const page = pages[p.page - 1];
    if (!page) {
      problems.push({
        field: at(i, 'page'),
        message: `is page ${p.page}, but the document has ${pages.length} page${pages.length === 1 ? '' : 's'}`,
      });
      continue;
    }
    if (!insidePage(p.rect, page))
      problems.push({
        field: at(i, 'rect'),
        message: `is outside page ${p.page}: the place (x ${round(p.rect.x)}, y ${round(p.rect.y)}, ${round(p.rect.width)} × ${round(p.rect.height)} pt) does not fit in the page's ${round(page.width)} × ${round(page.height)} pt; move it inside the page`,
      });
  }
  for (let i = 0; i < places.length; i++)
    for (let j = i + 1; j < places.length; j++) {
      const [a, b] = [places[i]!, places[j]!];
      // The anchors' rule, so that places found from anchors pass as they did at creation.
      if (a.page === b.page && placesOverlap(a.rect, b.rect))
        problems.push({
          field: at(j, 'rect'),
          message: `overlaps places[${i}] (${a.kind}:${a.recipient}) on page ${a.page}: a signer's marks would cover each other; move them apart`,
        });
    }
  return problems;
}

/**
 * The signers with no place on any document, when some document carries places: sealing would
 * put them on an appended signature page while the others sign in the text, which a sender who
 * placed signatures did not mean. A case whose documents carry no places at all signs on the
 * signature page, as before, and is fine; so is a case with a library document.
 */
export function unplacedSignerProblems(
  documents: readonly { places: readonly SignaturePlace[]; source?: string }[],
  recipients: readonly PlaceRecipient[],
): FailureDetail[] {
  // A library contract signs its list rows (the tenants) on a signature page by design: its loop
  // cannot hold anchors (issue 32), so a case with one is not held to a place for every signer.
  if (documents.some((d) => d.source === 'library')) return [];
  const placed = new Set(documents.flatMap((d) => d.places.map((p) => p.recipient)));
  if (placed.size === 0) return [];
  return recipients.flatMap((r, i) =>
    r.signing === false || placed.has(i + 1)
      ? []
      : [
          {
            field: `recipients[${i}]`,
            message: `${r.name} signs but has no place on any document; place a signature for recipient ${i + 1}`,
          },
        ],
  );
}

const round = (n: number) => Math.round(n * 10) / 10;
