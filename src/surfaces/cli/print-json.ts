/** One JSON value on stdout, on one line (or indented), as every --json output is printed. */
export function printJson(value: unknown, pretty = false): void {
  process.stdout.write(`${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`);
}
