import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { SessionsTable } from '../../src/components/SessionsTable';
import { LONG_AGENT_SESSIONS, SESSIONS } from './accountData';

/** My sessions: loading, error, one, many (with End and its confirmation), a long user agent. */
const meta = {
  title: 'Settings/SessionsTable',
  component: SessionsTable,
  args: {
    sessions: { status: 'ready', data: SESSIONS },
    endingId: null,
    endError: null,
    onEnd: fn(),
    onRetry: fn(),
  },
} satisfies Meta<typeof SessionsTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three sessions: this one marked and not endable; End asks first, then ends. */
export const Many: Story = {
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: 'My sessions' });
    await expect(within(table).getByText('This session')).toBeVisible();
    await expect(within(table).getByText('Chrome on Linux')).toBeVisible();
    await expect(within(table).getByText('Safari on iOS')).toBeVisible();
    await expect(within(table).getAllByRole('button', { name: /^End session/ })).toHaveLength(2);
    const end = within(table).getByRole('button', {
      name: 'End session: Firefox on Windows, 2001:db8:85a3::8a2e:370:7334',
    });
    await userEvent.click(end);
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: 'End this session?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expect(args.onEnd).not.toHaveBeenCalled();
    await waitFor(() => expect(end).toHaveFocus());
    await userEvent.click(end);
    const again = await within(document.body).findByRole('alertdialog');
    await userEvent.click(within(again).getByRole('button', { name: 'End session' }));
    await expect(args.onEnd).toHaveBeenCalledWith('c3d4e5f6a7b8c9d0');
  },
};

/** Only this browser: nothing to end. */
export const One: Story = {
  args: { sessions: { status: 'ready', data: SESSIONS.slice(0, 1) } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('This session')).toBeVisible();
    await expect(canvas.queryByRole('button', { name: /^End session/ })).toBeNull();
  },
};

/** An unknown, very long user agent and no address: cut short, the whole header on hover. */
export const LongUserAgent: Story = {
  args: { sessions: { status: 'ready', data: LONG_AGENT_SESSIONS } },
  play: async ({ canvas }) => {
    const summary = canvas.getByText(/^InternalMonitoringAgent\/4\.2\.1.*…$/);
    await expect(summary).toHaveAttribute('title', LONG_AGENT_SESSIONS[1]?.userAgent);
  },
};

/** Loading. */
export const Loading: Story = {
  args: { sessions: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Loading sessions…')).toBeVisible();
  },
};

/** The list failed: the message and Retry. */
export const Error: Story = {
  args: { sessions: { status: 'error', message: 'Internal server error' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('Internal server error')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};

/** Ending failed: the reason above the table. */
export const EndFailed: Story = {
  args: { endError: 'That session had already ended.' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('That session had already ended.');
  },
};
