import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** `=cmd|…`, `+1+1`, `@SUM(…)`: a cell a spreadsheet would run as a formula gets a leading `'`. */
export function csvCell(value: string | null | undefined): string {
  let s = value ?? '';
  if (s.length > 0 && '=+-@\t\r'.includes(s[0]!)) s = `'${s}`;
  if (/[";\n\r]/.test(s)) s = `"${s.replaceAll('"', '""')}"`;
  return s;
}

/** One `;`-separated line (what Excel in Brazil opens), formula-safe. */
export const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(';')}\r\n`;

/** Streams CSV text as a download named `fileName` (UTF-8, the ASCII fallback for old clients). */
export function sendCsv(reply: FastifyReply, fileName: string, text: AsyncIterable<string>) {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/"/g, '');
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('cache-control', 'no-store');
  return reply.send(Readable.from(text));
}
