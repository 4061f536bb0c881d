// Runs before React: applies the persisted colour scheme (key "color-mode") to avoid a flash.
(() => {
  try {
    const saved = window.localStorage.getItem('color-mode');
    const scheme = saved === 'dark' || saved === 'light' ? saved : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch {
    // storage unavailable: Mantine falls back to light
  }
})();
