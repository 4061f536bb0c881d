import { Group, UnstyledButton } from '@mantine/core';
import { IconFileMusic, IconUpload } from '@tabler/icons-react';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DropPrompt } from '../../ui/DropPrompt';

/** The file chooser's hint: audio types and the usual extensions. The server decides by content. */
const ACCEPT = 'audio/*,.mp3,.wav,.ogg,.oga,.opus';

/**
 * Drop an audio here or click to choose one. A small drop area of our own rather than Mantine's
 * Dropzone: the lists page has that one in its chunk, and a second page using it would move
 * react-dropzone (~18 KB gzip) into the chunk every signed-in page loads. Any dropped file goes
 * to the server, which decides by content (a WAV named .mp3 is a WAV) and says why it refuses.
 */
export function AudioDropArea({ onFile }: { onFile: (file: File) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };

  return (
    <div data-testid="upload-dropzone">
      <UnstyledButton
        component="div"
        role="button"
        tabIndex={0}
        onClick={() => input.current?.click()}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            input.current?.click();
          }
        }}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-over={over || undefined}
        style={{
          display: 'block',
          width: '100%',
          padding: 'var(--mantine-spacing-md)',
          border: `1px dashed ${over ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
          borderRadius: 'var(--mantine-radius-md)',
          backgroundColor: over ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default)',
          transition: 'background-color 120ms ease, border-color 120ms ease',
        }}
      >
        <Group justify="center" gap="lg" mih={150} wrap="nowrap">
          {over ? <IconUpload size={48} stroke={1.5} /> : <IconFileMusic size={48} stroke={1.5} />}
          <DropPrompt title={t('audios.upload.drop')} hint={t('audios.upload.dropHint')} size="lg" />
        </Group>
      </UnstyledButton>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) onFile(file);
        }}
      />
    </div>
  );
}
