import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { useState } from 'react';
import { CheckboxField, SelectField, TextField } from '../../src/components/Field';

/** The Provider options of the filter rows: '' is "any". */
const PROVIDER_OPTIONS = [
  { value: '', label: 'All' },
  { value: 'lemonsqueezy', label: 'lemonsqueezy' },
  { value: 'clickbank', label: 'clickbank' },
] as const;

/**
 * Labelled native form controls: `TextField` (text, email, password, date…) and `SelectField`.
 * Both are controlled (`value` in, `onValueChange` out) and their label is the accessible name.
 */
const meta = {
  title: 'Primitives/Field',
  component: TextField,
  subcomponents: { SelectField },
  decorators: [
    // One field at a filter row's width (280 px); a story with its own layout opts out.
    (Story, { parameters }) =>
      parameters.fieldWidth === false ? (
        <Story />
      ) : (
        <div style={{ width: 280 }}>
          <Story />
        </div>
      ),
  ],
  args: { label: 'Email', value: '', placeholder: 'name@example.com', onValueChange: fn() },
} satisfies Meta<typeof TextField>;
export default meta;
type Story = StoryObj<typeof meta>;

/** An empty text field: every keystroke reports the new raw value. */
export const TextEmpty: Story = {
  play: async ({ canvas, args }) => {
    const input = canvas.getByLabelText('Email');
    await expect(input).toHaveAttribute('placeholder', 'name@example.com');
    await userEvent.type(input, 'a');
    await expect(args.onValueChange).toHaveBeenLastCalledWith('a');
  },
};

/** A filled text field. */
export const TextFilled: Story = {
  args: { value: 'ada@example.com' },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Email')).toHaveValue('ada@example.com');
  },
};

/** A date input (the filter rows' date ranges, YYYY-MM-DD). */
export const DateInput: Story = {
  args: { label: 'Start from', type: 'date', value: '2026-11-01', placeholder: undefined },
  play: async ({ canvas }) => {
    const input = canvas.getByLabelText('Start from');
    await expect(input).toHaveAttribute('type', 'date');
    await expect(input).toHaveValue('2026-11-01');
  },
};

/** A password input (§2 Login). */
export const Password: Story = {
  args: { label: 'Password', type: 'password', value: 'secret', placeholder: undefined },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Password')).toHaveAttribute('type', 'password');
  },
};

/** Disabled while a request is in flight. */
export const Disabled: Story = {
  args: { value: 'ada@example.com', disabled: true },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Email')).toBeDisabled();
  },
};

/** A select: native, so keyboard- and screen-reader-friendly; reports the chosen option's value. */
export const Select: Story = {
  render: ({ onValueChange }) => (
    <SelectField
      label="Provider"
      value=""
      options={PROVIDER_OPTIONS}
      onValueChange={onValueChange}
    />
  ),
  play: async ({ canvas, args }) => {
    const select = canvas.getByLabelText('Provider');
    await expect(select).toHaveValue('');
    await expect(canvas.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'All',
      'lemonsqueezy',
      'clickbank',
    ]);
    await userEvent.selectOptions(select, 'clickbank');
    await expect(args.onValueChange).toHaveBeenLastCalledWith('clickbank');
  },
};

/** A checkbox (e.g. Logs' Auto-refresh): label beside it, toggled by click or Space. */
export const Checkbox: Story = {
  render: () => <CheckboxDemo />,
  play: async ({ canvas }) => {
    const box = canvas.getByRole('checkbox', { name: 'Auto-refresh' });
    await expect(box).toBeChecked();
    await userEvent.click(canvas.getByText('Auto-refresh'));
    await expect(box).not.toBeChecked();
    await userEvent.keyboard(' ');
    await expect(box).toBeChecked();
    box.blur();
  },
};

function CheckboxDemo() {
  const [isOn, setIsOn] = useState(true);
  return <CheckboxField label="Auto-refresh" isChecked={isOn} onCheckedChange={setIsOn} />;
}

/** The controls as a filter row holds them, with real state: typing and choosing update them. */
function FieldsDemo() {
  const [email, setEmail] = useState('');
  const [provider, setProvider] = useState('');
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'end' }}>
      <TextField
        label="Email"
        value={email}
        onValueChange={setEmail}
        placeholder="name@example.com"
      />
      <SelectField
        label="Provider"
        value={provider}
        onValueChange={setProvider}
        options={PROVIDER_OPTIONS}
      />
      <TextField label="Start from" type="date" value="2026-11-01" onValueChange={() => {}} />
    </div>
  );
}

/** A text, a select and a date field side by side, controlled by a parent. */
export const FilterFields: Story = {
  parameters: { fieldWidth: false },
  render: () => <FieldsDemo />,
  play: async ({ canvas }) => {
    const email = canvas.getByLabelText('Email');
    await userEvent.type(email, 'ada@example.com');
    await expect(email).toHaveValue('ada@example.com');
    await userEvent.selectOptions(canvas.getByLabelText('Provider'), 'clickbank');
    await expect(canvas.getByLabelText('Provider')).toHaveValue('clickbank');
  },
};
