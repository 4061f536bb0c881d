import type { CampaignSummary } from '@ecoa/shared';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render.test-support';
import { CampaignsTable } from './CampaignsTable';
import { browserShowsSaoPaulo } from './times';

const base: CampaignSummary = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Natal',
  channel: 'sms_short',
  status: 'SCHEDULED',
  total: 10,
  done: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  awaiting: 0,
  creditsUsed: 0,
  statusReason: null,
  waitingWindow: false,
  createdAt: '2026-11-30T23:10:00.000Z',
  // 02:30 UTC on 1 December is 23:30 on 30 November in São Paulo: the day changes too.
  scheduledAt: '2026-12-01T02:30:00.000Z',
  startedAt: null,
  finishedAt: null,
};

describe('CampaignsTable times', () => {
  afterEach(cleanup);

  it('shows a schedule in São Paulo time, and says so where the browser is elsewhere', async () => {
    // The tests run in UTC (TZ of the machine and CI): a browser outside São Paulo's zone.
    expect(browserShowsSaoPaulo(new Date(base.scheduledAt!))).toBe(false);
    await renderWithApp(<CampaignsTable items={[base]} />);
    const row = screen.getByTestId('campaign-row');
    expect(within(row).getByText('30/11/2026, 23:30')).toBeTruthy();
    expect(screen.getByText('Criada / agendada (horário de Brasília)')).toBeTruthy();
  });
});
