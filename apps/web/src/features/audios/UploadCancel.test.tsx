import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { UploadAudioModal } from './UploadAudioModal';

/**
 * The browser's XMLHttpRequest, held open: the upload reports 40 % and never finishes, as a
 * large file on a slow line would, until it is aborted (what the Cancel button must do).
 */
class SlowUpload {
  static last: SlowUpload | null = null;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onabort: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onload: (() => void) | null = null;
  sent = false;
  aborted = false;
  open() {}
  setRequestHeader() {}
  send() {
    this.sent = true;
    SlowUpload.last = this;
    queueMicrotask(() => this.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 } as ProgressEvent));
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
}

describe('an upload in progress can be canceled', () => {
  beforeAll(async () => {
    await i18n.use(initReactI18next).init({ lng: 'pt', resources: { pt: { translation: pt } } });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("the audio upload's Cancel aborts the request and goes back to the chosen file, with no error", async () => {
    vi.stubGlobal('XMLHttpRequest', SlowUpload);
    const uploaded = vi.fn();
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <UploadAudioModal opened onClose={() => {}} onUploaded={uploaded} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    fireEvent.drop(screen.getByRole('button', { name: /Arraste o áudio aqui/ }), {
      dataTransfer: { files: [new File([new Uint8Array(2048)], 'Aviso.mp3', { type: 'audio/mpeg' })] },
    });
    fireEvent.click(await screen.findByTestId('upload-submit'));
    await screen.findByText(pt.audios.upload.uploading.replace('{{percent}}', '40'));

    fireEvent.click(screen.getByRole('button', { name: pt.audios.upload.cancel }));
    expect(SlowUpload.last?.aborted).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('upload-progress')).toBeNull());
    expect(screen.queryByTestId('upload-error')).toBeNull();
    expect((screen.getByTestId('upload-name') as HTMLInputElement).value).toBe('Aviso');
    expect(uploaded).not.toHaveBeenCalled();
  });
});
