import { forwardRef, type ButtonHTMLAttributes } from 'react';
import styles from './Button.module.css';

/** Props of {@link Button}: a native button plus a visual variant. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Visual weight: primary for the one main action of a view, danger for revocations. */
  variant?: 'default' | 'primary' | 'danger' | 'ghost';
  /** Compact size for table rows and toolbars. */
  size?: 'medium' | 'small';
}

/** The console's button. Always `type="button"` unless told otherwise, so it never submits by accident. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'default', size = 'medium', type = 'button', className, ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={className ? `${styles.button} ${className}` : styles.button}
      data-variant={variant}
      data-size={size}
      {...rest}
    />
  );
});
