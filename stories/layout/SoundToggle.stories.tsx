import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { SoundToggle } from '../../src/components/SoundToggle';

const meta = {
  title: 'Layout/SoundToggle',
  component: SoundToggle,
  parameters: { layout: 'fullscreen' },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-5)' }}>
        <Story />
      </div>
    ),
  ],
  args: { isEnabled: true, onToggle: fn() },
} satisfies Meta<typeof SoundToggle>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Sound alerts on: flipping asks to turn them off. */
export const On: Story = {
  play: async ({ canvas, args }) => {
    const toggle = canvas.getByRole('switch', { name: 'Sound alerts' });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(toggle).toHaveTextContent('Sound alerts');
    await userEvent.click(toggle);
    await expect(args.onToggle).toHaveBeenCalledOnce();
    await expect(args.onToggle).toHaveBeenLastCalledWith(false);
    await userEvent.keyboard(' ');
    await expect(args.onToggle).toHaveBeenCalledTimes(2);
  },
};

/** Sound alerts off: flipping asks to turn them on. */
export const Off: Story = {
  args: { ...On.args, isEnabled: false },
  play: async ({ canvas, args }) => {
    const toggle = canvas.getByRole('switch', { name: 'Sound alerts' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    await expect(args.onToggle).toHaveBeenCalledOnce();
    await expect(args.onToggle).toHaveBeenLastCalledWith(true);
  },
};

/** Compact header (mobile): the text is hidden visually, the accessible name stays. */
export const LabelHidden: Story = {
  args: { ...On.args, isLabelHidden: true },
  play: async ({ canvas, args }) => {
    const toggle = canvas.getByRole('switch', { name: 'Sound alerts' });
    await expect(canvas.getByText('Sound alerts')).toHaveClass('visually-hidden');
    await expect(toggle).toHaveAttribute('title', 'Sound alerts');
    await userEvent.click(toggle);
    await expect(args.onToggle).toHaveBeenLastCalledWith(false);
  },
};
