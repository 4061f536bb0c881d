import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** A module id inside one of these packages (`a|b|@scope[\\/]c`). */
const inPackages = (names: string) => new RegExp(`[\\\\/]node_modules[\\\\/](${names})[\\\\/]`);

/**
 * Chunks (docs/ARCHITECTURE.md, "Web bundle"). Lazily loaded: the signed-in part (the router and
 * the frame, app/SignedInRoutes.tsx), each page, the sign-up step, the login form's rules and the
 * confetti; these groups then keep the number of files small:
 * - `vendor`: the libraries the sign-in screens need (changes rarely, cached long);
 * - the entry (`index`): the app code of the sign-in screens, in one file with nothing split off;
 * - `forms`: the phone/CNPJ masks (imask, platform/masks.ts, ui/Masked*), for sign-up, settings and the admin drawer only;
 * - `validation`: zod and the sign-in/sign-up schemas, so sign-up and the login form's rules
 *   (fetched when the visitor types) do not need `signed-in`; the sign-in screen has no zod;
 * - `simple-grid`: the one layout component sign-up shares with the signed-in pages (1 KB), so
 *   sign-up does not need `signed-in`;
 * - `charts`: recharts and what it pulls in, for the pages that draw a chart only;
 * - `signed-in`: what two or more signed-in chunks share (Mantine tables, inputs, the credits
 *   modals), instead of a dozen tiny files; what one chunk alone uses stays in it (the lists'
 *   drop zone in the lists page, the confetti in its own).
 */
const codeSplitting = {
  groups: [
    { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial' as const], priority: 3 },
    { name: 'app', tags: ['$initial' as const], priority: 3 },
    { name: 'simple-grid', test: /[\\/]@mantine[\\/]core[\\/].*[\\/]SimpleGrid[\\/]/, priority: 3 },
    {
      name: 'forms',
      test: (id: string) =>
        inPackages('imask|react-imask').test(id) || /[\\/](platform[\\/]masks|ui[\\/]Masked)/.test(id),
      priority: 2,
    },
    {
      name: 'validation',
      test: (id: string) =>
        inPackages('zod|@hookform[\\/]resolvers').test(id) ||
        /[\\/]packages[\\/]shared[\\/]src[\\/](schemas[\\/]auth|validators[\\/]cnpj)\.ts$/.test(id),
      priority: 2,
    },
    // The charts (recharts, d3) only for the pages that draw one (the dashboard, a campaign's detail).
    {
      name: 'charts',
      test: inPackages(
        'recharts|@mantine[\\/]charts|d3-[a-z-]+|victory-vendor|decimal\\.js-light|es-toolkit|immer|reselect|@reduxjs|react-redux|redux|use-sync-external-store',
      ),
      priority: 2,
    },
    { name: 'signed-in', minShareCount: 2, priority: 1 },
  ],
};

// In development the API runs on :3000 (npm run dev); the built app is served by the server itself.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/locales': 'http://127.0.0.1:3000', '/l/': 'http://127.0.0.1:3000' },
  },
  build: { sourcemap: false, chunkSizeWarningLimit: 900, rolldownOptions: { output: { codeSplitting } } },
});
