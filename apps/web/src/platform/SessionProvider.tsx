import type { LoginResponse, PublicUser } from '@ecoa/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from 'react';
import { api, isApiError, sessionToken } from './api';
import { i18n } from './i18n';
import { notify } from './notify';
import { platformKeys } from './queryKeys';

export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

export interface Session {
  status: SessionStatus;
  user: PublicUser | null;
  /** Keeps the token and the user of a successful sign-in. */
  signIn: (response: LoginResponse) => void;
  /** Revokes the token on the server (best effort) and forgets the session. */
  signOut: () => Promise<void>;
  /** Fetches the user again (e.g. after a payment); resolves to the fresh user. */
  refreshUser: () => Promise<PublicUser | null>;
}

/** The session's own calls (spec section 7); signing in is the sign-in flow's (`features/auth`). */
const sessionApi = {
  me: () => api.get<PublicUser>('/api/me'),
  logout: () => api.post<unknown>('/api/auth/logout'),
};

const SessionContext = createContext<Session | null>(null);

/** Waits before each new try when the server could not be reached at all. */
const NO_ANSWER_RETRY_MS = [500, 1500, 3000];

/**
 * GET /api/me, tried again when no answer came at all (status 0: the page is being left, a
 * network blip, the server restarting). Only an answer ends a session: a request cut off by
 * navigating away must not sign the user out of the next page.
 */
async function fetchMeThroughBlips(): Promise<PublicUser> {
  for (const wait of NO_ANSWER_RETRY_MS) {
    try {
      return await sessionApi.me();
    } catch (err) {
      if (!isApiError(err) || err.status !== 0) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return sessionApi.me();
}

/**
 * The session (spec section 4): the token lives in localStorage; on load, when a token exists,
 * the user is fetched (a spinner shows meanwhile); a failure shows the login-expired toast and
 * clears the token. Any 401 elsewhere clears the token (platform/api) and this provider follows,
 * silently.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(sessionToken.subscribe, sessionToken.get, () => null);

  const me = useQuery({
    queryKey: platformKeys.me,
    queryFn: async () => {
      // No user yet: this is the session's first load (a stored token, or one from another tab).
      const firstLoad = queryClient.getQueryData(platformKeys.me) === undefined;
      try {
        return await fetchMeThroughBlips();
      } catch (err) {
        if (firstLoad) {
          // Whatever the failure (a 401 has already cleared the token), the session is over.
          notify.error(i18n.t('errors.loginExpired'));
          sessionToken.set(null);
        }
        throw err;
      }
    },
    enabled: token !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

  // Signed out (by us, by a 401 anywhere, or in another tab): forget every cached answer.
  useEffect(() => {
    if (token === null) queryClient.clear();
  }, [token, queryClient]);

  const signIn = useCallback(
    (response: LoginResponse) => {
      queryClient.setQueryData(platformKeys.me, response.user);
      sessionToken.set(response.accessToken);
    },
    [queryClient],
  );

  // A write like any other (a mutation): the token revoked on the server (best effort), then
  // forgotten here whatever the server says, with every cached answer; the gate shows sign-in.
  const logout = useMutation({
    mutationFn: async () => {
      try {
        if (sessionToken.get()) await sessionApi.logout();
      } catch {
        // the token is forgotten whatever the server says
      }
    },
    onSettled: () => {
      sessionToken.set(null);
      queryClient.clear();
    },
  });
  const { mutateAsync: logoutAsync } = logout;
  const signOut = useCallback(() => logoutAsync(), [logoutAsync]);

  const refreshUser = useCallback(async () => {
    if (!sessionToken.get()) return null;
    const result = await me.refetch();
    return result.data ?? null;
  }, [me.refetch]);

  const user = token !== null ? (me.data ?? null) : null;
  const status: SessionStatus = token === null ? 'anonymous' : user ? 'authenticated' : 'loading';

  const value = useMemo<Session>(
    () => ({ status, user, signIn, signOut, refreshUser }),
    [status, user, signIn, signOut, refreshUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() must be used inside <SessionProvider>');
  return session;
}
