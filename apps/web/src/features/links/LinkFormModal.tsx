import { type LinkInput, type LinkMode, type LinkTargetInput, type RotatingLink, suggestSlug } from '@ecoa/shared';
import {
  ActionIcon,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../auth/notify';
import { linkErrorText } from './errors';
import { linksApi } from './linksApi';

type TargetDraft = {
  id?: string;
  kind: 'whatsapp' | 'url';
  value: string;
  label: string;
  message: string;
  weight: number;
  active: boolean;
};

const emptyTarget = (): TargetDraft => ({
  kind: 'whatsapp',
  value: '',
  label: '',
  message: '',
  weight: 1,
  active: true,
});

function draftOf(link: RotatingLink | null): {
  name: string;
  slug: string;
  mode: LinkMode;
  sticky: boolean;
  targets: TargetDraft[];
} {
  if (!link) return { name: '', slug: '', mode: 'round_robin', sticky: false, targets: [emptyTarget()] };
  return {
    name: link.name,
    slug: link.slug,
    mode: link.mode,
    sticky: link.sticky,
    targets: link.targets.map((t) => ({
      id: t.id,
      kind: t.kind,
      value: (t.kind === 'url' ? t.url : t.phone) ?? '',
      label: t.label ?? '',
      message: t.message ?? '',
      weight: t.weight,
      active: t.active,
    })),
  };
}

function targetInput(t: TargetDraft, weighted: boolean): LinkTargetInput {
  const common = {
    ...(t.id ? { id: t.id } : {}),
    ...(t.label.trim() ? { label: t.label.trim() } : {}),
    ...(weighted ? { weight: t.weight } : {}),
    active: t.active,
  };
  return t.kind === 'url'
    ? { kind: 'url', url: t.value.trim(), ...common }
    : { kind: 'whatsapp', phone: t.value.trim(), ...(t.message.trim() ? { message: t.message } : {}), ...common };
}

/** Create or edit a rotating link: name, address, mode and the targets clicks go to. */
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
  const [draft, setDraft] = useState(() => draftOf(link));
  const [slugTouched, setSlugTouched] = useState(link !== null);
  const [saving, setSaving] = useState(false);
  const weighted = draft.mode === 'weighted';
  const setTarget = (i: number, patch: Partial<TargetDraft>) =>
    setDraft((d) => ({ ...d, targets: d.targets.map((t, j) => (j === i ? { ...t, ...patch } : t)) }));

  const save = async () => {
    const input: LinkInput = {
      name: draft.name.trim(),
      slug: draft.slug.trim(),
      mode: draft.mode,
      sticky: draft.sticky,
      targets: draft.targets.map((x) => targetInput(x, weighted)),
    };
    setSaving(true);
    try {
      if (link) await linksApi.update(link.id, input);
      else await linksApi.create(input);
      notify.success(t(link ? 'links.form.saved' : 'links.form.created'));
      onSaved();
    } catch (err) {
      notify.error(linkErrorText(t, err));
    } finally {
      setSaving(false);
    }
  };

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
            setDraft((d) => ({ ...d, name, slug: slugTouched ? d.slug : suggestSlug(name) }));
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
            setDraft((d) => ({ ...d, slug }));
          }}
        />
        <Group justify="space-between" align="end">
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('links.form.mode')}
            </Text>
            <SegmentedControl
              value={draft.mode}
              onChange={(mode) => setDraft((d) => ({ ...d, mode: mode as LinkMode }))}
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
            onChange={(e) => {
              const sticky = e.currentTarget.checked;
              setDraft((d) => ({ ...d, sticky }));
            }}
          />
        </Group>
        <Text size="sm" fw={500}>
          {t('links.form.targets')}
        </Text>
        {draft.targets.map((target, i) => (
          <Paper key={target.id ?? `new-${i}`} withBorder p="sm" data-testid="link-target">
            <Stack gap="xs">
              <Group gap="xs" align="end" wrap="nowrap">
                <Select
                  w={140}
                  label={t('links.form.kind')}
                  value={target.kind}
                  allowDeselect={false}
                  data={[
                    { value: 'whatsapp', label: 'WhatsApp' },
                    { value: 'url', label: t('links.form.kindUrl') },
                  ]}
                  onChange={(kind) => setTarget(i, { kind: (kind ?? 'whatsapp') as TargetDraft['kind'] })}
                />
                <TextInput
                  style={{ flex: 1 }}
                  label={target.kind === 'url' ? t('links.form.url') : t('links.form.phone')}
                  placeholder={target.kind === 'url' ? 'https://' : '(11) 91234-5678'}
                  value={target.value}
                  data-testid="target-value"
                  onChange={(e) => setTarget(i, { value: e.currentTarget.value })}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={t('links.form.removeTarget')}
                  disabled={draft.targets.length === 1}
                  onClick={() => setDraft((d) => ({ ...d, targets: d.targets.filter((_, j) => j !== i) }))}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Group>
              <Group gap="xs" align="end">
                <TextInput
                  style={{ flex: 1 }}
                  label={t('links.form.label')}
                  placeholder={t('links.form.labelPlaceholder')}
                  value={target.label}
                  maxLength={60}
                  data-testid="target-label"
                  onChange={(e) => setTarget(i, { label: e.currentTarget.value })}
                />
                {weighted && (
                  <NumberInput
                    w={110}
                    label={t('links.form.weight')}
                    min={1}
                    max={100}
                    value={target.weight}
                    onChange={(v) => setTarget(i, { weight: Number(v) || 1 })}
                  />
                )}
                <Switch
                  mb={8}
                  label={t('links.form.active')}
                  checked={target.active}
                  onChange={(e) => setTarget(i, { active: e.currentTarget.checked })}
                />
              </Group>
              {target.kind === 'whatsapp' && (
                <Textarea
                  label={t('links.form.message')}
                  description={t('links.form.messageHelp')}
                  autosize
                  minRows={1}
                  maxLength={500}
                  value={target.message}
                  onChange={(e) => setTarget(i, { message: e.currentTarget.value })}
                />
              )}
            </Stack>
          </Paper>
        ))}
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => setDraft((d) => ({ ...d, targets: [...d.targets, emptyTarget()] }))}
          disabled={draft.targets.length >= 50}
          data-testid="add-target"
        >
          {t('links.form.addTarget')}
        </Button>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t('links.cancel')}
          </Button>
          <Button onClick={save} loading={saving} data-testid="link-save">
            {t('links.form.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
