import { type CampaignContent, type RotatingLink, TRACKED_LINK_VARIABLE, trackedLinkSchema } from '@ecoa/shared';
import {
  Badge,
  Button,
  CloseButton,
  Group,
  Popover,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconLink, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PICKER_PAGE, useSearchPicker } from '../../../ui/useSearchPicker';
import { linksApi } from '../../links';
import { linksKeys } from '../../links/queryKeys';

const PLACEHOLDER = `{${TRACKED_LINK_VARIABLE}}`;
const linkLabel = (l: RotatingLink) => `${l.name} (/l/${l.slug})`;

/** The text with `{link}` at the end, unless it is there already. */
const withPlaceholder = (text: string) =>
  text.includes(PLACEHOLDER) ? text : `${text}${text && !/\s$/.test(text) ? ' ' : ''}${PLACEHOLDER}`;
/** The text without `{link}` and the space it leaves. */
const withoutPlaceholder = (text: string) => text.replaceAll(PLACEHOLDER, '').replace(/ {2,}/g, ' ').trim();

/**
 * "Insert link" in an SMS or RCS text: a rotating link or any address becomes `{link}`, which
 * each recipient receives as their own short tracked address (`PUBLIC_URL/l/_…`).
 */
export function TrackedLinkPicker({
  content,
  onChange,
}: {
  content: CampaignContent;
  onChange: (content: CampaignContent) => void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [kind, setKind] = useState<'rotating' | 'url'>('rotating');
  const [linkId, setLinkId] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const tracked = content.trackedLink;
  const chosenId = tracked && 'rotatingLinkId' in tracked ? tracked.rotatingLinkId : null;
  // The newest links, or the server's search (name or address) over all of them.
  const links = useSearchPicker<RotatingLink>({
    keys: linksKeys.picker,
    search: (q) => linksApi.list(q, 1, PICKER_PAGE),
    byId: linksApi.get,
    chosen: [chosenId, linkId].filter((id): id is string => Boolean(id)),
    labelOf: linkLabel,
  });
  const chosen =
    tracked && 'url' in tracked ? tracked.url : chosenId ? (links.known.get(chosenId)?.name ?? '…') : undefined;

  const candidate = kind === 'rotating' ? (linkId ? { rotatingLinkId: linkId } : null) : { url: url.trim() };
  const valid = candidate !== null && trackedLinkSchema.safeParse(candidate).success;
  const insert = () => {
    if (!valid || !candidate) return;
    onChange({ ...content, trackedLink: candidate, text: withPlaceholder(content.text ?? '') });
    setOpened(false);
  };

  return (
    <Group gap="xs">
      {tracked && (
        <Badge
          variant="light"
          size="lg"
          leftSection={<IconLink size={14} />}
          rightSection={
            // A real button: reachable with Tab, pressed with Enter or Space.
            <CloseButton
              size="xs"
              icon={<IconX size={14} />}
              aria-label={t('campaignWizard.link.remove')}
              data-testid="tracked-link-remove"
              onClick={() => {
                const { trackedLink: _, ...rest } = content;
                onChange({ ...rest, text: withoutPlaceholder(content.text ?? '') });
              }}
            />
          }
          style={{ textTransform: 'none', maxWidth: 320 }}
          data-testid="tracked-link-chosen"
        >
          {chosen}
        </Badge>
      )}
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} withinPortal trapFocus>
        <Popover.Target>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconLink size={14} />}
            onClick={() => setOpened((o) => !o)}
            data-testid="insert-link"
          >
            {t(tracked ? 'campaignWizard.link.change' : 'campaignWizard.link.insert')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <SegmentedControl
              size="xs"
              value={kind}
              onChange={(v) => setKind(v as 'rotating' | 'url')}
              data={[
                { value: 'rotating', label: t('campaignWizard.link.rotating') },
                { value: 'url', label: t('campaignWizard.link.url') },
              ]}
              data-testid="tracked-link-kind"
            />
            {kind === 'rotating' ? (
              links.items && links.items.length === 0 && !links.searching && !links.typed ? (
                <Text size="sm" c="dimmed">
                  {t('campaignWizard.link.noRotating')}
                </Text>
              ) : (
                <Select
                  searchable
                  placeholder={t('campaignWizard.link.chooseRotating')}
                  data={(links.withChosen ?? []).map((l) => ({ value: l.id, label: linkLabel(l) }))}
                  searchValue={links.typed}
                  onSearchChange={links.setTyped}
                  nothingFoundMessage={t('campaignWizard.link.noMatch')}
                  value={linkId}
                  onChange={setLinkId}
                  comboboxProps={{ withinPortal: false }}
                  data-testid="tracked-link-rotating"
                />
              )
            ) : (
              <TextInput
                placeholder="https://"
                value={url}
                onChange={(e) => setUrl(e.currentTarget.value)}
                error={url.trim() && !valid ? t('campaignWizard.link.urlInvalid') : undefined}
                data-testid="tracked-link-url"
              />
            )}
            <Text size="xs" c="dimmed">
              {t('campaignWizard.link.help')}
            </Text>
            <Group justify="flex-end">
              <Button size="xs" onClick={insert} disabled={!valid} data-testid="tracked-link-insert">
                {t('campaignWizard.link.confirm')}
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
