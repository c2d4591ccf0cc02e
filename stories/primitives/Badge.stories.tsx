import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Badge } from '../../src/components/Badge';

/**
 * A coloured status pill (§4 colours: green success, yellow warning, red danger, grey neutral,
 * purple done). The text carries the meaning; the colour only reinforces it.
 */
const meta = {
  title: 'Primitives/Badge',
  component: Badge,
  args: { tone: 'success', children: 'active' },
} satisfies Meta<typeof Badge>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Green: an active subscription or access. */
export const Success: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('active')).toHaveAttribute('data-tone', 'success');
    await expect(canvas.getByText('active')).not.toHaveAttribute('title');
  },
};

/** Yellow: needs attention soon (past_due, scheduled). */
export const Warning: Story = {
  args: { tone: 'warning', children: 'past_due' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('past_due')).toHaveAttribute('data-tone', 'warning');
  },
};

/** Red: cancelled or failed. */
export const Danger: Story = {
  args: { tone: 'danger', children: 'cancelled' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('cancelled')).toHaveAttribute('data-tone', 'danger');
  },
};

/** Blue: neutral information. */
export const Info: Story = {
  args: { tone: 'info', children: 'info' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('info')).toHaveAttribute('data-tone', 'info');
  },
};

/** Grey: over and done with (expired). */
export const Neutral: Story = {
  args: { tone: 'neutral', children: 'expired' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('expired')).toHaveAttribute('data-tone', 'neutral');
  },
};

/** Purple: the "done" family (fatal log level). */
export const Done: Story = {
  args: { tone: 'done', children: 'fatal' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('fatal')).toHaveAttribute('data-tone', 'done');
  },
};

/** With a title: a native tooltip, also read by screen readers after the text. */
export const WithTitle: Story = {
  args: {
    tone: 'warning',
    children: 'Scheduled',
    title: 'Scheduled to expire at 2026-12-01 09:00 (UTC)',
  },
  play: async ({ canvas }) => {
    const badge = canvas.getByText('Scheduled').closest('span');
    await expect(badge).toHaveAttribute('title', 'Scheduled to expire at 2026-12-01 09:00 (UTC)');
    await expect(badge).toHaveTextContent(
      'Scheduled (Scheduled to expire at 2026-12-01 09:00 (UTC))',
    );
  },
};

/** Every tone side by side, as they meet in the tables. */
export const AllTones: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 8 }}>
      <Badge tone="success">active</Badge>
      <Badge tone="warning">past_due</Badge>
      <Badge tone="danger">cancelled</Badge>
      <Badge tone="info">info</Badge>
      <Badge tone="neutral">expired</Badge>
      <Badge tone="done">fatal</Badge>
      <Badge tone="warning" title="Scheduled to expire at 2026-12-01 09:00 (UTC)">
        Scheduled
      </Badge>
    </div>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByText('active')).toHaveAttribute('data-tone', 'success');
    await expect(canvas.getByText('Scheduled').closest('span')).toHaveAttribute(
      'title',
      'Scheduled to expire at 2026-12-01 09:00 (UTC)',
    );
  },
};
