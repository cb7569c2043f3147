import { fill, type PageContext } from '../pages/index.js';
import type { ShownLine } from './credits-overview.js';
import { When } from './home-when.js';

/** A signed count of credits as a ledger writes it: "+25", "-1", "0". */
function signed(credits: bigint): string {
  return credits > 0n ? `+${credits}` : String(credits);
}

/** What a line is about: its case (a link while it is there), signed-up company or invoice. */
function About({ page, line }: { page: PageContext; line: ShownLine }) {
  const w = page.words.credits;
  if (line.kind === 'case' && line.caseId !== null)
    return line.caseTitle === undefined ? (
      <>{w.caseGone}</>
    ) : (
      <a href={`/dashboard/cases/${line.caseId}`}>{fill(w.caseLink, { title: line.caseTitle })}</a>
    );
  if (line.kind === 'referral' && line.referredCompany !== null)
    return <>{fill(w.referredCompany, { name: line.referredName ?? line.referredCompany })}</>;
  if (line.invoiceNumber !== undefined)
    return <>{fill(w.invoiceLine, { invoice: line.invoiceNumber })}</>;
  // A correction says why in the operator's own note.
  return <>{line.note ?? ''}</>;
}

/** "Newest changes": the ledger's newest lines, each with what it is about. */
export function CreditLinesTable({
  page,
  lines,
}: {
  page: PageContext;
  lines: readonly ShownLine[];
}) {
  const w = page.words.credits;
  const kind = {
    purchase: w.kindPurchase,
    referral: w.kindReferral,
    case: w.kindCase,
    correction: w.kindCorrection,
  };
  return (
    // The table's region is the one landmark its title names: a labelled section around it
    // would be a second of the same name.
    <section>
      <h2 id="credit-lines-title">{w.linesTitle}</h2>
      {lines.length === 0 ? (
        <p>{w.noLines}</p>
      ) : (
        // At 360 px its rows stack, each cell under its column's name (app.css's .stack-table).
        <div class="table-wrap" role="region" aria-labelledby="credit-lines-title" tabindex={0}>
          <table class="credit-lines stack-table">
            <thead>
              <tr>
                <th scope="col">{w.colWhen}</th>
                <th scope="col">{w.colWhat}</th>
                <th scope="col">{w.colPaid}</th>
                <th scope="col">{w.colFree}</th>
                <th scope="col">{w.colAbout}</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr class={`line-${l.kind}`}>
                  <th scope="row" data-label={w.colWhen}>
                    <When at={l.createdAt} page={page} />
                  </th>
                  <td data-label={w.colWhat}>{kind[l.kind]}</td>
                  <td data-label={w.colPaid}>{signed(l.paidCredits)}</td>
                  <td data-label={w.colFree}>{signed(l.freeCredits)}</td>
                  <td data-label={w.colAbout}>
                    <About page={page} line={l} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
