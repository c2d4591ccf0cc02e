import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { CopyButton } from '../../src/components/CopyButton';

const LINK = 'https://admin.example.test/admin/invite#token=3f9a0c';

/** The mocked browser clipboard's write, for the story that uses the Clipboard API. */
const clipboardWrite = fn((_text: string) => Promise.resolve());

/**
 * A button that copies a text and announces the outcome in a polite live region: "Copied." or
 * how to copy by hand when the browser refuses the clipboard write.
 */
const meta = {
  title: 'Primitives/CopyButton',
  component: CopyButton,
  args: { text: LINK, label: 'Copy link', onCopy: fn(() => Promise.resolve()) },
} satisfies Meta<typeof CopyButton>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Before a copy: the button, and an empty status region. */
export const Idle: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('button', { name: 'Copy link' })).toBeEnabled();
    await expect(canvas.getByRole('status')).toHaveTextContent('');
    await expect(args.onCopy).not.toHaveBeenCalled();
  },
};

/** A copy that works: the text goes to the clipboard and "Copied." is announced. */
export const Copied: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Copy link' }));
    await expect(args.onCopy).toHaveBeenCalledWith(LINK);
    await expect(await canvas.findByText('Copied.')).toBeVisible();
    await expect(canvas.getByRole('status')).toHaveTextContent('Copied.');
  },
};

/** The browser refuses the write: the status says how to copy by hand. */
export const Refused: Story = {
  args: { onCopy: fn(() => Promise.reject(new DOMException('Denied', 'NotAllowedError'))) },
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Copy link' }));
    await expect(await canvas.findByRole('status')).toHaveTextContent(
      'Could not copy: select the text and copy it.',
    );
  },
};

/**
 * The default copier (the Clipboard API), with the browser's clipboard mocked: Enter on the
 * focused button copies the text.
 */
export const KeyboardWithClipboard: Story = {
  args: { onCopy: undefined, label: 'Copy key', text: 'JBSWY3DPEHPK3PXP', size: 'small' },
  beforeEach() {
    clipboardWrite.mockClear();
    const original = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: clipboardWrite },
    });
    return () => {
      if (original) Object.defineProperty(navigator, 'clipboard', original);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    };
  },
  play: async ({ canvas }) => {
    const button = canvas.getByRole('button', { name: 'Copy key' });
    await userEvent.tab();
    await expect(button).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(clipboardWrite).toHaveBeenCalledWith('JBSWY3DPEHPK3PXP');
    await expect(await canvas.findByText('Copied.')).toBeVisible();
    button.blur();
  },
};
