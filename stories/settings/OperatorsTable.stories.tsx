import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { OperatorsTable } from '../../src/components/OperatorsTable';
import { OPERATORS } from './accountData';

const [SELF, DANA, SAM, INVITED, OLD_HAND] = OPERATORS as [
  (typeof OPERATORS)[number],
  (typeof OPERATORS)[number],
  (typeof OPERATORS)[number],
  (typeof OPERATORS)[number],
  (typeof OPERATORS)[number],
];

/**
 * The operators table (owners only): a role select and Disable/Enable per row, each change
 * confirmed first; loading, error with Retry, empty, and every row locked while one is sent.
 */
const meta = {
  title: 'Settings/OperatorsTable',
  component: OperatorsTable,
  args: {
    operators: { status: 'ready', data: OPERATORS },
    selfId: SELF.id,
    busyId: null,
    onChange: fn(),
    onRetry: fn(),
  },
} satisfies Meta<typeof OperatorsTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every status: "(you)", the invite's expiry, two-factor, Enable on the disabled one. */
export const Ready: Story = {
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Operators' });
    await expect(within(table).getAllByRole('row')).toHaveLength(OPERATORS.length + 1);
    await expect(within(table).getByText(`${SELF.name} (you)`)).toBeVisible();
    await expect(within(table).getByText(/Link expires/)).toBeVisible();
    await expect(within(table).getByLabelText(`Role for ${DANA.name}`)).toHaveValue('admin');
    await expect(
      within(table).getByRole('button', { name: `Enable ${OLD_HAND.name}` }),
    ).toBeEnabled();
    await expect(within(table).getByRole('button', { name: `Disable ${SAM.name}` })).toBeEnabled();
  },
};

/** Loading the list. */
export const Loading: Story = {
  args: { operators: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Loading operators…')).toBeVisible();
  },
};

/** The list failed: the message and Retry. */
export const Error: Story = {
  args: { operators: { status: 'error', message: 'Internal server error' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText(/Internal server error/)).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};

/** No operators. */
export const Empty: Story = {
  args: { operators: { status: 'empty' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No operators.')).toBeVisible();
  },
};

/** A change is being sent: every select and button is disabled, the sent row's button busy. */
export const ChangeSending: Story = {
  args: { busyId: SAM.id },
  play: async ({ canvas }) => {
    for (const select of canvas.getAllByRole('combobox')) await expect(select).toBeDisabled();
    for (const button of canvas.getAllByRole('button')) await expect(button).toBeDisabled();
    await expect(canvas.getByRole('button', { name: `Disable ${SAM.name}` })).toHaveAttribute(
      'aria-busy',
      'true',
    );
    await expect(canvas.getByRole('button', { name: `Disable ${DANA.name}` })).not.toHaveAttribute(
      'aria-busy',
    );
  },
};

/**
 * Keyboard: Disable opens the confirmation, Escape cancels it, nothing changes and focus returns
 * to the row's button; Enable asks in its own words and confirms.
 */
export const DisableCancelledWithEscape: Story = {
  play: async ({ canvas, args }) => {
    const disable = canvas.getByRole('button', { name: `Disable ${SAM.name}` });
    disable.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: `Disable ${SAM.name}?`,
    });
    await expect(dialog).toHaveTextContent("Disabling ends all of Sam Lee's sessions now");
    await userEvent.keyboard('{Escape}');
    await expect(within(document.body).queryByRole('alertdialog')).toBeNull();
    await expect(disable).toHaveFocus();
    await expect(args.onChange).not.toHaveBeenCalled();
    await userEvent.click(canvas.getByRole('button', { name: `Enable ${OLD_HAND.name}` }));
    const enable = await within(document.body).findByRole('alertdialog', {
      name: `Enable ${OLD_HAND.name}?`,
    });
    await expect(enable).toHaveTextContent('can sign in again with their password');
    await userEvent.click(within(enable).getByRole('button', { name: 'Enable' }));
    await expect(args.onChange).toHaveBeenCalledWith(OLD_HAND, { disabled: false });
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** The signed-in owner steps down: the confirmation warns they will no longer manage operators. */
export const SelfDemotionWarns: Story = {
  play: async ({ canvas, args }) => {
    const select = canvas.getByLabelText(`Role for ${SELF.name}`);
    await userEvent.selectOptions(select, 'admin');
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: `Make ${SELF.name} Admin?`,
    });
    await expect(dialog).toHaveTextContent(
      'This is your own account: you will no longer manage operators.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change role' }));
    await expect(args.onChange).toHaveBeenCalledWith(SELF, { role: 'admin' });
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Disabling oneself warns of being signed out at once. */
export const SelfDisableWarns: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: `Disable ${SELF.name}` }));
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: `Disable ${SELF.name}?`,
    });
    await expect(dialog).toHaveTextContent('you will be signed out at once');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expect(args.onChange).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A long name and email wrap in their cells; a never-seen invite shows no last-seen time. */
export const LongText: Story = {
  args: { operators: { status: 'ready', data: [INVITED] }, selfId: null },
  play: async ({ canvas }) => {
    const row = canvas.getAllByRole('row')[1]!;
    await expect(row).toHaveTextContent(INVITED.name);
    await expect(row).toHaveTextContent(INVITED.email);
    await expect(row).not.toHaveTextContent('(you)');
    await expect(row).toHaveTextContent('—');
  },
};
