/** One problem, located by a path into the request payload (`documents[1]`, `tags[0].value`). */
export interface FailureDetail {
  field: string;
  message: string;
}
