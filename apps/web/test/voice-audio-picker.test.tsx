import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wavFile } from '../../server/test/audio-builder.test-support';
import { multipart } from '../../server/test/multipart.test-support';
import { VoiceFields } from '../src/features/channels/VoiceFields';
import { realApi, useRealApi } from './real-api.test-support';
import { renderWithApp } from './render.test-support';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** An audio of the test user's, uploaded through the real server. */
async function uploadAudio(name: string): Promise<string> {
  const form = multipart([
    { name: 'name', value: name },
    { name: 'file', filename: 'voz.wav', content: wavFile({ sampleRate: 8000, seconds: 1 }) },
  ]);
  const res = await fetch(`${realApi().url}/api/v1/audios`, {
    method: 'POST',
    headers: { authorization: `Bearer ${realApi().userToken}`, ...form.headers },
    body: new Uint8Array(form.payload),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("the voice fields' audio picker", () => {
  it('searches the server for the typed name (once per pause) and offers what it finds', async () => {
    const run = Date.now().toString(36);
    await uploadAudio(`Recado ${run} alfa`);
    await uploadAudio(`Recado ${run} beta`);
    const searches: string[] = [];
    useRealApi(realApi().userToken, (path) => {
      if (path.startsWith('/api/v1/audios?') && path.includes('q=')) searches.push(decodeURIComponent(path));
      return undefined;
    });
    await renderWithApp(<VoiceFields value={{ mode: 'audio', audioId: null, tts: '' }} onChange={() => {}} />);
    const input = await screen.findByTestId('voice-audio');
    const typed = `${run} beta`;
    for (let i = 1; i <= typed.length; i++) fireEvent.change(input, { target: { value: typed.slice(0, i) } });

    expect(await screen.findByRole('option', { name: `Recado ${run} beta (0:01)` })).toBeTruthy();
    expect(screen.queryByRole('option', { name: `Recado ${run} alfa (0:01)` })).toBeNull();
    await waitFor(() => expect(searches).toHaveLength(1));
    expect(searches[0]).toContain(`q=${typed.replace(' ', '+')}`);
  });
});
