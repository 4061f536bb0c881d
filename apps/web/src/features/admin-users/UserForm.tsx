import {
  type AdminUser,
  type AdminUserPatch,
  API_KEY_RATE_LIMIT,
  adminUserPatchSchema,
  apiKeyRate,
  type PriceTable,
} from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { errorText } from '../../platform/errors';
import { notify } from '../../platform/notify';
import { useSession } from '../../platform/SessionProvider';
import { FormSelect, FormSwitch } from '../../ui/FormFields';
import { adminUsersApi } from './adminUsersApi';
import { enrichmentPermission, hasEnrichment, PRICE_FIELDS } from './format';
import { adminUsersKeys } from './queryKeys';

/** A price field: empty ('') while nothing is typed, refused on its field then. */
const priceField = z.union([z.number(), z.literal('')]).pipe(z.number({ error: 'adminUsers.drawer.priceRequired' }));

/** The API keys' rate: empty ('') for the default, else whole requests per second. */
const apiRateField = z.union([
  z.literal(''),
  z
    .number()
    .int('validation.apiRatePerSecond')
    .min(1, 'validation.apiRatePerSecond')
    .max(API_KEY_RATE_LIMIT.maxPerSecond, 'validation.apiRatePerSecond'),
]);

/**
 * The drawer's fields, as the PATCH takes them; a price left empty is refused on its field (the
 * server's price rules judge the rest).
 */
const userFormSchema = z.object({
  active: adminUserPatchSchema.shape.active.unwrap(),
  accessLevel: adminUserPatchSchema.shape.accessLevel.unwrap(),
  enrichment: z.boolean(),
  apiRatePerSecond: apiRateField,
  prices: z.object(
    Object.fromEntries(PRICE_FIELDS.map(({ key }) => [key, priceField])) as Record<keyof PriceTable, typeof priceField>,
  ),
});
type FormValues = z.input<typeof userFormSchema>;

/** NumberInput's value → a price in reais, or '' while the field is empty (or not a number yet). */
const toPrice = (v: number | string): number | '' => {
  const n = typeof v === 'number' ? v : v.trim() === '' ? Number.NaN : Number(v);
  return Number.isFinite(n) ? n : '';
};

/** A price as the field shows it at rest: at least the cents ("0,00"), up to the ten-thousandths. */
const priceText = (n: number | ''): number | string =>
  n === '' ? '' : n.toFixed(Math.min(4, Math.max(2, (String(n).split('.')[1] ?? '').length)));

/** The fields of `user` that differ from the form: exactly what the PATCH sends. */
function changesOf(user: AdminUser, form: FormValues) {
  const patch: AdminUserPatch = {};
  if (form.active !== user.active) patch.active = form.active;
  if (form.accessLevel !== user.accessLevel) patch.accessLevel = form.accessLevel;
  if (form.enrichment !== hasEnrichment(user.permissions.enriched)) {
    patch.permissions = { enriched: enrichmentPermission(form.enrichment) };
  }
  const apiRate = form.apiRatePerSecond === '' ? null : form.apiRatePerSecond;
  if (apiRate !== user.apiRatePerSecond) patch.apiRatePerSecond = apiRate;
  const prices: Partial<PriceTable> = {};
  for (const { key } of PRICE_FIELDS) {
    const value = form.prices[key];
    if (value !== '' && value !== user.priceTable[key]) prices[key] = value;
  }
  if (Object.keys(prices).length) patch.priceTable = prices;
  return patch;
}

/**
 * The editable part of the drawer: active, access level, enrichment permission, the API keys'
 * rate (empty: the default), the seven unit prices. Saves only what changed; deactivating asks first (it signs the user out everywhere).
 * Mount it with a key of the saved values so a successful save starts from the new ones.
 */
export function UserForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useSession();
  const isSelf = session.user?.id === user.id;
  // Checked as typed: an emptied price says so on its field at once.
  const form = useForm<FormValues, unknown, z.output<typeof userFormSchema>>({
    resolver: zodResolver(userFormSchema),
    mode: 'onChange',
    defaultValues: {
      active: user.active,
      accessLevel: user.accessLevel,
      enrichment: hasEnrichment(user.permissions.enriched),
      apiRatePerSecond: user.apiRatePerSecond ?? '',
      prices: { ...user.priceTable },
    },
  });
  const values = form.watch();
  const prices = values.prices;
  const errors = form.formState.errors;
  // Which price is being typed: at rest a price shows its cents.
  const [editing, setEditing] = useState<keyof PriceTable | null>(null);

  const patch = changesOf(user, values);
  const missingPrice = PRICE_FIELDS.some(({ key }) => prices[key] === '');
  const dirty = Object.keys(patch).length > 0;
  const defaultRate = apiKeyRate(null);

  const save = useMutation({
    mutationFn: (body: AdminUserPatch) => adminUsersApi.update(user.id, body),
    onSuccess: async () => {
      notify.success(t('adminUsers.drawer.saved'));
      await queryClient.invalidateQueries({ queryKey: adminUsersKeys.all });
      if (isSelf) await session.refreshUser();
    },
    onError: (err) => notify.error(errorText(err, t, 'adminUsers.drawer.saveError')),
  });

  const submit = form.handleSubmit(() => {
    if (!dirty) return;
    if (patch.active === false) {
      modals.openConfirmModal({
        title: t('adminUsers.confirmDeactivate.title'),
        children: (
          <Text size="sm">{t('adminUsers.confirmDeactivate.body', { name: user.fullName || user.email })}</Text>
        ),
        labels: {
          confirm: t('adminUsers.confirmDeactivate.confirm'),
          cancel: t('adminUsers.confirmDeactivate.cancel'),
        },
        confirmProps: { color: 'red', 'data-testid': 'confirm-deactivate' } as never,
        onConfirm: () => save.mutate(patch),
      });
      return;
    }
    save.mutate(patch);
  });

  return (
    <form onSubmit={submit} noValidate data-testid="user-form">
      <Stack gap="md">
        <Card withBorder radius="md" padding="md">
          <Stack gap="md">
            <Title order={4}>{t('adminUsers.drawer.account')}</Title>
            {isSelf && (
              <Text size="sm" c="dimmed" data-testid="self-hint">
                {t('adminUsers.drawer.selfHint')}
              </Text>
            )}
            <FormSwitch
              control={form.control}
              name="active"
              disabled={isSelf}
              label={t('adminUsers.drawer.active')}
              description={t('adminUsers.drawer.activeHint')}
              data-testid="user-active-switch"
            />
            <FormSelect
              control={form.control}
              name="accessLevel"
              label={t('adminUsers.drawer.accessLevel')}
              data={(['USER', 'ADMINISTRATOR'] as const).map((level) => ({
                value: level,
                label: t(`adminUsers.accessLevels.${level}`),
              }))}
              allowDeselect={false}
              disabled={isSelf}
              maw={320}
              comboboxProps={{ withinPortal: true }}
              data-testid="user-access-level"
            />
            <FormSwitch
              control={form.control}
              name="enrichment"
              label={t('adminUsers.drawer.enrichment')}
              description={t('adminUsers.drawer.enrichmentHint')}
              data-testid="user-enrichment-switch"
            />
            <Controller
              control={form.control}
              name="apiRatePerSecond"
              render={({ field }) => (
                <NumberInput
                  label={t('adminUsers.drawer.apiRate')}
                  description={t('adminUsers.drawer.apiRateHint', defaultRate)}
                  placeholder={t('adminUsers.drawer.apiRateDefault', defaultRate)}
                  suffix={t('adminUsers.drawer.apiRateUnit')}
                  min={1}
                  max={API_KEY_RATE_LIMIT.maxPerSecond}
                  allowDecimal={false}
                  allowNegative={false}
                  maw={320}
                  value={field.value}
                  onChange={(v) => field.onChange(v === '' ? '' : Number(v))}
                  onBlur={field.onBlur}
                  error={errors.apiRatePerSecond?.message && t(errors.apiRatePerSecond.message)}
                  data-testid="user-api-rate"
                />
              )}
            />
          </Stack>
        </Card>

        <Card withBorder radius="md" padding="md">
          <Stack gap="sm">
            <div>
              <Title order={4}>{t('adminUsers.drawer.prices')}</Title>
              <Text size="xs" c="dimmed">
                {t('adminUsers.drawer.pricesHint')}
              </Text>
            </div>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {PRICE_FIELDS.map(({ key, type }) => (
                <Controller
                  key={key}
                  control={form.control}
                  name={`prices.${key}`}
                  render={({ field }) => (
                    <NumberInput
                      label={t(`credits.types.${type}`)}
                      prefix="R$ "
                      decimalScale={4}
                      decimalSeparator=","
                      thousandSeparator="."
                      min={0}
                      allowNegative={false}
                      hideControls
                      // At rest "R$ 0,00" (cents always shown); while typing, what is typed.
                      value={editing === key ? field.value : priceText(field.value)}
                      onFocus={() => setEditing(key)}
                      onBlur={() => {
                        setEditing(null);
                        field.onBlur();
                      }}
                      onChange={(v) => field.onChange(toPrice(v))}
                      error={errors.prices?.[key]?.message && t(errors.prices[key].message)}
                      data-testid={`price-${key}`}
                    />
                  )}
                />
              ))}
            </SimpleGrid>
          </Stack>
        </Card>

        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            disabled={!dirty || missingPrice}
            loading={save.isPending}
            data-testid="user-save"
          >
            {t('adminUsers.drawer.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
