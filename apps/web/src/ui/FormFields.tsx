import {
  SegmentedControl,
  type SegmentedControlProps,
  Select,
  type SelectProps,
  Switch,
  type SwitchProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { type Control, type FieldValues, get, type Path, type UseFormReturn, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateValidation } from '../platform/errors';

/**
 * The form fields every react-hook-form form uses: each bound to its form by `name`, its
 * validation message translated. The field keeps Mantine's own props (label, test id, width…).
 */
type Bound<T extends FieldValues> = { name: Path<T>; 'data-testid'?: string };
// biome-ignore lint/suspicious/noExplicitAny: a form's context and its parsed values do not matter to one field.
type AnyControl<T extends FieldValues> = Control<T, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above.
type AnyForm<T extends FieldValues> = UseFormReturn<T, any, any>;

/** A text field, registered (uncontrolled) under `name`. */
export function FormTextInput<T extends FieldValues>({
  form,
  name,
  ...props
}: Omit<TextInputProps, 'name' | 'error' | 'form'> & Bound<T> & { form: AnyForm<T> }) {
  const { t } = useTranslation();
  const message = (get(form.formState.errors, name) as { message?: string } | undefined)?.message;
  return <TextInput error={translateValidation(t, message)} {...props} {...form.register(name)} />;
}

/** An on/off switch. */
export function FormSwitch<T extends FieldValues>({
  control,
  name,
  ...props
}: Omit<SwitchProps, 'checked' | 'onChange'> & Bound<T> & { control: AnyControl<T> }) {
  const { field } = useController({ control, name });
  return <Switch checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} {...props} />;
}

/**
 * A select. Without `emptyValue` it always holds an option (clearing it keeps the last one); with
 * it, no option stands for that value.
 */
export function FormSelect<T extends FieldValues>({
  control,
  name,
  emptyValue,
  ...props
}: Omit<SelectProps, 'value' | 'onChange'> & Bound<T> & { control: AnyControl<T>; emptyValue?: string }) {
  const { field } = useController({ control, name });
  if (emptyValue === undefined) {
    return <Select value={field.value} onChange={(v) => v && field.onChange(v)} {...props} />;
  }
  return (
    <Select
      value={field.value === emptyValue ? null : field.value}
      onChange={(v) => field.onChange(v ?? emptyValue)}
      {...props}
    />
  );
}

/** A segmented choice among a few options. */
export function FormSegmented<T extends FieldValues>({
  control,
  name,
  ...props
}: Omit<SegmentedControlProps, 'value' | 'onChange'> & Bound<T> & { control: AnyControl<T> }) {
  const { value, onChange } = useController({ control, name }).field;
  return <SegmentedControl value={value} onChange={onChange} {...props} />;
}
