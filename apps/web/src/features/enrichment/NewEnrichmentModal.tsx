import '@mantine/dropzone/styles.css';
import { cnpjChars, cnpjProblem, MAX_UPLOAD_BYTES } from '@ecoa/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Progress,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconAlertCircle, IconFileSpreadsheet, IconUpload, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../platform/i18n';
import { creditsApi } from '../credits';
import { creditsKeys } from '../credits/queryKeys';
import { enrichmentApi } from './enrichmentApi';
import { enrichmentErrorText } from './errors';

const ACCEPT = {
  'text/csv': ['.csv'],
  'text/plain': ['.txt', '.csv'],
  'application/vnd.ms-excel': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
};

/** Pasted text: one CNPJ per line (or separated by commas, semicolons, spaces between masked ones). */
function pastedCnpjs(text: string): string[] {
  return text
    .split(/[\n,;\t]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The same checks the server makes, live: valid, invalid, duplicates. */
function countOf(values: string[]) {
  const seen = new Set<string>();
  let invalid = 0;
  let duplicates = 0;
  for (const v of values) {
    const c = cnpjChars(v);
    if (cnpjProblem(c)) invalid++;
    else if (seen.has(c)) duplicates++;
    else seen.add(c);
  }
  return { valid: seen.size, invalid, duplicates };
}

/** A new enrichment: a spreadsheet (its CNPJ column is found by itself) or pasted CNPJs. */
export function NewEnrichmentModal({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const [source, setSource] = useState<'file' | 'paste'>('file');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [onlyActive, setOnlyActive] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const balance = useQuery({ queryKey: creditsKeys.balance, queryFn: creditsApi.balance });
  const available = balance.data?.credits.ENRICHED.available;
  const counts = useMemo(() => countOf(pastedCnpjs(text)), [text]);
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const ready = source === 'file' ? file !== null : counts.valid > 0;

  const submit = async () => {
    setError(null);
    setProgress(0);
    try {
      const label = name.trim() || file?.name.replace(/\.[^.]+$/, '') || t('enrichment.new.defaultName');
      const { id } =
        source === 'file' && file
          ? await enrichmentApi.createFromFile({ file, name: label, onlyActive }, setProgress)
          : await enrichmentApi.createFromText({ name: label, cnpjs: pastedCnpjs(text), onlyActive });
      onCreated(id);
    } catch (err) {
      setError(enrichmentErrorText(t, err));
      setProgress(null);
    }
  };

  return (
    <Modal opened onClose={onClose} size="lg" title={t('enrichment.new.title')}>
      <Stack gap="md">
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="enrichment-error">
            {error}
          </Alert>
        )}
        <TextInput
          label={t('enrichment.new.name')}
          placeholder={t('enrichment.new.namePlaceholder')}
          value={name}
          maxLength={120}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="enrichment-name"
        />
        <SegmentedControl
          value={source}
          onChange={(v) => setSource(v as 'file' | 'paste')}
          data={[
            { value: 'file', label: t('enrichment.new.fromFile') },
            { value: 'paste', label: t('enrichment.new.fromText') },
          ]}
          data-testid="enrichment-source"
        />
        {source === 'file' ? (
          <Dropzone
            onDrop={(files) => {
              setFile(files[0] ?? null);
              setError(null);
            }}
            onReject={(rejections) =>
              setError(
                t(
                  rejections[0]?.errors[0]?.code === 'file-too-large'
                    ? 'errors.codes.FILE_TOO_LARGE'
                    : 'errors.codes.UNSUPPORTED_FILE_TYPE',
                ),
              )
            }
            maxSize={MAX_UPLOAD_BYTES}
            maxFiles={1}
            multiple={false}
            accept={ACCEPT}
            data-testid="enrichment-dropzone"
          >
            <Group justify="center" gap="lg" mih={120} style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={40} stroke={1.5} />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={40} stroke={1.5} />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconFileSpreadsheet size={40} stroke={1.5} />
              </Dropzone.Idle>
              <Stack gap={4}>
                <Text fw={600}>{file ? file.name : t('enrichment.new.drop')}</Text>
                <Text size="sm" c="dimmed">
                  {t('enrichment.new.dropHint')}
                </Text>
              </Stack>
            </Group>
          </Dropzone>
        ) : (
          <Stack gap={6}>
            <Textarea
              autosize
              minRows={5}
              maxRows={12}
              placeholder={'11.222.333/0001-81\n12.ABC.345/01DE-35'}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              data-testid="enrichment-text"
            />
            <Group gap="xs">
              <Badge color="teal" variant="light" data-testid="enrichment-count-valid">
                {t('enrichment.new.valid', { count: counts.valid })}
              </Badge>
              <Badge color="red" variant="light">
                {t('enrichment.new.invalid', { count: counts.invalid })}
              </Badge>
              <Badge color="gray" variant="light">
                {t('enrichment.new.duplicates', { count: counts.duplicates })}
              </Badge>
            </Group>
          </Stack>
        )}
        <Switch
          label={t('enrichment.new.onlyActive')}
          description={t('enrichment.new.onlyActiveHelp')}
          checked={onlyActive}
          onChange={(e) => setOnlyActive(e.currentTarget.checked)}
          data-testid="enrichment-only-active"
        />
        <Text size="sm" c="dimmed">
          {t('enrichment.new.pricing', { available: available === undefined ? '…' : number.format(available) })}
        </Text>
        {progress !== null && <Progress value={progress * 100} animated />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('enrichment.cancel')}
          </Button>
          <Button onClick={submit} disabled={!ready} loading={progress !== null} data-testid="enrichment-start">
            {t('enrichment.new.start')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
