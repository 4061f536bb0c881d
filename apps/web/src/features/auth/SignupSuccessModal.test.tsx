import { PUBLIC_CONFIG_PATH } from '@ecoa/shared';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiServer, serveApi } from '../../../test/api-server.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { platformKeys } from '../../platform/queryKeys';
import { SignupSuccessModal } from './SignupSuccessModal';

describe('SignupSuccessModal', () => {
  let server: ApiServer;
  beforeEach(async () => {
    server = await serveApi({ [PUBLIC_CONFIG_PATH]: { supportWhatsapp: '5521987654321' } });
  });
  afterEach(async () => {
    cleanup();
    vi.restoreAllMocks();
    await server.close();
  });

  it('"talk to support" opens the chat with the number the server serves', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => ({ opener: window }) as unknown as Window);
    const onClose = vi.fn();
    const { queryClient } = await renderWithApp(
      <SignupSuccessModal result={{ company: 'Padaria Aurora', email: 'ana@aurora.com.br' }} onClose={onClose} />,
    );
    await waitFor(() => expect(queryClient.getQueryData(platformKeys.publicConfig)).toBeDefined());
    fireEvent.click(screen.getByTestId('signup-success-support'));
    expect(open).toHaveBeenCalledTimes(1);
    const url = decodeURIComponent(String(open.mock.calls[0]![0]));
    expect(url).toMatch(/^https:\/\/wa\.me\/5521987654321\?text=/);
    expect(url).toContain('Padaria Aurora');
    expect(onClose).toHaveBeenCalled();
  });
});
