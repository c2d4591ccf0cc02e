import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { Button } from '../../src/components/Button';

/**
 * The console's button (a native `<button>`, `type="button"` unless told otherwise): four
 * variants, two sizes, and the disabled state.
 */
const meta = {
  title: 'Primitives/Button',
  component: Button,
  args: { children: 'Save', onClick: fn() },
} satisfies Meta<typeof Button>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The default variant: clicking reports once; it never submits a form by accident. */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    const button = canvas.getByRole('button', { name: 'Save' });
    await expect(button).toHaveAttribute('type', 'button');
    await expect(button).toHaveAttribute('data-variant', 'default');
    await expect(button).toHaveAttribute('data-size', 'medium');
    await userEvent.click(button);
    await expect(args.onClick).toHaveBeenCalledOnce();
  },
};

/** The one main action of a view (Sign in, Apply). */
export const Primary: Story = {
  args: { variant: 'primary', children: 'Sign in' },
  play: async ({ canvas, args }) => {
    const button = canvas.getByRole('button', { name: 'Sign in' });
    await expect(button).toHaveAttribute('data-variant', 'primary');
    await userEvent.click(button);
    await expect(args.onClick).toHaveBeenCalledOnce();
  },
};

/** Revocations and other destructive actions. */
export const Danger: Story = {
  args: { variant: 'danger', children: 'Revoke now' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Revoke now' })).toHaveAttribute(
      'data-variant',
      'danger',
    );
  },
};

/** A borderless button for secondary actions inside dense rows. */
export const Ghost: Story = {
  args: { variant: 'ghost', children: 'Clear' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Clear' })).toHaveAttribute(
      'data-variant',
      'ghost',
    );
  },
};

/** The compact size for table rows and toolbars. */
export const Small: Story = {
  args: { size: 'small', children: 'Retry' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Retry' })).toHaveAttribute(
      'data-size',
      'small',
    );
  },
};

/** Disabled: announced as such and clicks are not reported. */
export const Disabled: Story = {
  args: { disabled: true, children: 'Applying…' },
  play: async ({ canvas, args }) => {
    const button = canvas.getByRole('button', { name: 'Applying…' });
    await expect(button).toBeDisabled();
    await userEvent.click(button, { pointerEventsCheck: 0 });
    await expect(args.onClick).not.toHaveBeenCalled();
  },
};

/** A form's submit button: `type` can still be set explicitly. */
export const Submit: Story = {
  args: { type: 'submit', variant: 'primary', children: 'Sign in' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toHaveAttribute('type', 'submit');
  },
};

/** Every variant and size side by side, as they meet in the views. */
export const AllVariants: Story = {
  render: ({ onClick }) => (
    <div style={{ display: 'flex', gap: 8 }}>
      <Button onClick={onClick}>Default</Button>
      <Button variant="primary">Primary</Button>
      <Button variant="danger">Revoke now</Button>
      <Button variant="ghost">Ghost</Button>
      <Button size="small">Small</Button>
      <Button disabled>Disabled</Button>
    </div>
  ),
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Default' }));
    await expect(args.onClick).toHaveBeenCalledOnce();
    await expect(canvas.getByRole('button', { name: 'Disabled' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Primary' })).toHaveAttribute('type', 'button');
  },
};
