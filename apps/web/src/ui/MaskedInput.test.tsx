import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyMask,
  CNPJ_MASK,
  type MaskSpec,
  MOBILE_PHONE_MASK,
  SPEC_MASKS,
  toImaskPattern,
  unmask,
} from '../platform/masks';
import { MaskedInput } from './MaskedInput';

describe('the spec masks', () => {
  it('keeps the spec notation: the phone all digit slots, the CNPJ letters allowed but in its check digits', () => {
    expect(SPEC_MASKS.cnpj).toBe('99.999.999/9999-99');
    expect(SPEC_MASKS.mobilePhone).toBe('(**) *****-****');
    expect(CNPJ_MASK.mask).toBe('##.###.###/####-00');
    expect(MOBILE_PHONE_MASK.mask).toBe('(00) 00000-0000');
    expect(toImaskPattern('999-**')).toBe('000-00');
  });

  it('formats a CNPJ as 99.999.999/9999-99, numeric or alphanumeric, letters upper-cased', () => {
    expect(applyMask(CNPJ_MASK, '11222333000181')).toBe('11.222.333/0001-81');
    expect(applyMask(CNPJ_MASK, '11.222.333/0001-81')).toBe('11.222.333/0001-81');
    expect(applyMask(CNPJ_MASK, '112223330001819999')).toBe('11.222.333/0001-81');
    expect(unmask(CNPJ_MASK, '11.222.333/0001-81')).toBe('11222333000181');
    expect(applyMask(CNPJ_MASK, '12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(unmask(CNPJ_MASK, '12.ABC.345/01DE-35')).toBe('12ABC34501DE35');
    // The check digits are digits: a letter there is refused.
    expect(applyMask(CNPJ_MASK, '12ABC34501DEX5')).toBe('12.ABC.345/01DE-5');
  });

  it('formats a mobile phone as (**) *****-**** and drops non-digits', () => {
    expect(applyMask(MOBILE_PHONE_MASK, '11987654321')).toBe('(11) 98765-4321');
    expect(applyMask(MOBILE_PHONE_MASK, '(11) 98765-4321')).toBe('(11) 98765-4321');
    expect(applyMask(MOBILE_PHONE_MASK, 'x1y1z9')).toBe('(11) 9');
    expect(unmask(MOBILE_PHONE_MASK, '(11) 98765-4321')).toBe('11987654321');
  });
});

let digits = '';
function Harness({ mask, label }: { mask: MaskSpec; label: string }) {
  const [value, setValue] = useState('');
  digits = value;
  return (
    <MantineProvider>
      <MaskedInput label={label} mask={mask} value={value} onChange={setValue} />
    </MantineProvider>
  );
}

describe('MaskedInput', () => {
  afterEach(cleanup);

  function type(input: HTMLInputElement, text: string) {
    input.focus();
    fireEvent.input(input, { target: { value: text } });
  }

  it('shows the CNPJ mask and reports digits only', () => {
    render(<Harness mask={CNPJ_MASK} label="CNPJ" />);
    const input = screen.getByLabelText('CNPJ') as HTMLInputElement;
    type(input, '11222333000181');
    expect(input.value).toBe('11.222.333/0001-81');
    expect(digits).toBe('11222333000181');
  });

  it('takes an alphanumeric CNPJ in capitals, and refuses symbols', () => {
    render(<Harness mask={CNPJ_MASK} label="CNPJ" />);
    const input = screen.getByLabelText('CNPJ') as HTMLInputElement;
    type(input, '12abc34501de35');
    expect(input.value).toBe('12.ABC.345/01DE-35');
    expect(digits).toBe('12ABC34501DE35');
    type(input, '#$%');
    expect(digits).toBe('');
  });

  it('shows the mobile phone mask and reports digits only', () => {
    render(<Harness mask={MOBILE_PHONE_MASK} label="Celular" />);
    const input = screen.getByLabelText('Celular') as HTMLInputElement;
    type(input, '11987654321');
    expect(input.value).toBe('(11) 98765-4321');
    expect(digits).toBe('11987654321');
  });

  it('refuses letters in the mobile phone field', () => {
    render(<Harness mask={MOBILE_PHONE_MASK} label="Celular" />);
    const input = screen.getByLabelText('Celular') as HTMLInputElement;
    type(input, 'telefone');
    expect(input.value).toBe('');
    expect(digits).toBe('');
  });
});
