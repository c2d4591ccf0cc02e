import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { JsonBlock } from '../../src/components/JsonBlock';
import lemonSqueezyFixture from '../../tests/msw/provider/lemonsqueezy-subscription-response.json';

const meta = {
  title: 'Primitives/JsonBlock',
  component: JsonBlock,
  // Shown at the drawer's width, where the component lives (§2 Subscription details).
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 'var(--drawer-width)', padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
  args: {
    label: 'First subscription item',
    value: lemonSqueezyFixture.data.attributes.first_subscription_item,
  },
} satisfies Meta<typeof JsonBlock>;
export default meta;
type Story = StoryObj<typeof meta>;

/** An object pretty-printed with two-space indents, in a labelled, focusable region. */
export const Default: Story = {
  play: async ({ canvas }) => {
    const region = canvas.getByRole('region', { name: 'First subscription item' });
    await expect(region.tagName).toBe('PRE');
    await expect(region).toHaveAttribute('tabindex', '0');
    await expect(region.textContent).toBe(
      JSON.stringify(lemonSqueezyFixture.data.attributes.first_subscription_item, null, 2),
    );
  },
};

/** null (e.g. no pause) shows a dash, not the word null. */
export const Empty: Story = {
  args: { ...Default.args, label: 'Pause', value: null },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Pause')).toBeVisible();
    await expect(canvas.getByText('—')).toBeVisible();
    await expect(canvas.queryByRole('region')).toBeNull();
  },
};

/** Markup inside values is shown as text, never interpreted as HTML. */
export const MarkupAsText: Story = {
  args: {
    ...Default.args,
    label: 'Provider payload',
    value: '{"note":"<img src=x onerror=alert(1)><b>bold</b>"}',
  },
  play: async ({ canvas, canvasElement }) => {
    const region = canvas.getByRole('region', { name: 'Provider payload' });
    await expect(region).toHaveTextContent('<img src=x onerror=alert(1)><b>bold</b>');
    await expect(canvasElement.querySelector('img, b')).toBeNull();
    // JSON text is re-indented like an object.
    await expect(region.textContent).toBe(
      '{\n  "note": "<img src=x onerror=alert(1)><b>bold</b>"\n}',
    );
  },
};

/** A whole provider payload: the box keeps its height limit and scrolls; long lines wrap. */
export const LongJson: Story = {
  args: { ...Default.args, label: 'Provider payload', value: lemonSqueezyFixture.data },
  play: async ({ canvas }) => {
    const region = canvas.getByRole('region', { name: 'Provider payload' });
    await expect(region.scrollHeight).toBeGreaterThan(region.clientHeight);
    await expect(region.scrollWidth).toBeLessThanOrEqual(region.clientWidth);
    await expect(region).toHaveTextContent('"user_email": "johndoe@example.com"');
  },
};

/** With a section heading already naming it, the label is kept for screen readers only. */
export const LabelHidden: Story = {
  args: {
    ...Default.args,
    label: 'Pause',
    value: { mode: 'void', resumes_at: '2026-12-20T00:00:00Z' },
    isLabelHidden: true,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'Pause' })).toBeVisible();
    await expect(canvas.getByText('Pause')).toHaveClass('visually-hidden');
  },
};
