import { Button, Checkbox, Menu } from '@mantine/core';
import { useT } from '../../i18n/use-t';
import { columnMeta } from './order-columns';
import type { OrderTable } from './orders-table';

/** "Columns": a checkbox per column that can be hidden; the table remembers the choice. */
export function ColumnMenu({ table }: { table: OrderTable }) {
  const t = useT();
  return (
    <Menu closeOnItemClick={false} position="bottom-end" shadow="md" withinPortal>
      <Menu.Target>
        <Button variant="default" size="xs" title={t('ordersList.columnsHint')} data-testid="columns-button">
          {t('ordersList.columns')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="columns-menu">
        {table.getAllLeafColumns().map((column) => {
          const meta = columnMeta(column.id);
          if (!meta || meta.attentionView) return null;
          return (
            <Menu.Item
              key={column.id}
              disabled={!column.getCanHide()}
              onClick={() => column.toggleVisibility()}
              leftSection={<Checkbox size="xs" checked={column.getIsVisible()} readOnly tabIndex={-1} aria-hidden />}
              role="menuitemcheckbox"
              aria-checked={column.getIsVisible()}
              data-testid={`column-toggle-${column.id}`}
            >
              {t(meta.label)}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
