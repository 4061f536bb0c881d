import { type Control, type FieldPathByValue, type FieldValues, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../platform/errors';
import { CNPJ_MASK, type MaskSpec, MOBILE_PHONE_MASK } from '../platform/masks';
import { MaskedInput } from './MaskedInput';

type MaskedFieldProps<T extends FieldValues, TOutput> = {
  control: Control<T, unknown, TOutput>;
  /** A form field holding the digits only. */
  name: FieldPathByValue<T, string>;
  label: string;
  'data-testid'?: string;
};

function MaskedField<T extends FieldValues, TOutput>({
  control,
  name,
  ...props
}: MaskedFieldProps<T, TOutput> & {
  mask: MaskSpec;
  placeholder: string;
  inputMode: 'numeric' | 'tel' | 'text';
  autoCapitalize?: string;
  autoComplete?: string;
}) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return (
    <MaskedInput
      name={field.name}
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={translateValidation(t, fieldState.error?.message)}
      {...props}
    />
  );
}

/** The CNPJ input of the sign-up rules: 00.000.000/0000-00 (letters in the first twelve), the field's error translated. */
export function CnpjField<T extends FieldValues, TOutput>(props: MaskedFieldProps<T, TOutput>) {
  // Letters are allowed (the alphanumeric CNPJ), so the keyboard is the text one, in capitals.
  return (
    <MaskedField
      mask={CNPJ_MASK}
      placeholder="00.000.000/0000-00"
      inputMode="text"
      autoCapitalize="characters"
      {...props}
    />
  );
}

/** The mobile phone input of the sign-up rules (sign-up and settings): (00) 00000-0000, the field's error translated. */
export function MobilePhoneField<T extends FieldValues, TOutput>(props: MaskedFieldProps<T, TOutput>) {
  return (
    <MaskedField
      mask={MOBILE_PHONE_MASK}
      placeholder="(00) 00000-0000"
      inputMode="tel"
      autoComplete="tel-national"
      {...props}
    />
  );
}
