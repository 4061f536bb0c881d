import { vi } from 'vitest';

/** What `GET /api/me` answers for a signed-in user with no money and no prices yet; `overrides` for the rest. */
export const signedInUser = (overrides: Partial<{ name: string; email: string; accessLevel: string }> = {}) => ({
  id: 'u1',
  name: 'Acme',
  email: 'ana@acme.com.br',
  accessLevel: 'USER',
  isNewUser: false,
  userProfileImageLink: null,
  balance: { money: 0 },
  permissions: { enriched: [] as string[] },
  priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, rcs: 0, uraIntegration: 0, enriched: 0 },
  ...overrides,
});

/**
 * What `useSession` gives the money forms when a test replaces the session
 * (`vi.mock('…/platform/SessionProvider', () => ({ useSession: () => session }))`): R$ 1.234,50 and
 * SMS Short at R$ 0,085.
 */
export const moneyFormSession = () => ({
  user: {
    email: 'ana@empresa.com.br',
    balance: { money: 1234.5 },
    priceTable: { smsShort: 0.085, smsFlash: 0, whatsapp: 0, ura: 0, rcs: 0, uraIntegration: 0, enriched: 0 },
  },
  refreshUser: vi.fn(),
});
