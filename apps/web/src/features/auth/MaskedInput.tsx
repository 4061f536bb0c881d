import { InputBase, type InputBaseProps } from '@mantine/core';
import { IMaskInput } from 'react-imask';
import { digitsOnly } from './masks';

type MaskedInputProps = InputBaseProps & {
  mask: string;
  /** The digits only (the mask's literals are never part of the value). */
  value: string;
  onChange: (digits: string) => void;
  onBlur?: () => void;
  name?: string;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel';
  'data-testid'?: string;
};

/** A Mantine input with an imask mask of digit slots: shows the formatted text, accepts and reports digits only. */
export function MaskedInput({ mask, value, onChange, ...props }: MaskedInputProps) {
  return (
    <InputBase
      component={IMaskInput}
      mask={mask}
      prepareChar={digitsOnly}
      unmask
      value={value}
      onAccept={(next: string) => {
        if (next !== value) onChange(next);
      }}
      {...props}
    />
  );
}
