import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, type IconProps } from '@tabler/icons-react';
import { type ComponentType, Fragment } from 'react';

/** One entry of a row's menu. */
export type RowAction = {
  icon: ComponentType<IconProps>;
  label: string;
  onClick: () => void;
  testId?: string;
  disabled?: boolean;
  /** Deleting or cancelling: red, last, after a divider. */
  danger?: boolean;
};

/** The "…" button at the end of a table row and its menu of what can be done with that row. */
export function RowMenu({ label, testId, actions }: { label: string; testId: string; actions: RowAction[] }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={label} data-testid={testId}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map(({ icon: Icon, label: text, onClick, testId: itemTestId, disabled, danger }) => (
          <Fragment key={text}>
            {danger && <Menu.Divider />}
            <Menu.Item
              color={danger ? 'red' : undefined}
              leftSection={<Icon size={16} />}
              disabled={disabled}
              onClick={onClick}
              data-testid={itemTestId}
            >
              {text}
            </Menu.Item>
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
