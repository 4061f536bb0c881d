import { describe, expect, it } from 'vitest';
import { canonicalMessageId, convertMessageId, ReceiptIdResolver } from './message-ids.ts';
import { parseReceiptText, readReceipt } from './receipts.ts';

const fields = (text: string, extra: Partial<Parameters<typeof readReceipt>[0]> = {}) => ({
  tlvId: null,
  messageState: null,
  networkErrorCode: null,
  text,
  ...extra,
});

describe('receipt texts (SMPP 3.4 Appendix B)', () => {
  it('reads the fields, and nothing from the quoted text after text:', () => {
    const text =
      'id:0A1B2C3D sub:001 dlvrd:000 submit date:2611231200 done date:2611231201 stat:UNDELIV err:034 ' +
      'text:id:999 stat:DELIVRD err:000';
    expect(parseReceiptText(text)).toEqual({ id: '0A1B2C3D', stat: 'UNDELIV', err: '034' });
    expect(readReceipt(fields(text))).toMatchObject({
      textId: 'a1b2c3d',
      status: 'failed',
      reason: 'SMPP_UNDELIV_err_034',
    });
  });

  it('takes keys in any case, long stat names, and a missing err', () => {
    expect(readReceipt(fields('ID:77 Stat:delivered'))).toMatchObject({
      textId: '77',
      status: 'delivered',
      reason: undefined,
    });
    expect(readReceipt(fields('id:78 stat:REJECTED'))).toMatchObject({ status: 'failed', reason: 'SMPP_REJECTD' });
  });

  it('maps every stat: final ones reported, ENROUTE not', () => {
    const cases: [string, string | null][] = [
      ['DELIVRD', 'delivered'],
      ['UNDELIV', 'failed'],
      ['REJECTD', 'failed'],
      ['DELETED', 'failed'],
      ['EXPIRED', 'expired'],
      ['UNKNOWN', 'unknown'],
      ['ACCEPTD', 'unknown'],
      ['ENROUTE', null],
      ['WHATEVER', 'unknown'],
    ];
    for (const [stat, status] of cases)
      expect(readReceipt(fields(`id:1 stat:${stat} err:000`))?.status, stat).toBe(status);
  });

  it('prefers the TLVs, and takes the error from network_error_code when the text has none', () => {
    const receipt = readReceipt(
      fields('', { tlvId: 'ABC\u0000', messageState: 5, networkErrorCode: Buffer.from([0x03, 0x00, 0x22]) }),
    );
    expect(receipt).toMatchObject({ tlvId: 'abc', status: 'failed', reason: 'SMPP_UNDELIV_err_034' });
  });

  it('says null for a receipt that names no message', () => {
    expect(readReceipt(fields('sub:001 stat:DELIVRD'))).toBeNull();
    expect(readReceipt(fields('id: stat:DELIVRD', { tlvId: '\u0000' }))).toBeNull();
  });

  it('keeps hostile stat and err words out of the reason code', () => {
    const receipt = readReceipt(fields('id:1 stat:UND"ELIV<script> err:0;DROP'));
    expect(receipt?.reason).toBe('SMPP_UNDELIVSCRIPT_err_0DROP');
  });
});

describe('message ids', () => {
  it('canonicalises case, NUL and space padding, leading zeros', () => {
    expect(canonicalMessageId('00001A2B\u0000\u0000')).toBe('1a2b');
    expect(canonicalMessageId(' 1a2b ')).toBe('1a2b');
    expect(canonicalMessageId('0000')).toBe('0');
    expect(canonicalMessageId('0a-B1')).toBe('0a-b1');
  });

  it('converts between bases, refusing what is not a number', () => {
    expect(convertMessageId('6699', 'decimal', 'hex')).toBe('1a2b');
    expect(convertMessageId('1a2b', 'hex', 'decimal')).toBe('6699');
    expect(convertMessageId('1a2b', 'decimal', 'hex')).toBeNull();
    expect(convertMessageId('9'.repeat(41), 'decimal', 'hex')).toBeNull();
  });

  it('learns differing bases only from a receipt that carries both ids', () => {
    const resolver = new ReceiptIdResolver(undefined);
    expect(resolver.resolve(null, '16')).toBe('16');
    expect(resolver.resolve('10', '16')).toBe('10');
    expect(resolver.differingBases).toEqual({ receipt: 'decimal', submit: 'hex' });
    expect(resolver.resolve(null, '6699')).toBe('1a2b');
  });
});
