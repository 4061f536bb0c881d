import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeInput, EMPTY_CODE } from './CodeInput';

let current: string[] = [];

function Harness({ initial = [...EMPTY_CODE] }: { initial?: string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  current = value;
  return (
    <MantineProvider>
      <CodeInput
        value={value}
        onChange={setValue}
        label="Código de acesso"
        boxLabel={(position, total) => `Dígito ${position} de ${total}`}
      />
    </MantineProvider>
  );
}

const box = (i: number) => screen.getByLabelText(`Dígito ${i + 1} de 6`) as HTMLInputElement;
const values = () => [0, 1, 2, 3, 4, 5].map((i) => box(i).value);

function paste(target: HTMLElement, text: string) {
  fireEvent.paste(target, { clipboardData: { getData: () => text } });
}

describe('CodeInput (the six code boxes)', () => {
  afterEach(cleanup);

  it('renders six single-character boxes with accessible names', () => {
    render(<Harness />);
    expect(screen.getByRole('group', { name: 'Código de acesso' })).toBeTruthy();
    expect(values()).toEqual(['', '', '', '', '', '']);
  });

  it('typing a digit fills the box and moves the focus forward', () => {
    render(<Harness />);
    box(0).focus();
    fireEvent.keyDown(box(0), { key: '4' });
    expect(box(0).value).toBe('4');
    expect(document.activeElement).toBe(box(1));
    fireEvent.keyDown(box(1), { key: '2' });
    expect(document.activeElement).toBe(box(2));
    expect(current.join('')).toBe('42');
  });

  it('typing in the last box keeps the focus there', () => {
    render(<Harness />);
    box(5).focus();
    fireEvent.keyDown(box(5), { key: '9' });
    expect(box(5).value).toBe('9');
    expect(document.activeElement).toBe(box(5));
  });

  it('ignores letters and symbols', () => {
    render(<Harness />);
    box(0).focus();
    fireEvent.keyDown(box(0), { key: 'a' });
    fireEvent.keyDown(box(0), { key: '-' });
    fireEvent.change(box(0), { target: { value: 'x' } });
    expect(box(0).value).toBe('');
    expect(document.activeElement).toBe(box(0));
  });

  it('input that is not a key press (mobile keyboards) also moves forward', () => {
    render(<Harness />);
    box(0).focus();
    fireEvent.change(box(0), { target: { value: '7' } });
    expect(box(0).value).toBe('7');
    expect(document.activeElement).toBe(box(1));
  });

  it('Backspace on an empty box moves the focus back', () => {
    render(<Harness initial={['1', '2', '3', '', '', '']} />);
    box(3).focus();
    fireEvent.keyDown(box(3), { key: 'Backspace' });
    expect(document.activeElement).toBe(box(2));
    expect(values()).toEqual(['1', '2', '3', '', '', '']);
  });

  it('Backspace on a filled box clears it and keeps the focus', () => {
    render(<Harness initial={['1', '2', '3', '', '', '']} />);
    box(2).focus();
    fireEvent.keyDown(box(2), { key: 'Backspace' });
    expect(box(2).value).toBe('');
    expect(document.activeElement).toBe(box(2));
  });

  it('Backspace on the first empty box stays there', () => {
    render(<Harness />);
    box(0).focus();
    fireEvent.keyDown(box(0), { key: 'Backspace' });
    expect(document.activeElement).toBe(box(0));
  });

  it('pasting exactly six digits fills every box, from any box', () => {
    render(<Harness />);
    box(2).focus();
    paste(box(2), '123456');
    expect(values()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(document.activeElement).toBe(box(5));
  });

  it('a pasted code copied with surrounding spaces or a line break is still six digits', () => {
    render(<Harness />);
    paste(box(0), ' 654321\n');
    expect(values()).toEqual(['6', '5', '4', '3', '2', '1']);
  });

  it.each([
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['a letter', '12a456'],
    ['a separator', '123-456'],
    ['inner spaces', '123 456'],
    ['nothing', ''],
  ])('rejects a paste of %s and leaves the boxes alone', (_name, text) => {
    render(<Harness initial={['9', '', '', '', '', '']} />);
    box(1).focus();
    paste(box(1), text);
    expect(values()).toEqual(['9', '', '', '', '', '']);
  });

  it('one-time-code autofill of six digits into the first box spreads over the boxes', () => {
    render(<Harness />);
    fireEvent.change(box(0), { target: { value: '246810' } });
    expect(values()).toEqual(['2', '4', '6', '8', '1', '0']);
  });
});
