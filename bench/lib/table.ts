/** Rows as aligned lines in the benchmark's style: first column left, others right, a rule under the header. */
export function formatTable(rows: readonly (readonly string[])[]): string[] {
  const widths =
    rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  const lines: string[] = [];
  for (const [i, row] of rows.entries()) {
    lines.push(
      row
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
        .join('  '),
    );
    if (i === 0) lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  return lines;
}
