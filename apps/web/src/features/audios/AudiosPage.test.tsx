import type { Audio } from '@ecoa/shared';
import { Notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { renderWithApp, resetAfterEach, withGlobalPtTexts } from '../../../test/render.test-support';
import { ApiError } from '../../platform/api';
import { storage } from '../../platform/storage';
import { AudiosPage } from './AudiosPage';
import { audioErrorText } from './errors';
import { formatBytes, formatDuration, nameFromFile } from './format';
import { UploadAudioModal } from './UploadAudioModal';

const audio: Audio = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Promoção de março',
  format: 'mp3',
  codec: 'mp3',
  durationSeconds: 83.4,
  sizeBytes: 1_340_000,
  sampleRate: 44_100,
  channels: 2,
  createdAt: '2026-03-02T10:00:00.000Z',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const page = (items: Audio[]) => json({ items, page: 1, pageSize: 20, total: items.length });

const renderPage = () =>
  renderWithApp(
    <>
      <Notifications />
      <AudiosPage />
    </>,
  );

describe('AudiosPage', () => {
  withGlobalPtTexts();
  resetAfterEach(() => storage.setToken(null));

  it('lists each audio with its duration (m:ss), size and date', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => page([audio])),
    );
    await renderPage();
    const row = await screen.findByTestId(`audio-row-${audio.id}`);
    expect(within(row).getByTestId('audio-name').textContent).toBe('Promoção de março');
    expect(within(row).getByTestId('audio-duration').textContent).toBe('1:23');
    expect(within(row).getByTestId('audio-size').textContent).toBe('1,3 MB');
    expect(within(row).getByTestId('audio-date').textContent).toBe('02/03/2026');
    expect(row.textContent).toContain('MP3');
  });

  it('says what audios are for when there is none', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => page([])),
    );
    await renderPage();
    const empty = await screen.findByTestId('audios-empty');
    expect(empty.textContent).toContain('Nenhum áudio ainda');
    expect(empty.textContent).toContain('torpedo de voz');
    expect(empty.textContent).toContain('até 3 minutos e 10 MB');
  });

  it('plays the file fetched with the session token, from an object URL', async () => {
    storage.setToken('the-session-token');
    const fetchMock = vi.fn(async (url: string) =>
      String(url).endsWith('/file')
        ? new Response(new Uint8Array([0xff, 0xfb, 0x90, 0]), {
            headers: { 'content-type': 'audio/mpeg' },
          })
        : page([audio]),
    );
    vi.stubGlobal('fetch', fetchMock);
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:http://localhost/audio-1';
    });
    URL.revokeObjectURL = vi.fn();
    await renderPage();
    const row = await screen.findByTestId(`audio-row-${audio.id}`);
    fireEvent.click(within(row).getByTestId('audio-play'));
    const player = (await within(row).findByTestId('audio-player')) as HTMLAudioElement;
    expect(player.getAttribute('src')).toBe('blob:http://localhost/audio-1');
    const [fileUrl, init] = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/file')) as unknown as [
      string,
      RequestInit,
    ];
    expect(fileUrl).toBe(`/api/v1/audios/${audio.id}/file`);
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer the-session-token');
    expect(created[0]?.size).toBe(4);
    // Closing the player releases the object URL.
    fireEvent.click(within(row).getByTestId('audio-play'));
    await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/audio-1'));
  });

  it('tells why a delete is refused while a campaign uses the audio', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) =>
        init?.method === 'DELETE'
          ? json({ code: 'AUDIO_IN_USE', message: 'Este áudio está em uma campanha…' }, 409)
          : page([audio]),
      ),
    );
    await renderPage();
    const row = await screen.findByTestId(`audio-row-${audio.id}`);
    fireEvent.click(within(row).getByTestId('audio-menu'));
    fireEvent.click(await screen.findByTestId('action-delete'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    expect(await screen.findByText(pt.errors.codes.AUDIO_IN_USE)).toBeTruthy();
  });
});

describe('audio formats', () => {
  it('durations as m:ss, rounded like the server’s 3-minute limit', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(9.4)).toBe('0:09');
    expect(formatDuration(59.5)).toBe('1:00');
    expect(formatDuration(180.4)).toBe('3:00');
    expect(formatDuration(605)).toBe('10:05');
  });

  it('sizes in KB and MB, in the user’s locale', () => {
    expect(formatBytes(300, 'pt-BR')).toBe('1 KB');
    expect(formatBytes(812 * 1024, 'pt-BR')).toBe('812 KB');
    expect(formatBytes(1.25 * 1024 * 1024, 'pt-BR')).toBe('1,3 MB');
    expect(formatBytes(1.25 * 1024 * 1024, 'en-US')).toBe('1.3 MB');
  });

  it('names an upload after its file', () => {
    expect(nameFromFile('Mensagem de boas-vindas.mp3')).toBe('Mensagem de boas-vindas');
    expect(nameFromFile('sem-extensao')).toBe('sem-extensao');
    expect(nameFromFile(`${'x'.repeat(200)}.wav`)).toHaveLength(120);
  });
});

describe('audio errors', () => {
  it('a refusal for length says how long the file is; other codes use their translation', async () => {
    const t = i18n.getFixedT('pt');
    const tooLong = new ApiError(400, 'O áudio pode ter no máximo 3 minutos.', 'AUDIO_TOO_LONG', {
      maxSeconds: 180,
      durationSeconds: 241.2,
    });
    expect(audioErrorText(t, tooLong)).toBe('Este áudio dura 4:01; o máximo é 3 minutos.');
    expect(audioErrorText(t, new ApiError(415, 'x', 'AUDIO_TYPE_NOT_ALLOWED'))).toBe(
      pt.errors.codes.AUDIO_TYPE_NOT_ALLOWED,
    );
    expect(audioErrorText(t, new ApiError(500, 'x', 'INTERNAL'))).toBe(pt.audios.errors.generic);
    expect(audioErrorText(t, new ApiError(404, 'x'))).toBe(pt.audios.errors.generic);
  });
});

describe('UploadAudioModal', () => {
  const renderModal = () => renderWithApp(<UploadAudioModal opened onClose={() => {}} onUploaded={() => {}} />);
  const drop = (file: File) =>
    fireEvent.drop(screen.getByRole('button', { name: /Arraste o áudio aqui/ }), { dataTransfer: { files: [file] } });

  resetAfterEach();

  it('takes a dropped file and names the audio after it', async () => {
    await renderModal();
    drop(new File([new Uint8Array(2048)], 'Mensagem de boas-vindas.mp3', { type: 'audio/mpeg' }));
    expect(((await screen.findByTestId('upload-name')) as HTMLInputElement).value).toBe('Mensagem de boas-vindas');
    expect(screen.getByTestId('upload-file-name').textContent).toBe('Mensagem de boas-vindas.mp3');
  });

  it('says at once when a file is over 10 MB', async () => {
    await renderModal();
    const big = new File([new Uint8Array(1)], 'grande.wav');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    drop(big);
    expect((await screen.findByTestId('upload-error')).textContent).toBe(pt.errors.codes.AUDIO_TOO_LARGE);
    expect(screen.queryByTestId('upload-name')).toBeNull();
  });
});
