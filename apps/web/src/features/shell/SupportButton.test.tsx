import { PUBLIC_CONFIG_PATH, publicConfigSchema } from '@ecoa/shared';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pt from '../../../public/locales/pt.json';
import { type ApiServer, serveApi } from '../../../test/api-server.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { SupportButton } from './SupportButton';

describe('SupportButton', () => {
  let server: ApiServer;
  beforeEach(async () => {
    // What the server answers when started with SUPPORT_WHATSAPP=5521987654321.
    server = await serveApi({ [PUBLIC_CONFIG_PATH]: publicConfigSchema.parse({ supportWhatsapp: '5521987654321' }) });
  });
  afterEach(async () => {
    cleanup();
    await server.close();
  });

  it('links to the support number the server serves at run time, never a placeholder', async () => {
    await renderWithApp(<SupportButton />);
    const button = screen.getByTestId('support-button');
    expect(button.getAttribute('href')).toBeNull();
    await waitFor(() =>
      expect(button.getAttribute('href')).toBe(
        `https://wa.me/5521987654321?text=${encodeURIComponent(pt.shell.supportMessage)}`,
      ),
    );
    expect(server.requests).toEqual([`GET ${PUBLIC_CONFIG_PATH}`]);
  });
});
