import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the API runs on :3000 (npm run dev); the built app is served by the server itself.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/locales': 'http://127.0.0.1:3000', '/l/': 'http://127.0.0.1:3000' },
  },
  build: { sourcemap: false, chunkSizeWarningLimit: 900 },
});
