import type { ContactList } from '@ecoa/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp, resetAfterEach, withGlobalPtTexts } from '../../../test/render.test-support';
import { ListsPage } from './ListsPage';

const base: ContactList = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Clientes SP',
  status: 'ready',
  progress: 100,
  rowsProcessed: 10,
  total: 10,
  valid: 7,
  mobiles: 5,
  landlines: 2,
  invalid: 2,
  duplicates: 1,
  optedOut: 1,
  fileName: 'clientes.csv',
  fields: ['empresa'],
  createdAt: '2026-01-02T10:00:00.000Z',
  finishedAt: '2026-01-02T10:00:05.000Z',
};

function page(items: ContactList[]) {
  return new Response(JSON.stringify({ items, page: 1, pageSize: 20, total: items.length }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

const renderPage = () => renderWithApp(<ListsPage />);

describe('ListsPage', () => {
  withGlobalPtTexts();
  resetAfterEach();

  it('shows counts of a ready list, the progress of an importing one, and why one failed', async () => {
    const importing = {
      ...base,
      id: '00000000-0000-4000-8000-000000000002',
      name: 'Grande',
      status: 'importing' as const,
      progress: 42,
      rowsProcessed: 420_000,
    };
    const failed = {
      ...base,
      id: '00000000-0000-4000-8000-000000000003',
      name: 'Quebrada',
      status: 'failed' as const,
      errorCode: 'CSV_RAGGED',
      error: 'Muitas linhas…',
    };
    const tooLarge = {
      ...base,
      id: '00000000-0000-4000-8000-000000000004',
      name: 'Bomba',
      status: 'failed' as const,
      errorCode: 'XLSX_TOO_LARGE',
      errorDetails: { limit: 'ratio' as const, max: 200 },
      error: 'A planilha XLSX…',
    };
    // The lists page also mounts the opt-outs panel: it gets an empty opt-out list.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        String(url).includes('/opt-outs') ? page([]) : page([importing, failed, tooLarge, base]),
      ),
    );
    await renderPage();
    const ready = await screen.findByTestId(`list-row-${base.id}`);
    expect(within(ready).getByTestId('count-total').textContent).toBe('10');
    expect(within(ready).getByTestId('count-valid').textContent).toContain('5 celulares · 2 fixos');
    expect(within(ready).getByTestId('count-opted-out').textContent).toBe('1');
    const running = screen.getByTestId(`list-row-${importing.id}`);
    expect(within(running).getByTestId('list-progress').textContent).toContain('42%');
    expect(within(running).getByTestId('list-progress').textContent).toContain('420.000 linhas lidas');
    expect(within(running).getByTestId('count-total').textContent).toBe('—');
    const broken = screen.getByTestId(`list-row-${failed.id}`);
    expect(within(broken).getByTestId('list-error').textContent).toContain('número de colunas diferente');
    // A limit passed is named, with its maximum, and CSV is suggested.
    expect(within(screen.getByTestId(`list-row-${tooLarge.id}`)).getByTestId('list-error').textContent).toBe(
      'A planilha XLSX cresce mais de 200 vezes ao descompactar: é mais do que conseguimos ler com segurança. Salve como CSV e envie de novo.',
    );
  });

  it('invites to import when there is no list', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => page([])),
    );
    await renderPage();
    expect(await screen.findByText('Nenhuma lista ainda')).toBeTruthy();
  });
});
