/** m:ss, rounded to the second as the server's 3-minute limit is (180.4 s shows 3:00). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** "812 KB", "1,2 MB" in the user's locale (1 KB = 1024 bytes). */
export function formatBytes(bytes: number, locale: string): string {
  if (bytes < 1024 * 1024) {
    return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString(locale)} KB`;
  }
  return `${(bytes / (1024 * 1024)).toLocaleString(locale, { maximumFractionDigits: 1 })} MB`;
}

/** The default name of an upload: its file name without the extension, within the 120 characters. */
export function nameFromFile(fileName: string): string {
  return fileName
    .replace(/\.[^.]+$/, '')
    .trim()
    .slice(0, 120);
}
