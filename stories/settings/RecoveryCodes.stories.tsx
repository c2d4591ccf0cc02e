import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { RecoveryCodes } from '../../src/components/RecoveryCodes';
import { RECOVERY_CODES } from './accountData';

/** The 10 recovery codes, shown once after two-factor sign-in is turned on. */
const meta = {
  title: 'Settings/RecoveryCodes',
  component: RecoveryCodes,
  args: {
    codes: RECOVERY_CODES,
    onDownload: fn(),
    onAcknowledge: fn(),
    onCopy: fn(() => Promise.resolve()),
  },
} satisfies Meta<typeof RecoveryCodes>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The warning, the codes in the server's order, and the three buttons. */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('region', { name: 'Recovery codes' })).toBeVisible();
    await expect(canvas.getByText(/Store these codes now: they are shown once/)).toBeVisible();
    const items = within(canvas.getByRole('list', { name: 'Recovery codes' })).getAllByRole(
      'listitem',
    );
    await expect(items.map((li) => li.textContent)).toEqual([...RECOVERY_CODES]);
    await userEvent.click(canvas.getByRole('button', { name: 'Download codes (.txt)' }));
    await expect(args.onDownload).toHaveBeenCalledOnce();
    await userEvent.click(canvas.getByRole('button', { name: 'I have stored them' }));
    await expect(args.onAcknowledge).toHaveBeenCalledOnce();
  },
};

/** Copy puts every code on the clipboard, one a line, and announces "Copied.". */
export const Copied: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Copy codes' }));
    await expect(args.onCopy).toHaveBeenCalledWith(RECOVERY_CODES.join('\n'));
    await expect(await canvas.findByText('Copied.')).toBeVisible();
    await expect(args.onAcknowledge).not.toHaveBeenCalled();
  },
};

/** The browser refuses the clipboard: the codes stay on screen to copy by hand. */
export const CopyRefused: Story = {
  args: { onCopy: fn(() => Promise.reject(new Error('denied'))) },
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Copy codes' }));
    await expect(
      await canvas.findByText('Could not copy: select the text and copy it.'),
    ).toBeVisible();
    await expect(canvas.getByText(RECOVERY_CODES[0]!)).toBeVisible();
  },
};

/** Keyboard only: Tab reaches Copy, Download and "I have stored them" in that order. */
export const Keyboard: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Copy codes' })).toHaveFocus();
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Download codes (.txt)' })).toHaveFocus();
    await userEvent.tab();
    const done = canvas.getByRole('button', { name: 'I have stored them' });
    await expect(done).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onAcknowledge).toHaveBeenCalledOnce();
    done.blur();
  },
};
