import type { CreditPurchase } from '../../../service/credits/index.js';
import { fill, type PageContext } from '../pages/index.js';
import { methodName } from './credits-method-text.js';
import { shownKroner } from './credits-money.js';
import { When } from './home-when.js';

/**
 * "Purchases": each invoice with its credits, what it costs with VAT, how it is paid (an
 * auto-refill's marked) and whether it is paid. What the company pays only: no rate behind the
 * price is shown (spec 4.6: partner terms are not readable in the dashboard).
 */
export function CreditPurchasesTable({
  page,
  purchases,
}: {
  page: PageContext;
  purchases: readonly CreditPurchase[];
}) {
  const w = page.words.credits;
  return (
    // The table's region is the one landmark its title names: a labelled section around it
    // would be a second of the same name.
    <section>
      <h2 id="credit-purchases-title">{w.purchasesTitle}</h2>
      {purchases.length === 0 ? (
        <p>{w.noPurchases}</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby="credit-purchases-title" tabindex={0}>
          <table class="credit-purchases stack-table">
            <thead>
              <tr>
                <th scope="col">{w.colInvoice}</th>
                <th scope="col">{w.colWhen}</th>
                <th scope="col">{w.colCredits}</th>
                <th scope="col">{w.colTotal}</th>
                <th scope="col">{w.colMethod}</th>
                <th scope="col">{w.colStatus}</th>
              </tr>
            </thead>
            <tbody>
              {purchases.map((p) => {
                const method = methodName(w, p.method);
                return (
                  <tr class={`purchase-${p.status}`}>
                    <th scope="row" data-label={w.colInvoice}>
                      {p.invoiceNumber}
                    </th>
                    <td data-label={w.colWhen}>
                      <When at={p.createdAt} page={page} />
                    </td>
                    <td data-label={w.colCredits}>{String(p.credits)}</td>
                    <td data-label={w.colTotal}>{shownKroner(page, p.totalOre)}</td>
                    <td data-label={w.colMethod}>
                      {p.autoRefill ? fill(w.autoRefilled, { method }) : method}
                    </td>
                    <td data-label={w.colStatus}>
                      {p.status === 'paid' ? w.statusPaid : w.statusOpen}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
