import type { AuditEntry } from '@ecoa/shared';
import { Stack, Text, Timeline, Title } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { describeChange } from './format';

/** Who changed what and when, newest first (the server's audit log of this user). */
export function AuditHistory({ entries }: { entries: AuditEntry[] }) {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  return (
    <Stack gap="sm" data-testid="user-history">
      <Title order={4}>{t('adminUsers.history.title')}</Title>
      {entries.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="user-history-empty">
          {t('adminUsers.history.empty')}
        </Text>
      ) : (
        <Timeline bulletSize={22} lineWidth={2}>
          {entries.map((entry) => (
            <Timeline.Item
              key={entry.id}
              bullet={<IconHistory size={12} />}
              data-testid="history-entry"
              title={
                <Text size="sm" fw={600}>
                  {entry.actor.name}{' '}
                  <Text span size="xs" c="dimmed" fw={400}>
                    {entry.actor.email}
                  </Text>
                </Text>
              }
            >
              <Text size="xs" c="dimmed" mb={4}>
                {new Date(entry.createdAt).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' })}
              </Text>
              {Object.entries(entry.changes).map(([field, change]) => {
                const line = describeChange(t, field, change.from, change.to);
                return (
                  <Text key={field} size="sm" data-testid="history-change">
                    <Text span fw={500}>
                      {line.label}:
                    </Text>{' '}
                    {line.from} → {line.to}
                  </Text>
                );
              })}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}
