import { LOGIN_CODE_LENGTH } from '@ecoa/shared';
import { Group, Input, Text } from '@mantine/core';
import { type ClipboardEvent, type KeyboardEvent, useEffect, useId, useRef } from 'react';
import classes from './CodeInput.module.css';

export const EMPTY_CODE: readonly string[] = Array.from({ length: LOGIN_CODE_LENGTH }, () => '');

const DIGIT = /^\d$/;
const FULL_CODE = new RegExp(`^\\d{${LOGIN_CODE_LENGTH}}$`);

interface CodeInputProps {
  /** One character per box (empty string for an empty box). */
  value: readonly string[];
  onChange: (value: string[]) => void;
  label: string;
  /** Accessible name of box i (1-based), e.g. "Dígito 1 de 6". */
  boxLabel: (position: number, total: number) => string;
  error?: string;
  disabled?: boolean;
  autoFocus?: boolean;
  /** Changing this key moves the focus back to the first box (e.g. after a wrong code). */
  focusKey?: number;
}

/**
 * The code screen's six single-character boxes (spec section 2, step 1): typing a digit fills
 * the box and moves the focus forward; Backspace on an empty box moves the focus back; a paste
 * is accepted only when it is exactly six digits, and then fills every box.
 */
export function CodeInput({ value, onChange, label, boxLabel, error, disabled, autoFocus, focusKey }: CodeInputProps) {
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const labelId = useId();
  const errorId = useId();
  const length = value.length;

  const focusBox = (index: number) => {
    const box = refs.current[Math.max(0, Math.min(length - 1, index))];
    box?.focus();
    box?.select();
  };

  // Focus the first box on entry and whenever focusKey changes, once the boxes are enabled again.
  useEffect(() => {
    if ((autoFocus || focusKey) && !disabled) refs.current[0]?.focus();
  }, [autoFocus, focusKey, disabled]);

  const setBox = (index: number, char: string) => {
    const next = [...value];
    next[index] = char;
    onChange(next);
  };

  const fillAll = (digits: string) => {
    onChange(digits.split(''));
    focusBox(length - 1);
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const { key } = event;
    if (DIGIT.test(key)) {
      event.preventDefault();
      setBox(index, key);
      if (index < length - 1) focusBox(index + 1);
    } else if (key === 'Backspace') {
      event.preventDefault();
      if (value[index]) setBox(index, '');
      else if (index > 0) focusBox(index - 1);
    } else if (key === 'Delete') {
      event.preventDefault();
      setBox(index, '');
    } else if (key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (key === 'ArrowRight') {
      event.preventDefault();
      focusBox(index + 1);
    } else if (key.length === 1) {
      // letters, spaces, symbols: a code is digits only
      event.preventDefault();
    }
  };

  // Input that did not come through a key press (mobile keyboards, one-time-code autofill).
  const handleChange = (index: number, text: string) => {
    const digits = text.replace(/\D/g, '');
    if (digits.length === length) return fillAll(digits);
    if (!digits) return setBox(index, '');
    const previous = value[index] ?? '';
    const char = digits.length > 1 && digits[0] === previous ? digits[digits.length - 1]! : digits[0]!;
    setBox(index, char);
    if (index < length - 1) focusBox(index + 1);
  };

  const handlePaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const text = event.clipboardData.getData('text').trim();
    if (FULL_CODE.test(text)) fillAll(text);
  };

  return (
    <div>
      <Text id={labelId} size="sm" fw={500} mb={6} display="block">
        {label}
      </Text>
      <Group
        role="group"
        aria-labelledby={labelId}
        aria-describedby={error ? errorId : undefined}
        gap="xs"
        wrap="nowrap"
        justify="space-between"
        data-testid="code-boxes"
      >
        {value.map((char, index) => (
          <Input
            // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions, fixed in number and order
            key={index}
            ref={(el) => {
              refs.current[index] = el;
            }}
            value={char}
            onChange={(event) => handleChange(index, event.currentTarget.value)}
            onKeyDown={(event) => handleKeyDown(index, event)}
            onPaste={handlePaste}
            onFocus={(event) => event.currentTarget.select()}
            disabled={disabled}
            error={Boolean(error)}
            aria-label={boxLabel(index + 1, length)}
            aria-invalid={Boolean(error)}
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            data-testid={`code-box-${index}`}
            classNames={{ wrapper: classes.wrapper, input: classes.box }}
          />
        ))}
      </Group>
      {error && (
        <Text id={errorId} role="alert" c="red" size="sm" mt={6} data-testid="code-error">
          {error}
        </Text>
      )}
    </div>
  );
}
