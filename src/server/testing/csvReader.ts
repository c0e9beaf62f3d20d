/** Reading the CSV files Weft writes, in tests. */

/** A strict RFC 4180 reader, so the test checks the quoting rather than trusting it. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field: string;
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let close = i + 1;
      for (;;) {
        close = text.indexOf('"', close);
        if (text[close + 1] === '"') close += 2;
        else break;
      }
      field = text.slice(i + 1, close).replaceAll('""', '"');
      i = close + 1;
    } else {
      const stop = text.slice(i).search(/,|\r\n/);
      const to = stop < 0 ? text.length : i + stop;
      field = text.slice(i, to);
      i = to;
    }
    row.push(field);
    if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else if (text[i] === ',') {
      i += 1;
    } else if (i < text.length) {
      throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i}`);
    }
  }
  return rows;
}
