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

/** How one kind of masked input looks and which keyboard it asks for. */
type MaskedInputKind = {
  mask: MaskSpec;
  placeholder: string;
  inputMode: 'numeric' | 'tel' | 'text';
  autoCapitalize?: string;
  autoComplete?: string;
};

function MaskedField<T extends FieldValues, TOutput>({
  control,
  name,
  ...props
}: MaskedFieldProps<T, TOutput> & MaskedInputKind) {
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

// Letters are allowed (the alphanumeric CNPJ), so the keyboard is the text one, in capitals.
const CNPJ_INPUT: MaskedInputKind = {
  mask: CNPJ_MASK,
  placeholder: '00.000.000/0000-00',
  inputMode: 'text',
  autoCapitalize: 'characters',
};

const MOBILE_PHONE_INPUT: MaskedInputKind = {
  mask: MOBILE_PHONE_MASK,
  placeholder: '(00) 00000-0000',
  inputMode: 'tel',
  autoComplete: 'tel-national',
};

/** The CNPJ input of the sign-up rules: 00.000.000/0000-00 (letters in the first twelve), the field's error translated. */
export function CnpjField<T extends FieldValues, TOutput>(props: MaskedFieldProps<T, TOutput>) {
  return <MaskedField {...CNPJ_INPUT} {...props} />;
}

/** The mobile phone input of the sign-up rules (sign-up and settings): (00) 00000-0000, the field's error translated. */
export function MobilePhoneField<T extends FieldValues, TOutput>(props: MaskedFieldProps<T, TOutput>) {
  return <MaskedField {...MOBILE_PHONE_INPUT} {...props} />;
}
