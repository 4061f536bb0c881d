import type { AccessLevel } from '@ecoa/shared';

/** Unit prices in reais (spec section 3, "User (session)"). */
export interface PriceTable {
  smsShort: number;
  smsFlash: number;
  whatsapp: number;
  ura: number;
  rcs: number;
  uraIntegration: number;
  enriched: number;
}

/** `GET /api/me`: the signed-in user, with the spec's field names. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  accessLevel: AccessLevel;
  isNewUser: boolean;
  userProfileImageLink: string | null;
  balance: { money: number };
  permissions: { enriched: string[] };
  priceTable: PriceTable;
}

/** `POST /api/auth/login` answer. */
export interface LoginResponse {
  accessToken: string;
  user: SessionUser;
}
