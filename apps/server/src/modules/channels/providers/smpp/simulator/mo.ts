/** A message "from a phone" as the simulated SMSC delivers it: deliver_sm parts, GSM-7 or UCS-2, UDH or SAR. */
import { analyzeSms, encodeGsm7, encodeUcs2 } from '@ecoa/shared';

export type MoRequest = { from: string; to: string; text: string; concatenation?: 'udh' | 'sar' };

export function moDeliverFields(request: MoRequest, reference: number): Record<string, unknown>[] {
  const analysis = analyzeSms(request.text);
  const encode = analysis.encoding === 'gsm7' ? encodeGsm7 : encodeUcs2;
  const dataCoding = analysis.encoding === 'gsm7' ? 0x00 : 0x08;
  const total = analysis.parts.length;
  return analysis.parts.map((text, i) => {
    const body = Buffer.from(encode(text));
    const fields: Record<string, unknown> = {
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: request.from.replace(/^\+/, ''),
      destination_addr: request.to,
      esm_class: 0,
      data_coding: dataCoding,
      short_message: body,
    };
    if (total > 1 && request.concatenation === 'sar') {
      Object.assign(fields, { sar_msg_ref_num: reference, sar_total_segments: total, sar_segment_seqnum: i + 1 });
    } else if (total > 1) {
      const udh = Buffer.from([0x05, 0x00, 0x03, reference, total, i + 1]);
      Object.assign(fields, { esm_class: 0x40, short_message: Buffer.concat([udh, body]) });
    }
    return fields;
  });
}
