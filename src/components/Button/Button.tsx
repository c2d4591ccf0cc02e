import type { ComponentPropsWithRef } from 'react';
import styles from './Button.module.css';

/** Props of {@link Button}: a native button (with its `ref`) plus a visual variant. */
export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  /** Visual weight: primary for the one main action of a view, danger for revocations. */
  variant?: 'default' | 'primary' | 'danger' | 'ghost';
  /** Compact size for table rows and toolbars. */
  size?: 'medium' | 'small';
}

/** The console's button. Always `type="button"` unless told otherwise, so it never submits by accident. */
export function Button({
  variant = 'default',
  size = 'medium',
  type = 'button',
  className,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={className ? `${styles.button} ${className}` : styles.button}
      data-variant={variant}
      data-size={size}
      {...rest}
    />
  );
}
