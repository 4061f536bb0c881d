import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { renderWithApp, resetAfterEach } from '../../../test/render.test-support';
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
  resetAfterEach();

  it("the audio upload's Cancel aborts the request and goes back to the chosen file, with no error", async () => {
    vi.stubGlobal('XMLHttpRequest', SlowUpload);
    const uploaded = vi.fn();
    await renderWithApp(<UploadAudioModal opened onClose={() => {}} onUploaded={uploaded} />);
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
