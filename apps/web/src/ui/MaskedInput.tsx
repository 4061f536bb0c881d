import { InputBase, type InputBaseProps } from '@mantine/core';
import { IMaskInput } from 'react-imask';
import type { MaskSpec } from '../platform/masks';

type MaskedInputProps = InputBaseProps & {
  mask: MaskSpec;
  /** The characters only (the mask's literals are never part of the value). */
  value: string;
  onChange: (digits: string) => void;
  onBlur?: () => void;
  name?: string;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'text';
  autoCapitalize?: string;
  'data-testid'?: string;
};

/** A Mantine input with an imask mask: shows the formatted text, accepts and reports the mask's characters only. */
export function MaskedInput({ mask, value, onChange, ...props }: MaskedInputProps) {
  return (
    <InputBase
      component={IMaskInput}
      mask={mask.mask}
      // imask's own props, passed through InputBase (whose types do not list them all).
      {...({ definitions: mask.definitions } as object)}
      prepareChar={mask.prepareChar}
      unmask
      value={value}
      onAccept={(next: string) => {
        if (next !== value) onChange(next);
      }}
      {...props}
    />
  );
}
