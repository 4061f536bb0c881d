import type { Readable } from 'node:stream';
import { sanitizeText } from '@ecoa/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { findDisallowedText } from './input-guard.ts';
import type { UploadStorage } from './upload-storage.ts';

/** A file saved by `receiveUpload`: where it waits, its size, and the browser's (sanitised) name. */
export type UploadedFile = { path: string; size: number; fileName: string };
export type UploadedForm = { file: UploadedFile | undefined; fields: Record<string, string> };

/**
 * Reads a multipart form: the `file` part is streamed to the uploads folder (never held in
 * memory), text fields are collected whatever their order. Over 100 MB → 413 FILE_TOO_LARGE; no
 * form → 400 FILE_REQUIRED (the file's contents are the feature's to judge).
 * Used by every route that takes a spreadsheet (lists, opt-outs, enrichment).
 */
export async function receiveUpload(request: FastifyRequest, storage: UploadStorage): Promise<UploadedForm> {
  if (!request.isMultipart()) throw new AppError('FILE_REQUIRED');
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          continue;
        }
        const saved = await storage.save(part.file as Readable);
        // The browser's file name is outside input too (it becomes the default list name).
        file = { ...saved, fileName: (sanitizeText(part.filename ?? '').trim() || 'planilha').slice(0, 200) };
        if (part.file.truncated) throw new AppError('FILE_TOO_LARGE');
      } else if (typeof part.value === 'string') {
        const found = findDisallowedText(part.value, part.fieldname);
        if (found) throw new AppError('TEXT_INVALID_CHARACTERS', found);
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    await storage.remove(file?.path);
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FILE_TOO_LARGE');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('FILE_REQUIRED');
    throw err;
  }
  return { file, fields };
}
