import {
  Group,
  type GroupProps,
  Pagination,
  type PaginationProps,
  Table,
  type TableProps,
  type TableTdProps,
  type TableThProps,
  type TableTrProps,
  Text,
} from '@mantine/core';
import type { ReactNode } from 'react';
import type { Paging } from '../platform/usePagedSearch';

/** One column: its header cell (text and the `Table.Th` props) and, unless rows draw themselves, its cell. */
export type DataColumn<Row> = TableThProps & {
  /** The header's text; none for a column of row actions. */
  header?: ReactNode;
  /** The cell of one row. */
  cell?: (row: Row) => ReactNode;
  cellProps?: TableTdProps & { 'data-testid'?: string };
  /** Numbers: header and cells on the right. */
  align?: 'right';
  /** false: the column is left out (one only some rows or users have). */
  show?: boolean;
};

type RowProps = TableTrProps & { 'data-testid'?: string };

export type DataTableProps<Row> = Omit<TableProps, 'children'> & {
  columns: DataColumn<Row>[];
  /** The rows to show; undefined while the first page loads. */
  rows: readonly Row[] | undefined;
  /** The row's React key (with `cell` columns). */
  rowKey?: (row: Row) => string | number;
  /** The row's own props, such as its test id (with `cell` columns). */
  rowProps?: (row: Row) => RowProps;
  /** Every row's test id (with `cell` columns). */
  rowTestId?: string;
  /** A row drawn whole by the page (its own component, or cells too rich for one column each). */
  renderRow?: (row: Row) => ReactNode;
  /** Shown in one full-width row when there are no rows. */
  empty?: ReactNode;
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth?: number;
  /** Names the sideways-scrolling area and lets the keyboard reach it (axe: scrollable-region-focusable). */
  scrollLabel?: string;
  'data-testid'?: string;
};

/**
 * A table of records: the header from `columns`, a row per record (from the columns' cells, or
 * `renderRow`), the empty row, and sideways scrolling on narrow screens. Every list of things in
 * the app is one.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  rowTestId,
  renderRow,
  empty,
  minWidth,
  scrollLabel,
  ...tableProps
}: DataTableProps<Row>) {
  const shown = columns.filter((c) => c.show !== false);
  const row = (r: Row, index: number) =>
    renderRow ? (
      renderRow(r)
    ) : (
      <Table.Tr key={rowKey ? rowKey(r) : index} data-testid={rowTestId} {...rowProps?.(r)}>
        {shown.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; their place is who they are.
          <Table.Td key={i} ta={c.align} {...c.cellProps}>
            {c.cell?.(r)}
          </Table.Td>
        ))}
      </Table.Tr>
    );
  const table = (
    <Table {...tableProps}>
      <Table.Thead>
        <Table.Tr>
          {shown.map(({ header, cell: _cell, cellProps: _cellProps, show: _show, align, ...thProps }, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; their place is who they are.
            <Table.Th key={i} ta={align} {...thProps}>
              {header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {empty && rows?.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={shown.length}>{empty}</Table.Td>
          </Table.Tr>
        )}
        {rows?.map(row)}
      </Table.Tbody>
    </Table>
  );
  if (!minWidth) return table;
  const scrollArea = scrollLabel
    ? { viewportProps: { tabIndex: 0, role: 'region', 'aria-label': scrollLabel } }
    : undefined;
  return (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={scrollArea}>
      {table}
    </Table.ScrollContainer>
  );
}

/** The text of an empty table's only row, or of an empty list in a card. */
export function EmptyRow({ children, 'data-testid': testId }: { children: ReactNode; 'data-testid'?: string }) {
  return (
    <Text size="sm" c="dimmed" ta="center" py="md" data-testid={testId}>
      {children}
    </Text>
  );
}

/** Pages under a table: nothing while everything fits on one page. */
export function TablePagination({
  paging,
  total,
  justify,
  before,
  ...props
}: Omit<PaginationProps, 'total' | 'value' | 'onChange'> & {
  paging: Paging;
  /** How many items the server has in all. */
  total: number | undefined;
  /** In a row of its own, placed so (with `before` at its left). */
  justify?: GroupProps['justify'];
  before?: ReactNode;
}) {
  const pages = Math.ceil((total ?? 0) / paging.pageSize);
  if (pages <= 1) return null;
  const pagination = <Pagination total={pages} value={paging.page} onChange={paging.setPage} {...props} />;
  if (!justify) return pagination;
  return (
    <Group justify={justify}>
      {before}
      {pagination}
    </Group>
  );
}
