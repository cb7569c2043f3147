import { createElement, type ComponentChildren } from 'preact';
import type { FailureDetail } from '../../../base/errors/index.js';
import type { CasePlaces } from '../../../service/cases/index.js';
import { CsrfField, Layout, Notice, fill, type PageContext } from '../pages/index.js';
import { assetUrl } from '../pages/page-assets.js';
import { placesProblemText } from './places-problem-text.js';

/** Pages of a document the editor shows (as the signing page shows at most this many). */
export const MAX_PLACES_PAGES = 100;

export interface PlacesPageProps {
  page: PageContext;
  places: CasePlaces;
  /** The problems of the last save, when it was refused; else the case's own (what send says). */
  problems: FailureDetail[];
  saved?: boolean;
}

const KINDS = ['sign', 'initials', 'name', 'date'] as const;

/** The image of one page of a case document, as places-pages.tsx serves it. */
export function pageImageUrl(caseId: string, document: number, page: number): string {
  return `/dashboard/cases/${encodeURIComponent(caseId)}/documents/${document}/pages/${page}`;
}

/**
 * `/dashboard/cases/{id}/places` of a draft: the documents' pages as images, the places on them
 * as boxes the `<place-editor>` element (assets/pages/place-editor.js) draws, moves, resizes and
 * removes; the save form carries them as one JSON field. Without script the places are listed
 * as a table, and the page says that placing them needs script.
 */
export function PlacesPage({ page, places, problems, saved }: PlacesPageProps) {
  const w = page.words.places;
  const signers = places.recipients.filter((r) => r.signing);
  const nameOf = (recipient: number) =>
    places.recipients.find((r) => r.position + 1 === recipient)?.name ?? `#${recipient}`;
  const flat = places.documents.flatMap((d) => d.places.map((p) => ({ document: d.index, ...p })));
  const caseUrl = `/dashboard/cases/${encodeURIComponent(places.id)}`;
  const shown = places.documents.filter((d) => d.pages.length > 0);
  return (
    <Layout page={page} title={`${w.title}: ${places.title}`} section="cases">
      <p class="places-case">
        <a href={caseUrl}>{w.back}</a> · {places.title}
      </p>
      {saved && <Notice kind="done">{w.saved}</Notice>}
      {problems.length > 0 && (
        <div class="error-summary places-problems" role="alert">
          <h2>{w.problems}</h2>
          <ul>
            {problems.map((p) => (
              <li>{placesProblemText(page, p)}</li>
            ))}
          </ul>
        </div>
      )}
      {shown.length === 0 && <p>{w.noDocuments}</p>}
      {signers.length === 0 && <p>{w.noSigners}</p>}
      <noscript>
        <p class="notice notice-problem">{w.needsScript}</p>
      </noscript>
      <table class="places-list stack-table">
        <caption>{w.listCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{w.document}</th>
            <th scope="col">{w.page}</th>
            <th scope="col">{w.recipient}</th>
            <th scope="col">{w.kind}</th>
            <th scope="col">{w.size}</th>
          </tr>
        </thead>
        <tbody>
          {flat.length === 0 && (
            <tr>
              <td colSpan={5}>{w.none}</td>
            </tr>
          )}
          {flat.map((p) => (
            // Each cell named by its column: at 360 px the rows stack (app.css's .stack-table).
            <tr>
              <td data-label={w.document}>
                {places.documents.find((d) => d.index === p.document)?.name}
              </td>
              <td data-label={w.page}>{p.page}</td>
              <td data-label={w.recipient}>{nameOf(p.recipient)}</td>
              <td data-label={w.kind}>{w.kinds[p.kind]}</td>
              <td data-label={w.size}>
                {`x ${round(p.rect.x)}, y ${round(p.rect.y)}, ${round(p.rect.width)} × ${round(p.rect.height)}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <PlaceEditor
        data-places={JSON.stringify(flat)}
        data-recipients={JSON.stringify(signers.map((r) => ({ n: r.position + 1, name: r.name })))}
        data-words={JSON.stringify({
          kinds: w.kinds,
          added: w.added,
          moved: w.moved,
          resized: w.resized,
          removed: w.removed,
          boxLabel: w.boxLabel,
        })}
        hidden
      >
        <p>{w.intro}</p>
        <div class="place-toolbar">
          <label>
            {w.recipient}
            <select data-role="recipient">
              {signers.map((r) => (
                <option value={String(r.position + 1)}>{r.name}</option>
              ))}
            </select>
          </label>
          <label>
            {w.kind}
            <select data-role="kind">
              {KINDS.map((k) => (
                <option value={k}>{w.kinds[k]}</option>
              ))}
            </select>
          </label>
          <label>
            {w.page}
            <select data-role="page">
              {shown.flatMap((d) =>
                d.pages
                  .slice(0, MAX_PLACES_PAGES)
                  .map((_, i) => (
                    <option value={`${d.index}:${i + 1}`}>
                      {fill(w.pageOf, { document: d.name, page: String(i + 1) })}
                    </option>
                  )),
              )}
            </select>
          </label>
          <button type="button" class="secondary" data-role="add">
            {w.add}
          </button>
        </div>
        <p class="visually-hidden" aria-live="polite" data-role="status"></p>
        {shown.map((d) => (
          <section class="place-document" aria-label={d.name}>
            <h2>{d.name}</h2>
            {d.pages.slice(0, MAX_PLACES_PAGES).map((size, i) => (
              <div
                class="place-page"
                data-document={String(d.index)}
                data-page={String(i + 1)}
                data-width={String(size.width)}
                data-height={String(size.height)}
              >
                <img
                  src={pageImageUrl(places.id, d.index, i + 1)}
                  alt={fill(w.pageImage, {
                    document: d.name,
                    page: String(i + 1),
                    pages: String(d.pages.length),
                  })}
                  draggable={false}
                  loading="lazy"
                />
              </div>
            ))}
          </section>
        ))}
      </PlaceEditor>
      <form method="post" action={`${caseUrl}/places`} class="places-save" data-role="save">
        <CsrfField page={page} />
        <input type="hidden" name="places" value={JSON.stringify(flat)} />
        <button type="submit">{w.save}</button>
      </form>
      <form method="post" action={`${caseUrl}/send`} class="places-send">
        <CsrfField page={page} />
        <p>{w.sendHint}</p>
        <button type="submit">{w.send}</button>
      </form>
      <script src={assetUrl('place-editor.js')} defer></script>
    </Layout>
  );
}

/** The page of a case that is no longer a draft: nothing to place, a way back. */
export function PlacesClosedPage({ page, places }: { page: PageContext; places: CasePlaces }) {
  const w = page.words.places;
  return (
    <Layout page={page} title={w.title} section="cases">
      <p>
        {fill(w.notDraft, {
          state: w.states[places.state as keyof typeof w.states] ?? places.state,
        })}
      </p>
      <p>
        <a href={`/dashboard/cases/${encodeURIComponent(places.id)}`}>{w.back}</a>
      </p>
    </Layout>
  );
}

const round = (n: number) => String(Math.round(n * 10) / 10);

/** `<place-editor>`, the custom element of assets/pages/place-editor.js (JSX does not list it). */
function PlaceEditor({
  children,
  ...attributes
}: {
  children: ComponentChildren;
  'data-places': string;
  'data-recipients': string;
  'data-words': string;
  hidden: boolean;
}) {
  return createElement('place-editor', attributes, children);
}
