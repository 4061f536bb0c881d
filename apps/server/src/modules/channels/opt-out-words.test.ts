import { describe, expect, it } from 'vitest';
import { isOptOutReply } from './opt-out-words.ts';

describe('isOptOutReply', () => {
  it('knows the five words in any case, accents and punctuation', () => {
    for (const reply of [
      'SAIR',
      'sair',
      ' Sair. ',
      'PARE!',
      'pAre',
      'stop',
      'Cancelar',
      'DESCADASTRAR 👍',
      'sáir',
      'PÁRE',
    ]) {
      expect(isOptOutReply(reply), reply).toBe(true);
    }
  });

  it('is not fooled by sentences or other words', () => {
    for (const reply of ['não vou sair', 'pare de ligar às 7h', 'Obrigado', 'sair2', 'STOPPED', '', '1']) {
      expect(isOptOutReply(reply), reply).toBe(false);
    }
  });
});
