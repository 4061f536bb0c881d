/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the main API; '' (default) is the same origin. */
  readonly VITE_API_URL?: string;
  /** Base URL of the second ("legacy") backend, used by the card checkout; '' is the same origin. */
  readonly VITE_LEGACY_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
