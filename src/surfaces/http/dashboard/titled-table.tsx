import type { ComponentChildren } from 'preact';

/**
 * A titled table in a focusable region, which it scrolls in when wider than the screen; at
 * 360 px its rows stack instead (app.css's .stack-table), each cell under its column's name
 * (the cells' data-label). The region is the one landmark its title names (a labelled section
 * around it would be a second of the same name). With `empty`, the text of a table with no
 * rows, it is a card with the title and that text instead: a table of headings alone reads as
 * something missing. The case page's tables and the web-flow page's.
 */
export function TitledTable(props: {
  label: string;
  id: string;
  empty?: string | undefined;
  children: ComponentChildren;
}) {
  const title = `${props.id}-title`;
  if (props.empty !== undefined)
    return (
      <section aria-labelledby={title} class="card">
        <h2 id={title}>{props.label}</h2>
        <p>{props.empty}</p>
      </section>
    );
  return (
    <div class="case-table">
      <h2 id={title}>{props.label}</h2>
      <div class="table-wrap" role="region" aria-labelledby={title} tabindex={0}>
        <table class="stack-table">{props.children}</table>
      </div>
    </div>
  );
}
