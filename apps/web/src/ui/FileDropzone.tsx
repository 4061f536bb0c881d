import '@mantine/dropzone/styles.css';
import { Group } from '@mantine/core';
import { Dropzone, type DropzoneProps } from '@mantine/dropzone';
import { IconFileSpreadsheet, IconUpload, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DropPrompt } from './DropPrompt';

/**
 * One spreadsheet, dropped or picked: its icon changes as a file is dragged over (accepted or
 * not); a refused file (too large, not a spreadsheet) is reported in the user's language.
 */
export function SpreadsheetDropzone({
  onDrop,
  onRefused,
  title,
  hint,
  size,
  ...props
}: Omit<DropzoneProps, 'onReject' | 'children' | 'maxFiles' | 'multiple'> & {
  onRefused: (reason: string) => void;
  title: ReactNode;
  hint: ReactNode;
  /** 'lg': the bigger area of a modal given to it alone. */
  size?: 'lg';
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const icon = size === 'lg' ? 48 : 40;
  return (
    <Dropzone
      onDrop={onDrop}
      onReject={(rejections) =>
        onRefused(
          t(
            rejections[0]?.errors[0]?.code === 'file-too-large'
              ? 'errors.codes.FILE_TOO_LARGE'
              : 'errors.codes.UNSUPPORTED_FILE_TYPE',
          ),
        )
      }
      maxFiles={1}
      multiple={false}
      {...props}
    >
      <Group justify="center" gap="lg" mih={size === 'lg' ? 160 : 120} style={{ pointerEvents: 'none' }}>
        <Dropzone.Accept>
          <IconUpload size={icon} stroke={1.5} />
        </Dropzone.Accept>
        <Dropzone.Reject>
          <IconX size={icon} stroke={1.5} />
        </Dropzone.Reject>
        <Dropzone.Idle>
          <IconFileSpreadsheet size={icon} stroke={1.5} />
        </Dropzone.Idle>
        <DropPrompt title={title} hint={hint} size={size} />
      </Group>
    </Dropzone>
  );
}
