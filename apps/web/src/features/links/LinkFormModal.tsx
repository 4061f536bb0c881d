import { type LinkInput, type LinkMode, type RotatingLink, suggestSlug } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { notify } from '../../platform/notify';
import { DialogButtons } from '../../ui/DialogButtons';
import { linkErrorText } from './errors';
import { LinkExtras } from './LinkExtras';
import { draftOf, emptyTarget, type LinkDraft, linkDraftSchema, type TargetDraft } from './linkDraft';
import { linksApi } from './linksApi';
import { linksKeys } from './queryKeys';
import { TargetCard } from './TargetCard';

/** Create or edit a rotating link: name, address, mode, the targets clicks go to, extras. */
export function LinkFormModal({
  link,
  publicBase,
  onClose,
  onSaved,
}: {
  link: RotatingLink | null;
  /** `PUBLIC_URL/l/` as the server writes it (for the address preview). */
  publicBase: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The form holds what was typed; the server's link schema judges the body before it is sent,
  // refused with the same toast as the server's refusal; the pixels are checked as typed too
  // (`LinkExtras`).
  const form = useForm<LinkDraft, unknown, LinkInput>({
    resolver: zodResolver(linkDraftSchema),
    defaultValues: draftOf(link),
  });
  const draft = form.watch();
  const [slugTouched, setSlugTouched] = useState(link !== null);
  const change = (patch: Partial<LinkDraft>) => {
    for (const [key, value] of Object.entries(patch) as [keyof LinkDraft, LinkDraft[keyof LinkDraft]][]) {
      form.setValue(key, value, { shouldDirty: true });
    }
  };
  const setTargets = (update: (targets: TargetDraft[]) => TargetDraft[]) =>
    change({ targets: update(form.getValues('targets')) });
  const setTarget = (i: number, patch: Partial<TargetDraft>) =>
    setTargets((targets) => targets.map((t, j) => (j === i ? { ...t, ...patch } : t)));

  const save = useMutation({
    mutationFn: (input: LinkInput) => (link ? linksApi.update(link.id, input) : linksApi.create(input)),
    onSuccess: () => {
      notify.success(t(link ? 'links.form.saved' : 'links.form.created'));
      void queryClient.invalidateQueries({ queryKey: linksKeys.all });
      onSaved();
    },
    onError: (err) => notify.error(linkErrorText(t, err, 'links.errors.UNKNOWN')),
  });
  const submit = form.handleSubmit(
    (input) => save.mutate(input),
    () => notify.error(t('links.errors.fields')),
  );

  return (
    <Modal opened onClose={onClose} size="lg" title={t(link ? 'links.form.editTitle' : 'links.form.newTitle')}>
      <Stack gap="sm">
        <TextInput
          label={t('links.form.name')}
          value={draft.name}
          maxLength={80}
          data-testid="link-name"
          onChange={(e) => {
            const name = e.currentTarget.value;
            change(slugTouched ? { name } : { name, slug: suggestSlug(name) });
          }}
        />
        <TextInput
          label={t('links.form.slug')}
          description={`${publicBase}${draft.slug || '…'}`}
          value={draft.slug}
          maxLength={60}
          data-testid="link-slug"
          onChange={(e) => {
            // Read now: React reuses the event, so the updater below must not touch it.
            const slug = e.currentTarget.value.toLowerCase();
            setSlugTouched(true);
            change({ slug });
          }}
        />
        <Group justify="space-between" align="end">
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('links.form.mode')}
            </Text>
            <SegmentedControl
              value={draft.mode}
              onChange={(mode) => change({ mode: mode as LinkMode })}
              data={[
                { value: 'round_robin', label: t('links.mode.round_robin') },
                { value: 'weighted', label: t('links.mode.weighted') },
              ]}
              data-testid="link-mode"
            />
          </div>
          <Switch
            label={t('links.form.sticky')}
            checked={draft.sticky}
            onChange={(e) => change({ sticky: e.currentTarget.checked })}
          />
        </Group>
        <Text size="sm" fw={500}>
          {t('links.form.targets')}
        </Text>
        {draft.targets.map((target, i) => (
          <TargetCard
            key={target.id ?? `new-${i}`}
            target={target}
            weighted={draft.mode === 'weighted'}
            removable={draft.targets.length > 1}
            onChange={(patch) => setTarget(i, patch)}
            onRemove={() => setTargets((targets) => targets.filter((_, j) => j !== i))}
          />
        ))}
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => setTargets((targets) => [...targets, emptyTarget()])}
          disabled={draft.targets.length >= 50}
          data-testid="add-target"
        >
          {t('links.form.addTarget')}
        </Button>
        <LinkExtras draft={draft} onChange={change} />
        <DialogButtons
          cancelLabel={t('links.cancel')}
          onCancel={onClose}
          confirmLabel={t('links.form.save')}
          onConfirm={() => void submit()}
          confirmTestId="link-save"
          pending={save.isPending}
          mt="sm"
        />
      </Stack>
    </Modal>
  );
}
