import { focusManager, QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
  },
});

// A tab "comes back" when it becomes visible (TanStack's own signal) or takes the focus again
// (a window beside another, a second tab of the same window): queries that ask for it — the
// money, `useAccountBalance` — are read again then.
focusManager.setEventListener((handleFocus) => {
  const listener = () => handleFocus();
  window.addEventListener('visibilitychange', listener, false);
  window.addEventListener('focus', listener, false);
  return () => {
    window.removeEventListener('visibilitychange', listener);
    window.removeEventListener('focus', listener);
  };
});
