import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { ActionResultAlert } from '../../src/components/ActionResultAlert';

const meta = {
  title: 'Users/ActionResultAlert',
  component: ActionResultAlert,
  args: { tone: 'success', message: 'OK (scheduled for 2026-11-21 09:00 UTC)', onDismiss: fn() },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ActionResultAlert>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A dated action was scheduled (§8 'OK (scheduled for {time} UTC)'); Dismiss reports. */
export const Scheduled: Story = {
  play: async ({ canvas, args }) => {
    const status = canvas.getByRole('status');
    await expect(status).toHaveTextContent('OK (scheduled for 2026-11-21 09:00 UTC)');
    await expect(status).toHaveAttribute('data-tone', 'success');
    await userEvent.click(canvas.getByRole('button', { name: 'Dismiss' }));
    await expect(args.onDismiss).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Access changed but the forum refused (§8 'Done, but Discourse error (status): message — details'). */
export const DiscourseError: Story = {
  args: {
    ...Scheduled.args,
    tone: 'warning',
    message: 'Done, but Discourse error (422): Invalid email — Email has already been taken',
  },
  play: async ({ canvas }) => {
    const status = canvas.getByRole('status');
    await expect(status).toHaveTextContent(
      'Done, but Discourse error (422): Invalid email — Email has already been taken',
    );
    await expect(status).toHaveAttribute('data-tone', 'warning');
  },
};

/** The forum sent an invite (§8 'OK (Discourse invite sent to group {id})'). */
export const DiscourseInvite: Story = {
  args: { ...Scheduled.args, message: 'OK (Discourse invite sent to group 42)' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent(
      'OK (Discourse invite sent to group 42)',
    );
  },
};

/** The forum updated the user (§8 'OK (Discourse updated)'). */
export const DiscourseUpdated: Story = {
  args: { ...Scheduled.args, message: 'OK (Discourse updated)' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('OK (Discourse updated)');
  },
};

/** The forum step was skipped (§8 'OK (Discourse skipped: {reason})'): done, but worth a look. */
export const DiscourseSkipped: Story = {
  args: {
    ...Scheduled.args,
    tone: 'warning',
    message: 'OK (Discourse skipped: Discourse not configured)',
  },
  play: async ({ canvas }) => {
    const status = canvas.getByRole('status');
    await expect(status).toHaveTextContent('OK (Discourse skipped: Discourse not configured)');
    await expect(status).toHaveAttribute('data-tone', 'warning');
  },
};

/** The server queued the forum update (its outbox): access changed, the forum follows in the background. */
export const DiscourseQueued: Story = {
  args: {
    ...Scheduled.args,
    message: 'OK (Discourse update queued: the forum is updated in the background)',
  },
  play: async ({ canvas }) => {
    const status = canvas.getByRole('status');
    await expect(status).toHaveTextContent(
      'OK (Discourse update queued: the forum is updated in the background)',
    );
    await expect(status).toHaveAttribute('data-tone', 'success');
  },
};

/** Plain success (§8 'OK'). */
export const Ok: Story = {
  args: { ...Scheduled.args, message: 'OK' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent(/^OKDismiss$/);
  },
};

/** A failed action (§8 'Request failed'): red, announced at once as an alert. */
export const RequestFailed: Story = {
  args: { ...Scheduled.args, tone: 'danger', message: 'Request failed' },
  play: async ({ canvas, args }) => {
    const alert = canvas.getByRole('alert');
    await expect(alert).toHaveTextContent('Request failed');
    await expect(alert).toHaveAttribute('data-tone', 'danger');
    await expect(canvas.queryByRole('status')).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Dismiss' }));
    await expect(args.onDismiss).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
