import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { LogLevelBadge } from '../../src/components/LogLevelBadge';

const meta = {
  title: 'Logs/LogLevelBadge',
  component: LogLevelBadge,
  args: { level: 'info' },
} satisfies Meta<typeof LogLevelBadge>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every §9 level with its §2 colour: trace/debug grey, info blue, warn yellow, error red, fatal purple; others grey; missing a dash. */
export const AllLevels: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 'var(--space-2)', flexWrap: 'wrap' }}>
      {['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'notice', null].map((level) => (
        <LogLevelBadge key={String(level)} level={level} />
      ))}
    </div>
  ),
  play: async ({ canvas }) => {
    const tone = (text: string) => canvas.getByText(text).getAttribute('data-tone');
    await expect(tone('trace')).toBe('neutral');
    await expect(tone('debug')).toBe('neutral');
    await expect(tone('info')).toBe('info');
    await expect(tone('warn')).toBe('warning');
    await expect(tone('error')).toBe('danger');
    await expect(tone('fatal')).toBe('done');
    await expect(tone('notice')).toBe('neutral');
    await expect(tone('—')).toBe('neutral');
  },
};

/** Upper-case levels from another backend read the same. */
export const UpperCase: Story = {
  args: { level: 'ERROR' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('error')).toHaveAttribute('data-tone', 'danger');
  },
};
