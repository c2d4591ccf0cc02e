import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { customerPath } from '../../domain/customer';
import styles from './CustomerLink.module.css';

/** Props of {@link CustomerLink}. */
export interface CustomerLinkProps {
  /** The customer's email; the link goes to /customers/<email>. */
  email: string;
  /** The link's text; the email itself by default. */
  children?: ReactNode;
  /** Cut the text with an ellipsis to the cell's width (the full email is its title). */
  isTruncated?: boolean;
  /** An accessible name when the text alone does not say whose page it is. */
  'aria-label'?: string;
}

/**
 * A link to one customer's page (docs/api.md "Customers"), wherever an email is shown: Users,
 * Subscriptions, the drawer, ISR events, log contexts and webhook deliveries. Pure.
 */
export function CustomerLink({
  email,
  children,
  isTruncated = false,
  'aria-label': ariaLabel,
}: CustomerLinkProps) {
  return (
    <Link
      to={customerPath(email)}
      className={isTruncated ? `${styles.link} ${styles.truncate}` : styles.link}
      title={isTruncated ? email : undefined}
      aria-label={ariaLabel}
    >
      {children ?? email}
    </Link>
  );
}
