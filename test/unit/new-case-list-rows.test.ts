import { describe, expect, it } from 'vitest';
import {
  filledListRows,
  listRowCount,
  MAX_LIST_ROWS,
  withListRowAdded,
  withListRowRemoved,
} from '../../src/surfaces/http/dashboard/new-case-list-rows.js';
import { caseBodyOf, formFieldOf } from '../../src/surfaces/http/dashboard/new-case-form.js';
import type {
  DocumentRow,
  NewCaseValues,
} from '../../src/surfaces/http/dashboard/new-case-form.js';
import type { LibraryField } from '../../src/surfaces/http/dashboard/new-case-library.js';

const LINES: LibraryField = {
  tag: 'lines',
  type: 'list',
  columns: [
    { tag: 'description', type: 'text' },
    { tag: 'quantity', type: 'number' },
    { tag: 'delivered', type: 'boolean' },
  ],
};

function library(tags: Record<string, string>): DocumentRow {
  return {
    source: 'library',
    name: '',
    upload: '',
    uploadName: '',
    documentId: 'quote',
    formDocument: '',
    shown: true,
    tags,
  };
}

const values = (row: DocumentRow): NewCaseValues => ({
  title: 'Quote',
  folder: '',
  documents: [row],
  expiresInDays: '',
  recipients: [],
});

describe('a library list’s rows on the New case form', () => {
  it('offers one row to fill in until the form posts its count, and bounds the count', () => {
    expect(listRowCount({}, 'lines')).toBe(1);
    expect(listRowCount({ 'lines.rows': '3' }, 'lines')).toBe(3);
    expect(listRowCount({ 'lines.rows': '-2' }, 'lines')).toBe(0);
    expect(listRowCount({ 'lines.rows': '100000' }, 'lines')).toBe(MAX_LIST_ROWS);
  });

  it('adds a row at the end and removes one, moving the rows below it up', () => {
    const tags: Record<string, string> = {
      'lines.rows': '3',
      'lines.0.description': 'Chairs',
      'lines.1.description': 'Tables',
      'lines.2.description': 'Lamps',
      'lines.2.quantity': '4',
      other: 'kept',
    };
    withListRowRemoved(tags, 'lines', 1);
    expect(tags).toEqual({
      'lines.rows': '2',
      'lines.0.description': 'Chairs',
      'lines.1.description': 'Lamps',
      'lines.1.quantity': '4',
      other: 'kept',
    });
    withListRowAdded(tags, 'lines');
    expect(listRowCount(tags, 'lines')).toBe(3);
    // A row out of range changes nothing.
    withListRowRemoved(tags, 'lines', 7);
    expect(listRowCount(tags, 'lines')).toBe(3);
  });

  it('sends the rows that hold anything as typed cells, and leaves empty cells out', () => {
    const row = library({
      'lines.rows': '3',
      'lines.0.description': 'Chairs',
      'lines.0.quantity': '12',
      'lines.0.delivered': 'true',
      // Row 2 left wholly empty: no row of the list.
      'lines.1.description': ' ',
      'lines.2.quantity': 'many',
    });
    const body = caseBodyOf(values(row), 'draft', [[LINES]]);
    expect(body.documents?.[0]?.tags).toEqual([
      {
        tag: 'lines',
        type: 'list',
        value: [
          { description: 'Chairs', quantity: 12, delivered: true },
          // A value not of its type goes as typed, for the service to refuse by its path.
          { quantity: 'many', delivered: false },
        ],
      },
    ]);
    expect(filledListRows(row.tags, 'lines')).toEqual([0, 2]);
    // The service's second row is the form's third.
    expect(formFieldOf('documents[0].tags[0].value[1].quantity', [row], body)).toBe(
      'documents.0.tags.lines.2.quantity',
    );
    expect(formFieldOf('documents[0].tags[0].value', [row], body)).toBe('documents.0.tags.lines');
  });
});
