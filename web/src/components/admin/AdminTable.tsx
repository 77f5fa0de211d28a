import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * The table of every admin list: upper-case column headers, rows given as children. Below 768 px
 * each row becomes a card of labelled lines (nothing runs off the right edge, long e-mails wrap);
 * each cell is labelled with its column's header text (`data-label`, unless the cell sets its own).
 * `stacked={false}` keeps a real table that scrolls sideways inside its own box instead.
 * `busy` marks the rows as stale while the next page loads.
 */
export function AdminTable({
  columns,
  busy = false,
  className = 'table-hover',
  stacked = true,
  caption,
  children,
}: {
  /** Header cells; `false` leaves a column out. */
  columns: Array<ReactNode | false>;
  busy?: boolean;
  className?: string;
  stacked?: boolean;
  /** The table's accessible name (visually hidden). */
  caption?: string;
  children: ReactNode;
}) {
  const tableRef = useRef<HTMLTableElement>(null);
  // Labels follow the header cells, so a page only writes its rows (re-run on every render: rows change).
  useLayoutEffect(() => {
    const table = tableRef.current;
    if (!table || !stacked) return;
    const labels = Array.from(table.tHead?.rows[0]?.cells ?? [], (th) => th.textContent?.trim() ?? '');
    for (const row of Array.from(table.tBodies[0]?.rows ?? [])) {
      let col = 0;
      for (const cell of Array.from(row.cells)) {
        if (!cell.hasAttribute('data-label') || cell.dataset.autoLabel) {
          cell.dataset.label = cell.colSpan > 1 ? '' : (labels[col] ?? '');
          cell.dataset.autoLabel = '1';
        }
        col += cell.colSpan;
      }
    }
  });
  return (
    <div className={stacked ? 'shop-admin-table' : 'table-responsive'}>
      <table ref={tableRef} className={`table align-middle ${className}${stacked ? ' shop-stack-table' : ''}`} aria-busy={busy}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, i) =>
              column === false ? null : (
                <th key={i} scope="col">
                  {column}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
