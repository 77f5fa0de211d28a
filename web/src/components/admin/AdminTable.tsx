import type { ReactNode } from 'react';

/**
 * The table of an admin list: upper-case column headers, rows given as children, and a container
 * that scrolls sideways on a phone so the page itself never does; `stacked` turns each row into a
 * card of labelled lines below 576 px instead (cells then carry `data-label`, the column's name).
 * `busy` marks the rows as stale while the next page loads.
 */
export function AdminTable({
  columns,
  busy = false,
  className = 'table-hover',
  stacked = false,
  children,
}: {
  /** Header cells; `false` leaves a column out. */
  columns: Array<ReactNode | false>;
  busy?: boolean;
  className?: string;
  stacked?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-responsive">
      <table className={`table align-middle ${className}${stacked ? ' shop-stack-table' : ''}`} aria-busy={busy}>
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
