import type { Readable } from 'node:stream';
import { sanitizeText } from '@ecoa/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { findDisallowedText } from './input-guard.ts';

/**
 * Where an upload's file is streamed: `UploadStorage` (`DATA_DIR/uploads/`, spreadsheets) or a
 * feature's own folder (the audios' `DATA_DIR/audios/`). `remove` must only ever delete its own files.
 */
export type UploadSink = {
  save(stream: Readable): Promise<{ path: string; size: number }>;
  remove(filePath: string | undefined): Promise<void>;
};

/** A route's own refusals, when its file is not a spreadsheet (the audios'); by default `FILE_*`. */
export type UploadRefusals = {
  /** No multipart form. */
  required?: () => AppError;
  /** The file passed the multipart limit of the route's scope (`limits.fileSize` where it registers multipart). */
  tooLarge?: () => AppError;
};

/** A file saved by `receiveUpload`: where it waits, its size, and the browser's (sanitised) name. */
export type UploadedFile = { path: string; size: number; fileName: string };
export type UploadedForm = { file: UploadedFile | undefined; fields: Record<string, string> };

/**
 * Reads a multipart form: the `file` part is streamed to `storage` (never held in memory), text
 * fields are collected whatever their order and refused if they carry control characters (ADR
 * 007). Over the scope's file limit → 413 FILE_TOO_LARGE (100 MB for spreadsheets). Used by every
 * route that takes a file: lists, opt-outs and enrichment (spreadsheets), audios (its own
 * folder, limit and refusals). A refused form leaves no file behind.
 */
export async function receiveUpload(
  request: FastifyRequest,
  storage: UploadSink,
  refusals: UploadRefusals = {},
): Promise<UploadedForm> {
  const required = refusals.required ?? (() => new AppError('FILE_REQUIRED'));
  const tooLarge = refusals.tooLarge ?? (() => new AppError('FILE_TOO_LARGE'));
  if (!request.isMultipart()) throw required();
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
        if (part.file.truncated) throw tooLarge();
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
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw required();
    throw err;
  }
  return { file, fields };
}
