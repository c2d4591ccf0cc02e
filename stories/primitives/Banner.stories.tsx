import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { Banner } from '../../src/components/Banner';
import { Button } from '../../src/components/Button';

/**
 * A full-width message with an optional trailing control. Danger banners are announced at once
 * (`role="alert"`); the other tones politely (`role="status"`).
 */
/** Spy for the Retry control of {@link DangerWithRetry} (the control is the caller's own element). */
const onRetry = fn();

const meta = {
  title: 'Primitives/Banner',
  component: Banner,
  args: {
    tone: 'warning',
    children:
      'Backend database is currently unavailable. You can still log in; some features may be limited.',
  },
} satisfies Meta<typeof Banner>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The amber notice (§2 Login: database unavailable). */
export const Warning: Story = {
  play: async ({ canvas }) => {
    const banner = canvas.getByRole('status');
    await expect(banner).toHaveAttribute('data-tone', 'warning');
    await expect(banner).toHaveTextContent('Backend database is currently unavailable.');
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** The red error banner with a Retry control; it interrupts assistive technology at once. */
export const DangerWithRetry: Story = {
  args: {
    tone: 'danger',
    children: 'Error: Failed to load users',
    action: (
      <Button size="small" onClick={onRetry}>
        Retry
      </Button>
    ),
  },
  beforeEach: () => {
    onRetry.mockClear();
  },
  play: async ({ canvas }) => {
    const banner = canvas.getByRole('alert');
    await expect(banner).toHaveAttribute('data-tone', 'danger');
    await expect(banner).toHaveTextContent('Error: Failed to load users');
    // The control's clicks reach the caller's handler.
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(onRetry).toHaveBeenCalledOnce();
  },
};

/** A danger banner without a control. */
export const Danger: Story = {
  args: { tone: 'danger', children: 'Incorrect password' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Incorrect password');
    await expect(canvas.queryByRole('button')).toBeNull();
  },
};

/** A successful action's result. */
export const Success: Story = {
  args: { tone: 'success', children: 'OK (Discourse updated)' },
  play: async ({ canvas }) => {
    const banner = canvas.getByRole('status');
    await expect(banner).toHaveAttribute('data-tone', 'success');
    await expect(banner).toHaveTextContent('OK (Discourse updated)');
  },
};

/** A neutral hint. */
export const Info: Story = {
  args: { tone: 'info', children: 'Click an email to view details.' },
  play: async ({ canvas }) => {
    const banner = canvas.getByRole('status');
    await expect(banner).toHaveAttribute('data-tone', 'info');
    await expect(banner).toHaveTextContent('Click an email to view details.');
  },
};

/** A grey note. */
export const Neutral: Story = {
  args: { tone: 'neutral', children: 'No notices.' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveAttribute('data-tone', 'neutral');
  },
};

/** Every tone stacked, as they meet in the views. */
export const AllTones: Story = {
  render: () => (
    <div style={{ display: 'grid', gap: 8 }}>
      <Banner tone="warning">
        Backend database is currently unavailable. You can still log in; some features may be
        limited.
      </Banner>
      <Banner tone="danger" action={<Button size="small">Retry</Button>}>
        Error: Failed to load users
      </Banner>
      <Banner tone="success">OK (Discourse updated)</Banner>
      <Banner tone="info">Click an email to view details.</Banner>
    </div>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Error: Failed to load users');
    await expect(canvas.getAllByRole('status')).toHaveLength(3);
  },
};
