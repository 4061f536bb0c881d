import { Button, Menu } from '@mantine/core';
import { IconBraces } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** "Insert variable": `{nome}`, `{telefone}` and the lists' columns. */
export function VariableMenu({
  variables,
  onInsert,
}: {
  variables: string[];
  onInsert: (placeholder: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button variant="light" size="xs" leftSection={<IconBraces size={14} />} data-testid="insert-variable">
          {t('campaignWizard.insertVariable')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {variables.map((v) => (
          <Menu.Item key={v} onClick={() => onInsert(`{${v}}`)} data-testid={`variable-${v}`}>
            {`{${v}}`}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
