/** The pair of strings that open and close a tag: `{` and `}` by default, `{{` and `}}` often. */
export interface Delimiters {
  start: string;
  end: string;
}
