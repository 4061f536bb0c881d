import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../public/locales/en.json';
import { ledgerOf, recordPix, setPrices } from '../../../test/money-setup.test-support';
import { realApi, useRealApi } from '../../../test/real-api.test-support';
import { renderWithApp } from '../../../test/render.test-support';
import { SessionProvider } from '../../platform/SessionProvider';
import { TransferForm } from './TransferForm';

const TRANSFER = '/api/v1/credits/transfer';
const keyOf = (init: RequestInit | undefined) =>
  ((init?.headers ?? {}) as Record<string, string>)['Idempotency-Key'] ?? '';

/** The conversion rows against the real server, signed in as a user no other test file touches. */
describe('TransferForm (real server)', () => {
  const user = realApi().spareUsers[0]!;
  beforeAll(async () => {
    await setPrices(user.id, { smsShort: 0.1, smsFlash: 0.2 });
    await recordPix(user.id, 300);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  describe('one Idempotency-Key per submission, per row', () => {
    /** Each transfer the client sent: its row and key. */
    let sent: { type: string; key: string }[];
    /** Opened by the test: the first transfer's answer is held until then, and then lost. */
    let releaseFirst: () => void;
    beforeEach(() => {
      sent = [];
      const held = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      useRealApi(user.token, (path, init) => {
        if (path !== TRANSFER) return undefined;
        sent.push({ type: JSON.parse(String(init?.body)).type, key: keyOf(init) });
        if (sent.length !== 1) return undefined;
        // The first conversion reaches the server and is applied; its answer is held in flight
        // while the user converts another row, then lost (a dropped connection).
        return fetch(`${realApi().url}${path}`, init).then(async () => {
          await held;
          throw new TypeError('Failed to fetch');
        });
      });
    });

    it('a second row converted while the first is in flight keeps the first one’s key for its retry', async () => {
      const before = (await ledgerOf(user.token)).filter((e) => e.kind === 'TRANSFER_IN').length;
      await renderWithApp(
        <SessionProvider>
          <TransferForm />
        </SessionProvider>,
      );
      const convert = async (type: string, quantity: string) => {
        fireEvent.change(await screen.findByTestId(`transfer-quantity-${type}`), { target: { value: quantity } });
        // Enabled once the session's prices and the balance are in.
        await waitFor(() => expect(screen.getByTestId(`transfer-submit-${type}`).hasAttribute('disabled')).toBe(false));
        fireEvent.click(screen.getByTestId(`transfer-submit-${type}`));
      };
      await convert('SMSSHORT', '100');
      await waitFor(() => expect(sent).toHaveLength(1));
      // The first row is still converting: the user converts the second one.
      await convert('SMSFLASH', '50');
      await waitFor(() => expect(sent).toHaveLength(2));
      await waitFor(() =>
        expect(screen.getByTestId('transfer-submit-SMSFLASH').hasAttribute('data-loading')).toBe(false),
      );
      expect(screen.getByTestId('transfer-submit-SMSSHORT').hasAttribute('data-loading')).toBe(true);
      releaseFirst();
      await waitFor(() =>
        expect(screen.getByTestId('transfer-submit-SMSSHORT').hasAttribute('data-loading')).toBe(false),
      );
      // The first row's answer was lost: the user sends it again, the same submission.
      fireEvent.click(screen.getByTestId('transfer-submit-SMSSHORT'));
      await waitFor(() => expect(sent).toHaveLength(3));
      await waitFor(() =>
        expect(screen.getByTestId('transfer-submit-SMSSHORT').hasAttribute('data-loading')).toBe(false),
      );

      expect(sent.map((s) => s.type)).toEqual(['SMSSHORT', 'SMSFLASH', 'SMSSHORT']);
      expect(sent[1]!.key).not.toBe(sent[0]!.key);
      expect(sent[2]!.key).toBe(sent[0]!.key);
      // The ledger: exactly one movement per submission (100 SMS, 50 flash), none twice.
      const moved = (await ledgerOf(user.token)).filter((e) => e.kind === 'TRANSFER_IN');
      expect(moved.length - before).toBe(2);
      expect(
        moved
          .slice(0, 2)
          .map((e) => `${e.type} ${e.amount}`)
          .sort(),
      ).toEqual(['SMSFLASH 50', 'SMSSHORT 100']);
    });
  });

  it('each row is judged as typed by the ledger’s rules, in the user’s language, and cannot be converted then', async () => {
    const sent: string[] = [];
    useRealApi(user.token, (path) => {
      if (path === TRANSFER) sent.push(path);
      return undefined;
    });
    await renderWithApp(
      <SessionProvider>
        <TransferForm />
      </SessionProvider>,
      { lng: 'en' },
    );
    const row = async (type: string, quantity: string) => {
      fireEvent.change(await screen.findByTestId(`transfer-quantity-${type}`), { target: { value: quantity } });
      return screen.getByTestId(`transfer-row-${type}`);
    };
    // No price for URA in this account; SMS Short beyond the balance (R$ 1.000.000 at R$ 0,10).
    const ura = await row('URA', '10');
    await waitFor(() => expect(ura.textContent).toContain(en.credits.priceNotConfigured));
    const sms = await row('SMSSHORT', '10000000');
    await waitFor(() => expect(sms.textContent).toContain(en.credits.invalidQuantity));
    for (const type of ['URA', 'SMSSHORT']) {
      const submit = screen.getByTestId(`transfer-submit-${type}`);
      expect(submit.hasAttribute('disabled')).toBe(true);
      fireEvent.click(submit);
    }
    expect(sent).toEqual([]);
  });
});
