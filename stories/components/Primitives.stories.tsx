import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { useState } from 'react';
import { Badge } from '../../src/components/Badge';
import { Banner } from '../../src/components/Banner';
import { Button } from '../../src/components/Button';
import { StatCard } from '../../src/components/Card';
import { SelectField, TextField } from '../../src/components/Field';

/** The primitives every view is built from, in each of their variants. */
interface PrimitivesArgs {
  /** Spy for the default button. */
  onClick: () => void;
}
const meta: Meta<PrimitivesArgs> = {
  title: 'Components/Primitives',
  args: { onClick: fn() },
};
export default meta;
type Story = StoryObj<PrimitivesArgs>;

export const Buttons: Story = {
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

export const Badges: Story = {
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

export const Banners: Story = {
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

export const StatCards: Story = {
  render: () => (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 200px)', gap: 8 }}>
      <StatCard label="MRR" value="$12,345.67" />
      <StatCard label="Active" value="1,204" hint="Currently active" />
      <StatCard label="Avg Days Remaining" value="—" />
    </div>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'MRR' })).toHaveTextContent('$12,345.67');
    await expect(canvas.getByText('Currently active')).toBeVisible();
  },
};

function FieldsDemo() {
  const [email, setEmail] = useState('');
  const [provider, setProvider] = useState('');
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'end' }}>
      <TextField
        label="Email"
        value={email}
        onValueChange={setEmail}
        placeholder="name@example.com"
      />
      <SelectField
        label="Provider"
        value={provider}
        onValueChange={setProvider}
        options={[
          { value: '', label: 'All' },
          { value: 'lemonsqueezy', label: 'lemonsqueezy' },
          { value: 'clickbank', label: 'clickbank' },
        ]}
      />
      <TextField label="Start from" type="date" value="2026-11-01" onValueChange={() => {}} />
    </div>
  );
}

export const Fields: Story = {
  render: () => <FieldsDemo />,
  play: async ({ canvas }) => {
    const email = canvas.getByLabelText('Email');
    await userEvent.type(email, 'ada@example.com');
    await expect(email).toHaveValue('ada@example.com');
    await userEvent.selectOptions(canvas.getByLabelText('Provider'), 'clickbank');
    await expect(canvas.getByLabelText('Provider')).toHaveValue('clickbank');
  },
};
